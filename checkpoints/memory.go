package checkpoints

import (
	"container/list"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// MemoryStore is a [Store] that keeps sessions in this process's memory.
// The zero value is not ready; use [NewMemoryStore].
//
// Begin lends the stored bytes instead of copying them (a commit stores a
// copy of new ones and never changes them), so a turn decodes its
// checkpoint in place. A record given as a [Record.Value] is encoded at
// commit, as every store does: a store that holds many sessions then
// holds their logs as bytes, which cost the garbage collector nothing to
// scan. [WithRecordValues] keeps such records as Go values instead, encoded
// only when read, for a store whose logs are seldom read and whose sessions
// are short-lived. Message ids are looked up in a map.
// With [WithMaxSessions], the least recently saved session makes room for a
// new one.
type MemoryStore struct {
	queue *Queue
	now   func() time.Time
	max   int
	// values keeps Value records as they are (WithRecordValues).
	values bool

	mu       sync.Mutex
	sessions map[string]*memSession
	recent   list.List // of *memSession, most recently saved first (bounded stores)
	programs map[string]*memProgram
}

type memSession struct {
	id      string
	data    []byte
	rev     uint64
	updated time.Time
	log     []Record
	keys    map[string]int // message id -> index in log of its first record
	elem    *list.Element
}

// NewMemoryStore returns an empty in-memory store. It takes the options
// [WithMaxSessions], [WithMaxWaiting] and [WithRecordValues]. A store with no bound grows with
// its sessions.
func NewMemoryStore(opts ...Option) *MemoryStore {
	c := configure(opts)
	return &MemoryStore{queue: NewQueue(c.maxWaiting), now: time.Now, max: max(c.maxSessions, 0), values: c.recordValues, sessions: map[string]*memSession{}}
}

var _ Store = (*MemoryStore)(nil)

type memTx struct {
	TxBase
	s    *MemoryStore
	sess *memSession // nil: no session yet
}

// Begin takes the session's place in this process's queue and lends its
// bytes; see [Store].
func (s *MemoryStore) Begin(ctx context.Context, id string) (Tx, error) {
	if err := Check(ctx, id); err != nil {
		return nil, err
	}
	t, err := s.queue.Acquire(ctx, id)
	if err != nil {
		return nil, err
	}
	tx := &memTx{TxBase: NewTxBase(id, t, nil, 0), s: s}
	s.mu.Lock()
	if sess := s.sessions[id]; sess != nil {
		tx.sess, tx.Data, tx.Rev = sess, sess.data, sess.rev
	}
	s.mu.Unlock()
	return tx, nil
}

func (tx *memTx) Lookup(ctx context.Context, key string) (Record, bool, error) {
	if err := tx.CanLookup(ctx); err != nil {
		return Record{}, false, err
	}
	if key == "" || tx.sess == nil {
		return Record{}, false, nil
	}
	s := tx.s
	s.mu.Lock()
	defer s.mu.Unlock()
	i, ok := tx.sess.keys[key]
	if !ok {
		return Record{}, false, nil
	}
	r, err := s.encoded(tx.sess, i)
	return r, err == nil, err
}

// encoded returns a copy of record i of sess with its Data, encoding a
// Value the first time it is read. The caller holds s.mu.
func (s *MemoryStore) encoded(sess *memSession, i int) (Record, error) {
	r := &sess.log[i]
	if r.Data == nil {
		b, err := json.Marshal(r.Value)
		if err != nil {
			return Record{}, fmt.Errorf("encode the record of revision %d of session %q: %w", r.Revision, sess.id, err)
		}
		r.Data, r.Value = b, nil
	}
	return Record{Revision: r.Revision, Key: r.Key, Data: slices.Clone(r.Data)}, nil
}

func (tx *memTx) Commit(ctx context.Context, rec Record, data []byte) error {
	if err := tx.CanCommit(ctx, rec); err != nil {
		return err
	}
	if rec.Data != nil {
		if _, err := RecordJSON(tx.ID, rec); err != nil {
			return err
		}
		rec.Data = slices.Clone(rec.Data)
	} else if rec.Value == nil {
		return fmt.Errorf("%w: the record of revision %d of session %q has no data", ErrInvalidData, rec.Revision, tx.ID)
	} else if !tx.s.values {
		b, err := RecordJSON(tx.ID, rec)
		if err != nil {
			return err
		}
		rec.Data, rec.Value = b, nil
	}
	s := tx.s
	// The copy and the clock are read before the store's lock, which
	// every other session's transactions take too: holding it while
	// the copy touched new memory made the other turns wait.
	data = slices.Clone(data)
	now := s.now().UTC()
	s.mu.Lock()
	defer s.mu.Unlock()
	sess := s.sessions[tx.ID]
	var actual uint64
	if sess != nil {
		actual = sess.rev
	}
	if actual != tx.Rev || sess != tx.sess {
		return &ConflictError{Session: tx.ID, Expected: tx.Rev, Actual: actual}
	}
	if sess == nil {
		sess = &memSession{id: tx.ID}
		s.sessions[tx.ID] = sess
		if s.max > 0 {
			sess.elem = s.recent.PushFront(sess)
			s.evict()
		}
	} else if sess.elem != nil {
		s.recent.MoveToFront(sess.elem)
	}
	sess.data, sess.rev, sess.updated = data, rec.Revision, now
	if rec.Key != "" {
		if sess.keys == nil {
			sess.keys = map[string]int{}
		}
		if _, seen := sess.keys[rec.Key]; !seen {
			sess.keys[rec.Key] = len(sess.log)
		}
	}
	sess.log = append(sess.log, rec)
	tx.sess = sess
	tx.Committed()
	return nil
}

// evict removes the least recently saved sessions that no transaction
// holds until the store is within its bound. The caller holds s.mu.
func (s *MemoryStore) evict() {
	for e := s.recent.Back(); e != nil && len(s.sessions) > s.max; {
		prev := e.Prev()
		sess := e.Value.(*memSession)
		if !s.queue.Held(sess.id) {
			s.recent.Remove(e)
			delete(s.sessions, sess.id)
		}
		e = prev
	}
}

func (tx *memTx) Close() { tx.End(nil) }

// Load lends the session's bytes; see [Store].
func (s *MemoryStore) Load(ctx context.Context, id string) ([]byte, uint64, error) {
	if err := Check(ctx, id); err != nil {
		return nil, 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sess := s.sessions[id]
	if sess == nil {
		return nil, 0, fmt.Errorf("session %q: %w", id, ErrNotFound)
	}
	return sess.data, sess.rev, nil
}

// Log returns copies of the session's records after revision after.
func (s *MemoryStore) Log(ctx context.Context, id string, after uint64, limit int) ([]Record, error) {
	if err := Check(ctx, id); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []Record{}
	sess := s.sessions[id]
	if sess == nil {
		return out, nil
	}
	// The log holds one record per revision from its first: find after's
	// place by binary search instead of walking the log.
	i := sort.Search(len(sess.log), func(i int) bool { return sess.log[i].Revision > after })
	for ; i < len(sess.log) && (limit <= 0 || len(out) < limit); i++ {
		r, err := s.encoded(sess, i)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// List returns a page of the sessions, sorted by id.
func (s *MemoryStore) List(ctx context.Context, after string, limit int) ([]SessionInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	out := make([]SessionInfo, 0, len(s.sessions))
	for id, sess := range s.sessions {
		if id > after {
			out = append(out, SessionInfo{ID: id, Revision: sess.rev, Updated: sess.updated})
		}
	}
	s.mu.Unlock()
	slices.SortFunc(out, func(a, b SessionInfo) int { return strings.Compare(a.ID, b.ID) })
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// Delete removes the session under its lock.
func (s *MemoryStore) Delete(ctx context.Context, id string) error {
	if err := Check(ctx, id); err != nil {
		return err
	}
	t, err := s.queue.Acquire(ctx, id)
	if err != nil {
		return err
	}
	defer t.Release()
	s.mu.Lock()
	s.remove(id)
	s.mu.Unlock()
	return nil
}

// remove forgets a session. The caller holds s.mu.
func (s *MemoryStore) remove(id string) {
	if sess := s.sessions[id]; sess != nil {
		if sess.elem != nil {
			s.recent.Remove(sess.elem)
		}
		delete(s.sessions, id)
	}
}

// Prune deletes the sessions saved before the given time, each under its
// lock.
func (s *MemoryStore) Prune(ctx context.Context, before time.Time) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	s.mu.Lock()
	var old []string
	for id, sess := range s.sessions {
		if sess.updated.Before(before) {
			old = append(old, id)
		}
	}
	s.mu.Unlock()
	n := 0
	for _, id := range old {
		t, err := s.queue.Acquire(ctx, id)
		if err != nil {
			return n, err
		}
		s.mu.Lock()
		if sess := s.sessions[id]; sess != nil && sess.updated.Before(before) {
			s.remove(id)
			n++
		}
		s.mu.Unlock()
		t.Release()
	}
	return n, nil
}

// Ping always answers: the sessions are in this process.
func (s *MemoryStore) Ping(ctx context.Context) error { return ctx.Err() }

// Close does nothing: the sessions go with the store.
func (s *MemoryStore) Close() error { return nil }
