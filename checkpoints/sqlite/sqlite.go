// Package sqlite is a checkpoint store in one SQLite file, through
// modernc.org/sqlite (pure Go, no cgo, so go install works everywhere).
// Checkpoints, the event log and the message ids live in one file in WAL
// mode with a busy timeout; several processes on one machine may share it.
// A session's lock is a flock(2) per session in a directory beside the file
// (PATH-locks/ID.lock, removed with the session), which the kernel releases
// when a process dies; commits are compare-and-swaps in IMMEDIATE
// transactions. The transactions, the log, paging and pruning are the
// shared core of the database stores (checkpoints/internal/sqlcore).
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"time"

	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/checkpoints/internal/sqlcore"
	_ "modernc.org/sqlite" // the database/sql driver "sqlite"
)

// Store is a [checkpoints.Store] in one SQLite file.
type Store struct {
	*sqlcore.Store
	db *sql.DB
}

var _ checkpoints.Store = (*Store)(nil)

// Options configure a store. Every field is optional.
type Options struct {
	// NoMigrate opens the store without ever changing its tables: when
	// they are behind this soni, Open fails with an error matching
	// [checkpoints.ErrSchemaOutdated] instead of migrating them. Commands
	// that only read open stores so.
	NoMigrate bool
	// LockDir is the directory of the cross-process session locks. Open
	// uses PATH-locks; a store made by New with none locks sessions within
	// this process only.
	LockDir string
	// MaxWaiting is how many turns of one session may wait for its lock in
	// this process besides the holder (0: checkpoints.DefaultMaxWaiting).
	MaxWaiting int
}

// schema is the store's tables, version by version.
var schema = sqlcore.Schema{
	Steps: [][]string{{
		`CREATE TABLE IF NOT EXISTS soni_schema (version INTEGER NOT NULL)`,
		`CREATE TABLE IF NOT EXISTS soni_checkpoints (
			session TEXT PRIMARY KEY,
			revision INTEGER NOT NULL,
			data BLOB NOT NULL,
			updated_at INTEGER NOT NULL
		)`,
		`CREATE TABLE IF NOT EXISTS soni_events (
			session TEXT NOT NULL,
			revision INTEGER NOT NULL,
			msg_key TEXT,
			data BLOB NOT NULL,
			PRIMARY KEY (session, revision)
		)`,
		`CREATE INDEX IF NOT EXISTS soni_events_key ON soni_events (session, msg_key) WHERE msg_key IS NOT NULL`,
		`CREATE INDEX IF NOT EXISTS soni_checkpoints_updated ON soni_checkpoints (updated_at)`,
	}, {
		// Version 2: the program versions sessions were saved with.
		`CREATE TABLE IF NOT EXISTS soni_programs (
			version TEXT PRIMARY KEY,
			data BLOB NOT NULL,
			saved_at INTEGER NOT NULL,
			used_at INTEGER NOT NULL
		)`,
	}},
	Exists: `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'soni_schema'`,
	Read:   `SELECT version FROM soni_schema`,
	Insert: `INSERT INTO soni_schema (version) VALUES (?)`,
	Update: `UPDATE soni_schema SET version = ?`,
}

var queries = sqlcore.Queries{
	Load:        `SELECT data, revision FROM soni_checkpoints WHERE session = ?`,
	Revision:    `SELECT revision FROM soni_checkpoints WHERE session = ?`,
	Insert:      `INSERT INTO soni_checkpoints (session, revision, data, updated_at) VALUES (?, 1, ?, ?) ON CONFLICT DO NOTHING`,
	Update:      `UPDATE soni_checkpoints SET revision = ?, data = ?, updated_at = ? WHERE session = ? AND revision = ?`,
	ClearEvents: `DELETE FROM soni_events WHERE session = ?`,
	AddEvent:    `INSERT INTO soni_events (session, revision, msg_key, data) VALUES (?, ?, ?, ?)`,
	// INDEXED BY: without statistics the planner prefers the primary key,
	// for its order, and reads every record of the session.
	Lookup:      `SELECT revision, data FROM soni_events INDEXED BY soni_events_key WHERE session = ? AND msg_key = ? AND msg_key IS NOT NULL ORDER BY revision LIMIT 1`,
	Log:         `SELECT revision, COALESCE(msg_key, ''), data FROM soni_events WHERE session = ? AND revision > ? ORDER BY revision LIMIT ?`,
	List:        `SELECT session, revision, updated_at FROM soni_checkpoints WHERE session > ? ORDER BY session LIMIT ?`,
	Delete:      `DELETE FROM soni_checkpoints WHERE session = ?`,
	Stale:       `SELECT session FROM soni_checkpoints WHERE updated_at < ? AND session > ? ORDER BY session LIMIT ?`,
	DeleteStale: `DELETE FROM soni_checkpoints WHERE session = ? AND updated_at < ?`,
	Ping:        `SELECT 1 FROM soni_checkpoints LIMIT 1`,
	SaveProgram: `INSERT INTO soni_programs (version, data, saved_at, used_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (version) DO UPDATE SET used_at = excluded.used_at RETURNING saved_at`,
	LoadProgram:   `SELECT data, saved_at FROM soni_programs WHERE version = ?`,
	Programs:      `SELECT version, saved_at, used_at, length(data) FROM soni_programs ORDER BY saved_at, version`,
	DeleteProgram: `DELETE FROM soni_programs WHERE version = ?`,
}

// Open opens (creating it if needed) the store in the SQLite file path,
// with its session locks in PATH-locks.
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	if path == "" {
		return nil, errors.New("sqlite store: the database path is empty")
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(ON)")
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("sqlite store %q: %w", path, err)
	}
	if opts.LockDir == "" {
		opts.LockDir = path + "-locks"
	}
	s, err := New(ctx, db, opts)
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("sqlite store %q: %w", path, err)
	}
	return s, nil
}

// New makes a store of an open database (an embedding program's *sql.DB,
// opened with the "sqlite" driver), checking its tables and migrating them
// when they are behind (unless opts.NoMigrate). Without opts.LockDir its
// session locks hold within this process only. Close closes db.
func New(ctx context.Context, db *sql.DB, opts Options) (*Store, error) {
	d := &dbConn{db: db}
	if _, _, err := sqlcore.Prepare(ctx, d, schema, sql.ErrNoRows, !opts.NoMigrate); err != nil {
		return nil, err
	}
	b := sqlcore.Backend{
		Name:       "sqlite store",
		DB:         d,
		Q:          queries,
		NoRows:     sql.ErrNoRows,
		NoLimit:    -1,
		TimeArg:    func(t time.Time) any { return t.UnixNano() },
		Time:       func(v any) time.Time { n, _ := v.(int64); return time.Unix(0, n) },
		Close:      db.Close,
		MaxWaiting: opts.MaxWaiting,
		Lock: func(ctx context.Context, id string) (sqlcore.Conn, func(bool), error) {
			return d, func(bool) {}, nil // the queue alone: this process only
		},
	}
	if opts.LockDir != "" {
		locks := checkpoints.NewLockDir(opts.LockDir)
		b.Lock = func(ctx context.Context, id string) (sqlcore.Conn, func(bool), error) {
			l, err := locks.Lock(ctx, id)
			if err != nil {
				return nil, nil, err
			}
			return d, func(remove bool) {
				if remove {
					_ = l.Remove() // the session is gone; a stray file is swept by Prune
				} else {
					l.Unlock()
				}
			}, nil
		}
		b.Sweep = locks.Sweep
	}
	return &Store{Store: sqlcore.New(b), db: db}, nil
}

// Migrate brings the tables of the SQLite file at path to this soni's
// version (creating the file if needed), and returns the version they had
// and the version they have.
func Migrate(ctx context.Context, path string) (from, to int, err error) {
	if path == "" {
		return 0, 0, errors.New("sqlite store: the database path is empty")
	}
	db, err := sql.Open("sqlite", "file:"+path+"?_txlock=immediate&_pragma=busy_timeout(10000)")
	if err != nil {
		return 0, 0, fmt.Errorf("sqlite store %q: %w", path, err)
	}
	defer db.Close()
	from, to, err = sqlcore.Prepare(ctx, &dbConn{db: db}, schema, sql.ErrNoRows, true)
	if err != nil {
		return from, to, fmt.Errorf("sqlite store %q: %w", path, err)
	}
	return from, to, nil
}

// dbConn adapts a *sql.DB to the core. Its transactions take a mutex of
// this process first: SQLite has one writer at a time anyway, and waiting
// here is far cheaper than its busy-retry sleeps (it cut the p99 of a
// loaded server from 57 to 15 ms).
type dbConn struct {
	db      *sql.DB
	writeMu sync.Mutex
}

func (c *dbConn) QueryRow(ctx context.Context, query string, args ...any) sqlcore.Row {
	return c.db.QueryRowContext(ctx, query, args...)
}

func (c *dbConn) Query(ctx context.Context, query string, args ...any) (sqlcore.Rows, error) {
	rows, err := c.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return sqlRows{rows}, nil
}

func (c *dbConn) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	res, err := c.db.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (c *dbConn) Begin(ctx context.Context) (sqlcore.Txn, error) {
	c.writeMu.Lock()
	tx, err := c.db.BeginTx(ctx, nil) // IMMEDIATE: the write lock first
	if err != nil {
		c.writeMu.Unlock()
		return nil, err
	}
	return &sqlTxn{tx: tx, mu: &c.writeMu}, nil
}

type sqlRows struct{ *sql.Rows }

func (r sqlRows) Close() { _ = r.Rows.Close() }

type sqlTxn struct {
	tx   *sql.Tx
	mu   *sync.Mutex
	done bool
}

func (t *sqlTxn) QueryRow(ctx context.Context, query string, args ...any) sqlcore.Row {
	return t.tx.QueryRowContext(ctx, query, args...)
}

func (t *sqlTxn) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	res, err := t.tx.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (t *sqlTxn) Commit(context.Context) error {
	err := t.tx.Commit()
	t.end()
	return err
}

func (t *sqlTxn) Rollback(context.Context) error {
	if t.done {
		return nil
	}
	err := t.tx.Rollback()
	t.end()
	return err
}

func (t *sqlTxn) end() {
	if !t.done {
		t.done = true
		t.mu.Unlock()
	}
}
