// Package postgres is a checkpoint store in PostgreSQL, through
// github.com/jackc/pgx/v5 and pgxpool, for soni serve replicas that share
// one database.
//
// Checkpoints are bytea, kept byte for byte. A session's lock is first its
// place in this process's queue and then pg_advisory_lock on a connection
// pinned for the transaction, from a pool of its own; the transaction's
// statements run on that connection, so a turn holds one connection, and a
// turn waiting in the queue holds none. A replica that dies closes its
// connections and so releases its locks. A commit is one database
// transaction: the first an INSERT … ON CONFLICT DO NOTHING, the next ones
// an UPDATE … WHERE session_id = $4 AND revision = $5 (no row: a conflict),
// with the turn's log record inserted in the same transaction.
//
// The tables carry a schema version (soni_schema). Opening a store reads
// it and runs no DDL when it is current; when it is behind, the store
// migrates it once, under an advisory lock, unless opened with NoMigrate
// (read-only commands), and Migrate does it on its own (soni db migrate).
package postgres

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/checkpoints/internal/sqlcore"
)

// Store is a [checkpoints.Store] in PostgreSQL.
type Store struct {
	*sqlcore.Store
	pool  *pgxpool.Pool
	locks *pgxpool.Pool
	queue *checkpoints.Queue
	owned bool // Open made pool, and Close closes it
}

var _ checkpoints.Store = (*Store)(nil)

// Options configure a store. Every field is optional.
type Options struct {
	// NoMigrate opens the store without ever changing its tables: when
	// they are behind this soni, Open fails with an error matching
	// [checkpoints.ErrSchemaOutdated] instead of migrating them. Commands
	// that only read open stores so.
	NoMigrate bool
	// MaxWaiting is how many turns of one session may wait for its lock in
	// this process besides the holder (0: checkpoints.DefaultMaxWaiting).
	MaxWaiting int
}

// migrationLock is the advisory lock key migrators take.
const migrationLock = 7236281729

var schema = sqlcore.Schema{
	Steps: [][]string{{
		`CREATE TABLE IF NOT EXISTS soni_schema (version integer NOT NULL)`,
		`CREATE TABLE IF NOT EXISTS soni_checkpoints (
			session_id text PRIMARY KEY,
			revision bigint NOT NULL,
			data bytea NOT NULL,
			updated_at timestamptz NOT NULL DEFAULT now()
		)`,
		`CREATE TABLE IF NOT EXISTS soni_events (
			session_id text NOT NULL,
			revision bigint NOT NULL,
			msg_key text,
			data bytea NOT NULL,
			PRIMARY KEY (session_id, revision)
		)`,
		`CREATE INDEX IF NOT EXISTS soni_events_key ON soni_events (session_id, msg_key) WHERE msg_key IS NOT NULL`,
		`CREATE INDEX IF NOT EXISTS soni_checkpoints_updated ON soni_checkpoints (updated_at)`,
	}, {
		// Version 2: the program versions sessions were saved with.
		`CREATE TABLE IF NOT EXISTS soni_programs (
			version text PRIMARY KEY,
			data bytea NOT NULL,
			saved_at timestamptz NOT NULL,
			used_at timestamptz NOT NULL
		)`,
	}},
	// A plain query of the catalog, not to_regclass, whose cached view of
	// the catalog may not show a table another migrator just committed.
	Exists: `SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = 'soni_schema'`,
	Lock:   fmt.Sprintf(`SELECT pg_advisory_xact_lock(%d)`, migrationLock),
	Read:   `SELECT version FROM soni_schema`,
	Insert: `INSERT INTO soni_schema (version) VALUES ($1)`,
	Update: `UPDATE soni_schema SET version = $1`,
}

var queries = sqlcore.Queries{
	Load:        `SELECT data, revision FROM soni_checkpoints WHERE session_id = $1`,
	Revision:    `SELECT revision FROM soni_checkpoints WHERE session_id = $1`,
	Insert:      `INSERT INTO soni_checkpoints (session_id, revision, data, updated_at) VALUES ($1, 1, $2, $3) ON CONFLICT DO NOTHING`,
	Update:      `UPDATE soni_checkpoints SET revision = $1, data = $2, updated_at = $3 WHERE session_id = $4 AND revision = $5`,
	ClearEvents: `DELETE FROM soni_events WHERE session_id = $1`,
	AddEvent:    `INSERT INTO soni_events (session_id, revision, msg_key, data) VALUES ($1, $2, $3, $4)`,
	Lookup:      `SELECT revision, data FROM soni_events WHERE session_id = $1 AND msg_key = $2 ORDER BY revision LIMIT 1`,
	Log:         `SELECT revision, COALESCE(msg_key, ''), data FROM soni_events WHERE session_id = $1 AND revision > $2 ORDER BY revision LIMIT $3`,
	List:        `SELECT session_id, revision, updated_at FROM soni_checkpoints WHERE session_id > $1 COLLATE "C" ORDER BY session_id COLLATE "C" LIMIT $2`,
	Delete:      `DELETE FROM soni_checkpoints WHERE session_id = $1`,
	Stale:       `SELECT session_id FROM soni_checkpoints WHERE updated_at < $1 AND session_id > $2 COLLATE "C" ORDER BY session_id COLLATE "C" LIMIT $3`,
	DeleteStale: `DELETE FROM soni_checkpoints WHERE session_id = $1 AND updated_at < $2`,
	Ping:        `SELECT 1 FROM soni_checkpoints LIMIT 1`,
	SaveProgram: `INSERT INTO soni_programs (version, data, saved_at, used_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (version) DO UPDATE SET used_at = excluded.used_at RETURNING saved_at`,
	LoadProgram:   `SELECT data, saved_at FROM soni_programs WHERE version = $1`,
	Programs:      `SELECT version, saved_at, used_at, octet_length(data) FROM soni_programs ORDER BY saved_at, version`,
	DeleteProgram: `DELETE FROM soni_programs WHERE version = $1`,
}

// Open connects to the database at url (any libpq URL or DSN) and checks
// its tables, migrating them when they are behind (unless
// opts.NoMigrate). Close releases the connections.
func Open(ctx context.Context, url string, opts Options) (*Store, error) {
	pool, err := connect(ctx, url)
	if err != nil {
		return nil, err
	}
	s, err := New(ctx, pool, opts)
	if err != nil {
		pool.Close()
		return nil, err
	}
	s.owned = true
	return s, nil
}

func connect(ctx context.Context, url string) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres store: %s", redact(err))
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres store: %s", redact(err))
	}
	return pool, nil
}

// Migrate brings the tables of the database at url to this soni's version
// and returns the version they had and the version they have. It is safe
// to run while replicas serve: it takes the migration lock, and does
// nothing when the tables are current.
func Migrate(ctx context.Context, url string) (from, to int, err error) {
	pool, err := connect(ctx, url)
	if err != nil {
		return 0, 0, err
	}
	defer pool.Close()
	from, to, err = sqlcore.Prepare(ctx, pgConn{pool}, schema, pgx.ErrNoRows, true)
	if err != nil {
		return from, to, fmt.Errorf("postgres store: %w", redactErr(err))
	}
	return from, to, nil
}

// New makes a store on an embedding program's pool, checking the tables
// (and migrating them when they are behind, unless opts.NoMigrate). The
// transactions use a second pool with the same configuration (up to 64
// connections, one per session with a turn in flight); Close closes that
// one, and the given pool only if Open made it.
func New(ctx context.Context, pool *pgxpool.Pool, opts Options) (*Store, error) {
	if _, _, err := sqlcore.Prepare(ctx, pgConn{pool}, schema, pgx.ErrNoRows, !opts.NoMigrate); err != nil {
		return nil, fmt.Errorf("postgres store: %w", redactErr(err))
	}
	lcfg := pool.Config().Copy()
	if lcfg.MaxConns < 64 {
		lcfg.MaxConns = 64
	}
	lcfg.MinConns = 0
	locks, err := pgxpool.NewWithConfig(ctx, lcfg)
	if err != nil {
		return nil, fmt.Errorf("postgres store: %s", redact(err))
	}
	s := &Store{pool: pool, locks: locks, queue: checkpoints.NewQueue(opts.MaxWaiting)}
	s.Store = sqlcore.New(sqlcore.Backend{
		Name:    "postgres store",
		DB:      pgConn{pool},
		Lock:    s.lock,
		Q:       queries,
		NoRows:  pgx.ErrNoRows,
		NoLimit: nil,
		TimeArg: func(t time.Time) any { return t },
		Time:    func(v any) time.Time { t, _ := v.(time.Time); return t },
		Err:     func(err error) error { return redactErr(err) },
		Close:   s.close,
		Queue:   s.queue,
	})
	return s, nil
}

func (s *Store) close() error {
	s.locks.Close()
	if s.owned {
		s.pool.Close()
	}
	return nil
}

// redact drops a connection string from a pgx error message.
func redact(err error) string {
	var pe *pgconn.ParseConfigError
	if errors.As(err, &pe) {
		return "the database URL is not valid: " + pe.Unwrap().Error()
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return "cannot connect to the database: " + attempts(ce.Unwrap())
	}
	return err.Error()
}

// attempts says why the connection attempts failed, each reason once: pgx
// joins one error per attempt (each address, with and without TLS), and
// they are most often the same.
func attempts(err error) string {
	for e := err; e != nil; e = errors.Unwrap(e) {
		j, ok := e.(interface{ Unwrap() []error })
		if !ok {
			continue
		}
		var msgs []string
		for _, one := range j.Unwrap() {
			if m := one.Error(); !slices.Contains(msgs, m) {
				msgs = append(msgs, m)
			}
		}
		return strings.Join(msgs, "; ")
	}
	return err.Error()
}

// redactErr is redact for errors the core wraps: connection errors lose
// their connection string, others pass unchanged (so that errors.Is still
// sees a context's end).
func redactErr(err error) error {
	var pe *pgconn.ParseConfigError
	var ce *pgconn.ConnectError
	if errors.As(err, &pe) || errors.As(err, &ce) {
		return errors.New(redact(err))
	}
	return err
}

// lockKey is the advisory lock key of a session.
func lockKey(id string) int64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte("soni-turn:"))
	_, _ = h.Write([]byte(id))
	return int64(h.Sum64())
}

// lock takes pg_advisory_lock on a connection of the lock pool, pinned
// until the release, and runs the transaction's statements on it.
func (s *Store) lock(ctx context.Context, id string) (sqlcore.Conn, func(bool), error) {
	conn, err := s.locks.Acquire(ctx)
	if err != nil {
		return nil, nil, err
	}
	key := lockKey(id)
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, key); err != nil {
		// A canceled wait may leave the connection unsure: drop it.
		_ = conn.Conn().Close(context.Background())
		conn.Release()
		return nil, nil, err
	}
	return pgConn{conn}, func(bool) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := conn.Exec(ctx, `SELECT pg_advisory_unlock($1)`, key); err != nil {
			// Closing the connection releases the lock for sure.
			_ = conn.Conn().Close(ctx)
		}
		conn.Release()
	}, nil
}

// querier is what a pool and a pinned connection both offer.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Begin(ctx context.Context) (pgx.Tx, error)
}

// pgConn adapts a pool or a connection to the core.
type pgConn struct{ q querier }

func (c pgConn) QueryRow(ctx context.Context, query string, args ...any) sqlcore.Row {
	return c.q.QueryRow(ctx, query, args...)
}

func (c pgConn) Query(ctx context.Context, query string, args ...any) (sqlcore.Rows, error) {
	return c.q.Query(ctx, query, args...)
}

func (c pgConn) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	tag, err := c.q.Exec(ctx, query, args...)
	return tag.RowsAffected(), err
}

func (c pgConn) Begin(ctx context.Context) (sqlcore.Txn, error) {
	tx, err := c.q.Begin(ctx)
	if err != nil {
		return nil, err
	}
	return pgTxn{tx}, nil
}

type pgTxn struct{ tx pgx.Tx }

func (t pgTxn) QueryRow(ctx context.Context, query string, args ...any) sqlcore.Row {
	return t.tx.QueryRow(ctx, query, args...)
}

func (t pgTxn) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	tag, err := t.tx.Exec(ctx, query, args...)
	return tag.RowsAffected(), err
}

func (t pgTxn) Commit(ctx context.Context) error { return t.tx.Commit(ctx) }

func (t pgTxn) Rollback(ctx context.Context) error { return t.tx.Rollback(ctx) }
