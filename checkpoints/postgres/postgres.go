// Package postgres is a checkpoint store in PostgreSQL, through
// github.com/jackc/pgx/v5 and pgxpool, for soni serve replicas that share
// one database.
//
// Checkpoints are bytea, kept byte for byte. A save is one transaction:
// the first one an INSERT … ON CONFLICT DO NOTHING, the next ones an
// UPDATE … WHERE session_id = $1 AND revision = $2 (no row: a conflict),
// with the turn's log record inserted in the same transaction. The tables
// are created and migrated by the store under an advisory lock, with a
// version table. The turn lock is pg_advisory_lock on a connection pinned
// for the turn, from a pool of its own, so that turns waiting for a lock
// never starve the queries of the turns holding one; a replica that dies
// closes its connections and so releases its locks.
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
)

// Store is a [checkpoints.Journal] in PostgreSQL.
type Store struct {
	pool  *pgxpool.Pool
	locks *pgxpool.Pool
	owned bool
}

var _ checkpoints.Journal = (*Store)(nil)

// schemaVersion is the version of the tables; Open migrates older ones.
const schemaVersion = 1

var migrations = []string{
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
}

// Open connects to the database at url (any libpq URL or DSN) and creates
// or migrates the tables. Close releases the connections.
func Open(ctx context.Context, url string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres store: %s", redact(err))
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres store: %s", redact(err))
	}
	s, err := New(ctx, pool)
	if err != nil {
		pool.Close()
		return nil, err
	}
	s.owned = true
	return s, nil
}

// New makes a store on an embedding program's pool and creates or
// migrates the tables. The turn locks use a second pool with the same
// configuration (up to 64 connections, one per turn in flight); Close
// closes that one, and the given pool only if Open made it.
func New(ctx context.Context, pool *pgxpool.Pool) (*Store, error) {
	lcfg := pool.Config().Copy()
	if lcfg.MaxConns < 64 {
		lcfg.MaxConns = 64
	}
	lcfg.MinConns = 0
	locks, err := pgxpool.NewWithConfig(ctx, lcfg)
	if err != nil {
		return nil, fmt.Errorf("postgres store: %s", redact(err))
	}
	s := &Store{pool: pool, locks: locks}
	if err := s.migrate(ctx); err != nil {
		locks.Close()
		return nil, err
	}
	return s, nil
}

// Close closes the store's connections.
func (s *Store) Close() {
	s.locks.Close()
	if s.owned {
		s.pool.Close()
	}
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

func (s *Store) migrate(ctx context.Context) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("postgres store: %s", redact(err))
	}
	defer func() { _ = tx.Rollback(ctx) }()
	// One migrator at a time, across replicas starting together.
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(7236281729)`); err != nil {
		return fmt.Errorf("postgres store: migrate: %w", err)
	}
	for _, m := range migrations {
		if _, err := tx.Exec(ctx, m); err != nil {
			return fmt.Errorf("postgres store: migrate: %w", err)
		}
	}
	var v int
	switch err := tx.QueryRow(ctx, `SELECT version FROM soni_schema`).Scan(&v); {
	case errors.Is(err, pgx.ErrNoRows):
		if _, err := tx.Exec(ctx, `INSERT INTO soni_schema (version) VALUES ($1)`, schemaVersion); err != nil {
			return fmt.Errorf("postgres store: migrate: %w", err)
		}
	case err != nil:
		return fmt.Errorf("postgres store: migrate: %w", err)
	case v > schemaVersion:
		return fmt.Errorf("postgres store: the database was written by a newer soni (schema %d, this soni knows %d): upgrade soni", v, schemaVersion)
	}
	return tx.Commit(ctx)
}

func begin(ctx context.Context, id string) error {
	if err := checkpoints.ValidateID(id); err != nil {
		return err
	}
	return ctx.Err()
}

// Load returns the session's checkpoint.
func (s *Store) Load(ctx context.Context, id string) ([]byte, uint64, error) {
	if err := begin(ctx, id); err != nil {
		return nil, 0, err
	}
	var data []byte
	var rev int64
	err := s.pool.QueryRow(ctx, `SELECT data, revision FROM soni_checkpoints WHERE session_id = $1`, id).Scan(&data, &rev)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, 0, fmt.Errorf("session %q: %w", id, checkpoints.ErrNotFound)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("load session %q: %w", id, err)
	}
	return data, uint64(rev), nil
}

// Save stores data if the session is at revision expected.
func (s *Store) Save(ctx context.Context, id string, expected uint64, data []byte) error {
	return s.commit(ctx, id, expected, data, nil)
}

// Commit saves data and appends rec in one transaction.
func (s *Store) Commit(ctx context.Context, id string, expected uint64, data []byte, rec checkpoints.Record) error {
	return s.commit(ctx, id, expected, data, &rec)
}

func (s *Store) commit(ctx context.Context, id string, expected uint64, data []byte, rec *checkpoints.Record) error {
	if err := begin(ctx, id); err != nil {
		return err
	}
	if err := checkpoints.CheckData(id, expected, data); err != nil {
		return err
	}
	if rec != nil {
		if err := checkpoints.CheckRecord(id, expected, *rec); err != nil {
			return err
		}
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("save session %q: %w", id, err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	var tag pgconn.CommandTag
	if expected == 0 {
		tag, err = tx.Exec(ctx, `INSERT INTO soni_checkpoints (session_id, revision, data) VALUES ($1, 1, $2) ON CONFLICT DO NOTHING`, id, data)
		if err == nil && tag.RowsAffected() == 1 {
			// A new session: what an earlier one of this id left goes.
			_, err = tx.Exec(ctx, `DELETE FROM soni_events WHERE session_id = $1`, id)
		}
	} else {
		tag, err = tx.Exec(ctx, `UPDATE soni_checkpoints SET revision = $3, data = $4, updated_at = now() WHERE session_id = $1 AND revision = $2`, id, int64(expected), int64(expected+1), data)
	}
	if err != nil {
		return fmt.Errorf("save session %q: %w", id, err)
	}
	if tag.RowsAffected() != 1 {
		var actual int64
		if err := tx.QueryRow(ctx, `SELECT revision FROM soni_checkpoints WHERE session_id = $1`, id).Scan(&actual); err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("save session %q: %w", id, err)
		}
		return &checkpoints.ConflictError{Session: id, Expected: expected, Actual: uint64(actual)}
	}
	if rec != nil {
		var key any
		if rec.Key != "" {
			key = rec.Key
		}
		if _, err := tx.Exec(ctx, `INSERT INTO soni_events (session_id, revision, msg_key, data) VALUES ($1, $2, $3, $4)`, id, int64(rec.Revision), key, rec.Data); err != nil {
			return fmt.Errorf("save the log of session %q: %w", id, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("save session %q: %w", id, err)
	}
	return nil
}

// Delete removes the session, its log and its keys.
func (s *Store) Delete(ctx context.Context, id string) error {
	if err := begin(ctx, id); err != nil {
		return err
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("delete session %q: %w", id, err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, `DELETE FROM soni_checkpoints WHERE session_id = $1`, id); err != nil {
		return fmt.Errorf("delete session %q: %w", id, err)
	}
	if _, err := tx.Exec(ctx, `DELETE FROM soni_events WHERE session_id = $1`, id); err != nil {
		return fmt.Errorf("delete session %q: %w", id, err)
	}
	return tx.Commit(ctx)
}

// Ping checks that the server answers on both pools (the data and the
// turn locks) and has the table, reading at most one row.
func (s *Store) Ping(ctx context.Context) error {
	var one int
	err := s.pool.QueryRow(ctx, `SELECT 1 FROM soni_checkpoints LIMIT 1`).Scan(&one)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("postgres store: %s", redact(err))
	}
	if err := s.locks.Ping(ctx); err != nil {
		return fmt.Errorf("postgres store, lock pool: %s", redact(err))
	}
	return nil
}

// List returns the session ids, sorted.
func (s *Store) List(ctx context.Context) ([]string, error) {
	infos, err := s.Sessions(ctx)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(infos))
	for i, in := range infos {
		ids[i] = in.ID
	}
	return ids, nil
}

// Sessions lists the sessions with their revision and last save.
func (s *Store) Sessions(ctx context.Context) ([]checkpoints.SessionInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT session_id, revision, updated_at FROM soni_checkpoints ORDER BY session_id COLLATE "C"`)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	out := []checkpoints.SessionInfo{}
	for rows.Next() {
		var in checkpoints.SessionInfo
		var rev int64
		if err := rows.Scan(&in.ID, &rev, &in.Updated); err != nil {
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		in.Revision, in.Updated = uint64(rev), in.Updated.UTC()
		out = append(out, in)
	}
	return out, rows.Err()
}

// Log returns the session's records after revision after.
func (s *Store) Log(ctx context.Context, id string, after uint64, limit int) ([]checkpoints.Record, error) {
	if err := begin(ctx, id); err != nil {
		return nil, err
	}
	var lim any // NULL: no limit
	if limit > 0 {
		lim = limit
	}
	rows, err := s.pool.Query(ctx, `SELECT revision, COALESCE(msg_key, ''), data FROM soni_events WHERE session_id = $1 AND revision > $2 ORDER BY revision LIMIT $3`, id, int64(after), lim)
	if err != nil {
		return nil, fmt.Errorf("read the log of session %q: %w", id, err)
	}
	defer rows.Close()
	out := []checkpoints.Record{}
	for rows.Next() {
		var r checkpoints.Record
		var rev int64
		if err := rows.Scan(&rev, &r.Key, &r.Data); err != nil {
			return nil, fmt.Errorf("read the log of session %q: %w", id, err)
		}
		r.Revision = uint64(rev)
		out = append(out, r)
	}
	return out, rows.Err()
}

// Lookup finds the record of the session's turn with the key.
func (s *Store) Lookup(ctx context.Context, id, key string) (checkpoints.Record, bool, error) {
	if err := begin(ctx, id); err != nil {
		return checkpoints.Record{}, false, err
	}
	if key == "" {
		return checkpoints.Record{}, false, nil
	}
	r := checkpoints.Record{Key: key}
	var rev int64
	err := s.pool.QueryRow(ctx, `SELECT revision, data FROM soni_events WHERE session_id = $1 AND msg_key = $2 ORDER BY revision LIMIT 1`, id, key).Scan(&rev, &r.Data)
	if errors.Is(err, pgx.ErrNoRows) {
		return checkpoints.Record{}, false, nil
	}
	if err != nil {
		return checkpoints.Record{}, false, fmt.Errorf("look up a message id of session %q: %w", id, err)
	}
	r.Revision = uint64(rev)
	return r, true, nil
}

// lockKey is the advisory lock key of a session.
func lockKey(id string) int64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte("soni-turn:"))
	_, _ = h.Write([]byte(id))
	return int64(h.Sum64())
}

// Lock takes pg_advisory_lock on a connection pinned until unlock.
func (s *Store) Lock(ctx context.Context, id string) (func(), error) {
	if err := begin(ctx, id); err != nil {
		return nil, err
	}
	conn, err := s.locks.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("lock session %q: %w", id, err)
	}
	key := lockKey(id)
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, key); err != nil {
		// A canceled wait may leave the connection unsure: drop it.
		_ = conn.Conn().Close(context.Background())
		conn.Release()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("lock session %q: %w", id, err)
	}
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := conn.Exec(ctx, `SELECT pg_advisory_unlock($1)`, key); err != nil {
			// Closing the connection releases the lock for sure.
			_ = conn.Conn().Close(ctx)
		}
		conn.Release()
	}, nil
}

// Prune deletes the sessions last saved before the given time.
func (s *Store) Prune(ctx context.Context, before time.Time) (int, error) {
	return checkpoints.PruneEach(ctx, s, before, func(ctx context.Context, id string) (bool, error) {
		tx, err := s.pool.Begin(ctx)
		if err != nil {
			return false, err
		}
		defer func() { _ = tx.Rollback(ctx) }()
		tag, err := tx.Exec(ctx, `DELETE FROM soni_checkpoints WHERE session_id = $1 AND updated_at < $2`, id, before)
		if err != nil || tag.RowsAffected() == 0 {
			return false, err // or saved meanwhile
		}
		if _, err := tx.Exec(ctx, `DELETE FROM soni_events WHERE session_id = $1`, id); err != nil {
			return false, err
		}
		return true, tx.Commit(ctx)
	})
}
