// Package sqlcore is the shared core of the database stores (sqlite and
// postgres): the transactions, the log, paging, deletes and batched prunes,
// and the schema migrations, over a small interface each driver adapts to.
// The stores differ only in their SQL text, their driver and their
// cross-process lock.
package sqlcore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/soni-dev/soni/checkpoints"
)

// Conn is what the core needs of a database handle: a pool, or one
// connection pinned for a transaction.
type Conn interface {
	QueryRow(ctx context.Context, query string, args ...any) Row
	Query(ctx context.Context, query string, args ...any) (Rows, error)
	Exec(ctx context.Context, query string, args ...any) (int64, error)
	Begin(ctx context.Context) (Txn, error)
}

// Row is one result row.
type Row interface {
	Scan(dest ...any) error
}

// Rows is a result set.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close()
}

// Txn is a database transaction.
type Txn interface {
	QueryRow(ctx context.Context, query string, args ...any) Row
	Exec(ctx context.Context, query string, args ...any) (int64, error)
	Commit(ctx context.Context) error
	Rollback(ctx context.Context) error
}

// Queries are a store's SQL statements, in its dialect. The arguments are
// given in the order each comment lists.
type Queries struct {
	// Load: session → data, revision.
	Load string
	// Revision: session → revision.
	Revision string
	// Insert a new session at revision 1 unless it exists: session,
	// data, now.
	Insert string
	// Update: new revision, data, now, session, loaded revision.
	Update string
	// ClearEvents: session.
	ClearEvents string
	// AddEvent: session, revision, key (nil for none), data.
	AddEvent string
	// Lookup: session, key → revision, data (the first such record).
	Lookup string
	// Log: session, after, limit → revision, key ('' for none), data.
	Log string
	// List: after, limit → session, revision, updated.
	List string
	// Delete: session.
	Delete string
	// Stale: before, after, limit → session (sorted).
	Stale string
	// DeleteStale: session, before.
	DeleteStale string
	// Ping reads at most one row of the checkpoints table.
	Ping string
	// SaveProgram inserts a version unless it exists, else sets its
	// used time: version, data, now (saved), now (used) → saved.
	SaveProgram string
	// LoadProgram: version → data, saved.
	LoadProgram string
	// Programs → version, saved, used, size, first saved first.
	Programs string
	// DeleteProgram: version.
	DeleteProgram string
}

// Backend is what a database store gives the core.
type Backend struct {
	// Name names the store in messages ("sqlite store").
	Name string
	// DB is the store's handle (its pool).
	DB Conn
	// Lock takes the session's lock across processes and returns the
	// handle the transaction runs its statements on, and the function that
	// releases both; remove is true when the session was just deleted
	// (its lock file, if it has one, goes).
	Lock func(ctx context.Context, id string) (Conn, func(remove bool), error)
	// Sweep, when set, removes the lock files of sessions gone reports
	// gone (see checkpoints.LockDir.Sweep).
	Sweep func(ctx context.Context, gone func(id string) (bool, error)) (int, error)
	Q     Queries
	// NoRows is the driver's error for a query that found no row.
	NoRows error
	// NoLimit is the LIMIT argument that means no limit.
	NoLimit any
	// TimeArg turns a time into the dialect's argument; Time reads a
	// scanned updated value back.
	TimeArg func(time.Time) any
	Time    func(any) time.Time
	// Err turns a driver error into the message a user may see (no
	// connection string, no password).
	Err func(error) error
	// Close closes the store's handles.
	Close func() error
	// MaxWaiting is how many turns of a session wait in this process
	// besides the holder (0: the default).
	MaxWaiting int
	// Queue, when set, is the store's per-session queue (and MaxWaiting
	// is unused): a backend keeps it to show its tests the turns waiting.
	Queue *checkpoints.Queue
}

// Store is a checkpoints.Store over a Backend.
type Store struct {
	b     Backend
	queue *checkpoints.Queue
	now   func() time.Time
}

var _ checkpoints.Store = (*Store)(nil)

// New returns the store of a backend.
func New(b Backend) *Store {
	if b.Err == nil {
		b.Err = func(err error) error { return err }
	}
	q := b.Queue
	if q == nil {
		q = checkpoints.NewQueue(b.MaxWaiting)
	}
	return &Store{b: b, queue: q, now: time.Now}
}

func (s *Store) limit(n int) any {
	if n <= 0 {
		return s.b.NoLimit
	}
	return n
}

func (s *Store) fail(what, id string, err error) error {
	if id == "" {
		return fmt.Errorf("%s: %s: %w", s.b.Name, what, s.b.Err(err))
	}
	return fmt.Errorf("%s: %s of session %q: %w", s.b.Name, what, id, s.b.Err(err))
}

type tx struct {
	checkpoints.TxBase
	s       *Store
	conn    Conn
	release func(remove bool)
}

// Begin takes the session's place in the queue and its cross-process
// lock, and loads the checkpoint on the locked handle.
func (s *Store) Begin(ctx context.Context, id string) (checkpoints.Tx, error) {
	if err := checkpoints.Check(ctx, id); err != nil {
		return nil, err
	}
	t, err := s.queue.Acquire(ctx, id)
	if err != nil {
		return nil, err
	}
	conn, release, err := s.b.Lock(ctx, id)
	if err != nil {
		t.Release()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, s.fail("lock", id, err)
	}
	data, rev, err := s.load(ctx, conn, id)
	if err != nil && !errors.Is(err, checkpoints.ErrNotFound) {
		release(false)
		t.Release()
		return nil, err
	}
	return &tx{TxBase: checkpoints.NewTxBase(id, t, data, rev), s: s, conn: conn, release: release}, nil
}

func (s *Store) load(ctx context.Context, conn Conn, id string) ([]byte, uint64, error) {
	var data []byte
	var rev int64
	err := conn.QueryRow(ctx, s.b.Q.Load, id).Scan(&data, &rev)
	if errors.Is(err, s.b.NoRows) {
		return nil, 0, fmt.Errorf("session %q: %w", id, checkpoints.ErrNotFound)
	}
	if err != nil {
		return nil, 0, s.fail("load", id, err)
	}
	return data, uint64(rev), nil
}

func (t *tx) Lookup(ctx context.Context, key string) (checkpoints.Record, bool, error) {
	if err := t.CanLookup(ctx); err != nil {
		return checkpoints.Record{}, false, err
	}
	if key == "" || t.Rev == 0 {
		return checkpoints.Record{}, false, nil
	}
	r := checkpoints.Record{Key: key}
	var rev int64
	err := t.conn.QueryRow(ctx, t.s.b.Q.Lookup, t.ID, key).Scan(&rev, &r.Data)
	if errors.Is(err, t.s.b.NoRows) {
		return checkpoints.Record{}, false, nil
	}
	if err != nil {
		return checkpoints.Record{}, false, t.s.fail("look up a message id", t.ID, err)
	}
	r.Revision = uint64(rev)
	return r, true, nil
}

func (t *tx) Commit(ctx context.Context, rec checkpoints.Record, data []byte) error {
	if err := t.CanCommit(ctx, rec); err != nil {
		return err
	}
	s, id := t.s, t.ID
	js, err := checkpoints.RecordJSON(id, rec)
	if err != nil {
		return err
	}
	txn, err := t.conn.Begin(ctx)
	if err != nil {
		return s.fail("save", id, err)
	}
	defer func() { _ = txn.Rollback(context.WithoutCancel(ctx)) }()
	now := s.b.TimeArg(s.now())
	var n int64
	if t.Rev == 0 {
		n, err = txn.Exec(ctx, s.b.Q.Insert, id, data, now)
		if err == nil && n == 1 {
			// A new session: whatever an earlier one of this id left goes.
			_, err = txn.Exec(ctx, s.b.Q.ClearEvents, id)
		}
	} else {
		n, err = txn.Exec(ctx, s.b.Q.Update, int64(rec.Revision), data, now, id, int64(t.Rev))
	}
	if err != nil {
		return s.fail("save", id, err)
	}
	if n != 1 {
		var actual int64
		if err := txn.QueryRow(ctx, s.b.Q.Revision, id).Scan(&actual); err != nil && !errors.Is(err, s.b.NoRows) {
			return s.fail("save", id, err)
		}
		return &checkpoints.ConflictError{Session: id, Expected: t.Rev, Actual: uint64(actual)}
	}
	var key any
	if rec.Key != "" {
		key = rec.Key
	}
	if _, err := txn.Exec(ctx, s.b.Q.AddEvent, id, int64(rec.Revision), key, js); err != nil {
		return s.fail("save the log", id, err)
	}
	if err := txn.Commit(ctx); err != nil {
		return s.fail("save", id, err)
	}
	t.Committed()
	return nil
}

func (t *tx) Close() { t.End(func() { t.release(false) }) }

// Load reads the session's checkpoint without its lock.
func (s *Store) Load(ctx context.Context, id string) ([]byte, uint64, error) {
	if err := checkpoints.Check(ctx, id); err != nil {
		return nil, 0, err
	}
	return s.load(ctx, s.b.DB, id)
}

// Log returns the session's records after revision after.
func (s *Store) Log(ctx context.Context, id string, after uint64, limit int) ([]checkpoints.Record, error) {
	if err := checkpoints.Check(ctx, id); err != nil {
		return nil, err
	}
	rows, err := s.b.DB.Query(ctx, s.b.Q.Log, id, int64(min(after, 1<<63-1)), s.limit(limit))
	if err != nil {
		return nil, s.fail("read the log", id, err)
	}
	defer rows.Close()
	out := []checkpoints.Record{}
	for rows.Next() {
		var r checkpoints.Record
		var rev int64
		if err := rows.Scan(&rev, &r.Key, &r.Data); err != nil {
			return nil, s.fail("read the log", id, err)
		}
		r.Revision = uint64(rev)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail("read the log", id, err)
	}
	return out, nil
}

// List returns a page of the sessions, sorted by id.
func (s *Store) List(ctx context.Context, after string, limit int) ([]checkpoints.SessionInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rows, err := s.b.DB.Query(ctx, s.b.Q.List, after, s.limit(limit))
	if err != nil {
		return nil, s.fail("list sessions", "", err)
	}
	defer rows.Close()
	out := []checkpoints.SessionInfo{}
	for rows.Next() {
		var in checkpoints.SessionInfo
		var rev int64
		var at any
		if err := rows.Scan(&in.ID, &rev, &at); err != nil {
			return nil, s.fail("list sessions", "", err)
		}
		in.Revision, in.Updated = uint64(rev), s.b.Time(at).UTC()
		out = append(out, in)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail("list sessions", "", err)
	}
	return out, nil
}

// Delete removes the session, its log and its keys, under its lock.
func (s *Store) Delete(ctx context.Context, id string) error {
	if err := checkpoints.Check(ctx, id); err != nil {
		return err
	}
	_, err := s.deleteLocked(ctx, id, s.b.Q.Delete, id)
	return err
}

// deleteLocked runs a delete statement of the session under its lock,
// with the log's in the same transaction when the statement deleted it,
// and reports whether it did.
func (s *Store) deleteLocked(ctx context.Context, id, stmt string, args ...any) (bool, error) {
	t, err := s.queue.Acquire(ctx, id)
	if err != nil {
		return false, err
	}
	defer t.Release()
	conn, release, err := s.b.Lock(ctx, id)
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		return false, s.fail("lock", id, err)
	}
	deleted, err := s.deleteIn(ctx, conn, id, stmt, args)
	release(deleted)
	return deleted, err
}

func (s *Store) deleteIn(ctx context.Context, conn Conn, id, stmt string, args []any) (bool, error) {
	txn, err := conn.Begin(ctx)
	if err != nil {
		return false, s.fail("delete", id, err)
	}
	defer func() { _ = txn.Rollback(context.WithoutCancel(ctx)) }()
	n, err := txn.Exec(ctx, stmt, args...)
	if err != nil {
		return false, s.fail("delete", id, err)
	}
	if stmt == s.b.Q.DeleteStale && n == 0 {
		return false, nil // saved meanwhile: it stays
	}
	if _, err := txn.Exec(ctx, s.b.Q.ClearEvents, id); err != nil {
		return false, s.fail("delete the log", id, err)
	}
	if err := txn.Commit(ctx); err != nil {
		return false, s.fail("delete", id, err)
	}
	return true, nil
}

// Prune deletes the sessions last saved before the given time, reading
// their ids a batch at a time and deleting each under its lock; then it
// removes the lock files of sessions that are gone.
func (s *Store) Prune(ctx context.Context, before time.Time) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	n := 0
	at := s.b.TimeArg(before)
	for cursor := ""; ; {
		ids, err := s.stale(ctx, at, cursor)
		if err != nil {
			return n, err
		}
		for _, id := range ids {
			deleted, err := s.deleteLocked(ctx, id, s.b.Q.DeleteStale, id, at)
			if err != nil {
				return n, fmt.Errorf("prune session %q: %w", id, err)
			}
			if deleted {
				n++
			}
		}
		if len(ids) < pruneBatch {
			break
		}
		cursor = ids[len(ids)-1]
	}
	if s.b.Sweep != nil {
		gone := func(id string) (bool, error) {
			if s.queue.Held(id) {
				return false, nil // a turn of this process is using it
			}
			var rev int64
			err := s.b.DB.QueryRow(ctx, s.b.Q.Revision, id).Scan(&rev)
			if errors.Is(err, s.b.NoRows) {
				return true, nil
			}
			return false, err
		}
		if _, err := s.b.Sweep(ctx, gone); err != nil {
			return n, s.fail("remove the lock files of deleted sessions", "", err)
		}
	}
	return n, nil
}

// pruneBatch is how many session ids Prune reads at a time.
const pruneBatch = 512

func (s *Store) stale(ctx context.Context, before any, after string) ([]string, error) {
	rows, err := s.b.DB.Query(ctx, s.b.Q.Stale, before, after, pruneBatch)
	if err != nil {
		return nil, s.fail("list idle sessions", "", err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, s.fail("list idle sessions", "", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail("list idle sessions", "", err)
	}
	return ids, nil
}

// Ping checks that the database answers and has its table, reading at
// most one row.
func (s *Store) Ping(ctx context.Context) error {
	var one int
	err := s.b.DB.QueryRow(ctx, s.b.Q.Ping).Scan(&one)
	if err != nil && !errors.Is(err, s.b.NoRows) {
		return s.fail("ping", "", err)
	}
	return nil
}

// Close closes the store's handles.
func (s *Store) Close() error { return s.b.Close() }
