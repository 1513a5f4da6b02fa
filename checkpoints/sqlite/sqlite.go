// Package sqlite is a checkpoint store in one SQLite file, through
// modernc.org/sqlite (pure Go, no cgo, so go install works everywhere).
// Checkpoints, the event log and the idempotency keys live in one file in
// WAL mode with a busy timeout; several processes on one machine may share
// it. Saves are compare-and-swaps in IMMEDIATE transactions; the turn
// lock is a flock(2) per session in a directory beside the file
// (PATH-locks), which the kernel releases when a process dies.
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
	_ "modernc.org/sqlite" // the database/sql driver "sqlite"
)

// Store is a [checkpoints.Journal] in one SQLite file.
type Store struct {
	db *sql.DB
	// locks holds the cross-process turn locks (Open); memLock the
	// in-process ones of a store made by New.
	locks   *checkpoints.FileStore
	memLock *checkpoints.MemoryStore
	now     func() time.Time
	writeMu sync.Mutex
}

var _ checkpoints.Journal = (*Store)(nil)

// schemaVersion is the version of the tables below; Open migrates older
// files.
const schemaVersion = 1

var schema = []string{
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
}

// Open opens (creating it if needed) the store in the SQLite file path.
func Open(ctx context.Context, path string) (*Store, error) {
	if path == "" {
		return nil, errors.New("sqlite store: the database path is empty: use sqlite:PATH")
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
	s, err := New(ctx, db)
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("sqlite store %q: %w", path, err)
	}
	locks, err := checkpoints.NewFileStore(path + "-locks")
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("sqlite store %q: %w", path, err)
	}
	s.locks = locks
	return s, nil
}

// New makes a store of an open database (an embedding program's *sql.DB,
// opened with the "sqlite" driver) and creates or migrates its tables.
// Such a store's turn lock holds within this process only, unless
// WithLockDir gives it a directory for cross-process locks.
func New(ctx context.Context, db *sql.DB) (*Store, error) {
	s := &Store{db: db, now: time.Now, memLock: checkpoints.NewMemoryStore()}
	if err := s.migrate(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// WithLockDir makes the store's turn locks flock(2) files in dir, so that
// they hold across processes.
func (s *Store) WithLockDir(dir string) error {
	locks, err := checkpoints.NewFileStore(dir)
	if err != nil {
		return err
	}
	s.locks = locks
	return nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

func (s *Store) migrate(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	for _, stmt := range schema {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
	}
	var v int
	switch err := tx.QueryRowContext(ctx, `SELECT version FROM soni_schema`).Scan(&v); {
	case errors.Is(err, sql.ErrNoRows):
		if _, err := tx.ExecContext(ctx, `INSERT INTO soni_schema (version) VALUES (?)`, schemaVersion); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
	case err != nil:
		return fmt.Errorf("migrate: %w", err)
	case v > schemaVersion:
		return fmt.Errorf("the database was written by a newer soni (schema %d, this soni knows %d): upgrade soni", v, schemaVersion)
	}
	return tx.Commit()
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
	err := s.db.QueryRowContext(ctx, `SELECT data, revision FROM soni_checkpoints WHERE session = ?`, id).Scan(&data, &rev)
	if errors.Is(err, sql.ErrNoRows) {
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
	// One writer of this process at a time: SQLite takes one writer
	// anyway, and waiting here is far cheaper than its busy-retry sleeps.
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
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
	tx, err := s.db.BeginTx(ctx, nil) // IMMEDIATE: the write lock first
	if err != nil {
		return fmt.Errorf("save session %q: %w", id, err)
	}
	defer func() { _ = tx.Rollback() }()
	var actual int64
	err = tx.QueryRowContext(ctx, `SELECT revision FROM soni_checkpoints WHERE session = ?`, id).Scan(&actual)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("save session %q: %w", id, err)
	}
	if uint64(actual) != expected {
		return &checkpoints.ConflictError{Session: id, Expected: expected, Actual: uint64(actual)}
	}
	now := s.now().UnixNano()
	if expected == 0 {
		_, err = tx.ExecContext(ctx, `INSERT INTO soni_checkpoints (session, revision, data, updated_at) VALUES (?, ?, ?, ?)`, id, expected+1, data, now)
		if err == nil {
			// A new session: whatever an earlier one of this id left is gone.
			_, err = tx.ExecContext(ctx, `DELETE FROM soni_events WHERE session = ?`, id)
		}
	} else {
		_, err = tx.ExecContext(ctx, `UPDATE soni_checkpoints SET revision = ?, data = ?, updated_at = ? WHERE session = ? AND revision = ?`, expected+1, data, now, id, expected)
	}
	if err != nil {
		return fmt.Errorf("save session %q: %w", id, err)
	}
	if rec != nil {
		var key any
		if rec.Key != "" {
			key = rec.Key
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO soni_events (session, revision, msg_key, data) VALUES (?, ?, ?, ?)`, id, rec.Revision, key, rec.Data); err != nil {
			return fmt.Errorf("save the log of session %q: %w", id, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("save session %q: %w", id, err)
	}
	return nil
}

// Delete removes the session, its log and its keys.
func (s *Store) Delete(ctx context.Context, id string) error {
	if err := begin(ctx, id); err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("delete session %q: %w", id, err)
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.ExecContext(ctx, `DELETE FROM soni_checkpoints WHERE session = ?`, id); err != nil {
		return fmt.Errorf("delete session %q: %w", id, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM soni_events WHERE session = ?`, id); err != nil {
		return fmt.Errorf("delete session %q: %w", id, err)
	}
	return tx.Commit()
}

// Ping checks that the database answers and has its table, reading at
// most one row.
func (s *Store) Ping(ctx context.Context) error {
	var one int
	err := s.db.QueryRowContext(ctx, `SELECT 1 FROM soni_checkpoints LIMIT 1`).Scan(&one)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("ping: %w", err)
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
	rows, err := s.db.QueryContext(ctx, `SELECT session, revision, updated_at FROM soni_checkpoints ORDER BY session`)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	out := []checkpoints.SessionInfo{}
	for rows.Next() {
		var in checkpoints.SessionInfo
		var rev, at int64
		if err := rows.Scan(&in.ID, &rev, &at); err != nil {
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		in.Revision, in.Updated = uint64(rev), time.Unix(0, at).UTC()
		out = append(out, in)
	}
	return out, rows.Err()
}

// Log returns the session's records after revision after.
func (s *Store) Log(ctx context.Context, id string, after uint64, limit int) ([]checkpoints.Record, error) {
	if err := begin(ctx, id); err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = -1
	}
	rows, err := s.db.QueryContext(ctx, `SELECT revision, COALESCE(msg_key, ''), data FROM soni_events WHERE session = ? AND revision > ? ORDER BY revision LIMIT ?`, id, after, limit)
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
	err := s.db.QueryRowContext(ctx, `SELECT revision, data FROM soni_events WHERE session = ? AND msg_key = ? ORDER BY revision LIMIT 1`, id, key).Scan(&rev, &r.Data)
	if errors.Is(err, sql.ErrNoRows) {
		return checkpoints.Record{}, false, nil
	}
	if err != nil {
		return checkpoints.Record{}, false, fmt.Errorf("look up a message id of session %q: %w", id, err)
	}
	r.Revision = uint64(rev)
	return r, true, nil
}

// Lock takes the session's turn lock: a flock(2) beside the database
// file, or, for a store made by New without a lock directory, a lock
// within this process.
func (s *Store) Lock(ctx context.Context, id string) (func(), error) {
	if s.locks != nil {
		return s.locks.Lock(ctx, id)
	}
	return s.memLock.Lock(ctx, id)
}

// Prune deletes the sessions last saved before the given time.
func (s *Store) Prune(ctx context.Context, before time.Time) (int, error) {
	return checkpoints.PruneEach(ctx, s, before, func(ctx context.Context, id string) (bool, error) {
		res, err := s.db.ExecContext(ctx, `DELETE FROM soni_checkpoints WHERE session = ? AND updated_at < ?`, id, before.UnixNano())
		if err != nil {
			return false, err
		}
		if k, _ := res.RowsAffected(); k == 0 {
			return false, nil // saved meanwhile
		}
		_, err = s.db.ExecContext(ctx, `DELETE FROM soni_events WHERE session = ?`, id)
		return true, err
	})
}
