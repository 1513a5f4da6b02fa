package checkpoints

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// MemoryStore is a [Store] that keeps checkpoints in memory. It is safe for
// concurrent use and copies bytes in and out, so callers may reuse their
// buffers. The zero value is not ready; use [NewMemoryStore].
type MemoryStore struct {
	mu       sync.Mutex
	sessions map[string]memoryEntry
	logs     map[string][]Record
	locks    map[string]*turnLock
	now      func() time.Time
}

type memoryEntry struct {
	data     []byte
	revision uint64
	updated  time.Time
}

// turnLock is a session's turn lock within one process: a one-slot
// channel, so that a waiter can give up when its context ends.
type turnLock struct {
	ch   chan struct{}
	refs int
}

var _ Journal = (*MemoryStore)(nil)

// NewMemoryStore returns an empty in-memory store.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{sessions: map[string]memoryEntry{}, logs: map[string][]Record{}, locks: map[string]*turnLock{}, now: time.Now}
}

// Load returns a copy of the session's bytes and their revision.
func (s *MemoryStore) Load(ctx context.Context, id string) ([]byte, uint64, error) {
	if err := begin(ctx, id); err != nil {
		return nil, 0, err
	}
	s.mu.Lock()
	e, ok := s.sessions[id]
	s.mu.Unlock()
	if !ok {
		return nil, 0, fmt.Errorf("session %q: %w", id, ErrNotFound)
	}
	return slices.Clone(e.data), e.revision, nil
}

// LoadShared is Load without the copy: the bytes are the store's own,
// which it never changes (a save stores new ones), and the caller must
// not change them either. See [SharedLoader].
func (s *MemoryStore) LoadShared(ctx context.Context, id string) ([]byte, uint64, error) {
	if err := begin(ctx, id); err != nil {
		return nil, 0, err
	}
	s.mu.Lock()
	e, ok := s.sessions[id]
	s.mu.Unlock()
	if !ok {
		return nil, 0, fmt.Errorf("session %q: %w", id, ErrNotFound)
	}
	return e.data, e.revision, nil
}

var _ SharedLoader = (*MemoryStore)(nil)

// Save stores a copy of data if the session is at revision expected; see
// [Store].
func (s *MemoryStore) Save(ctx context.Context, id string, expected uint64, data []byte) error {
	return s.commit(ctx, id, expected, data, nil)
}

// Commit stores a copy of data and appends rec to the log, or neither;
// see [Journal].
func (s *MemoryStore) Commit(ctx context.Context, id string, expected uint64, data []byte, rec Record) error {
	return s.commit(ctx, id, expected, data, &rec)
}

func (s *MemoryStore) commit(ctx context.Context, id string, expected uint64, data []byte, rec *Record) error {
	if err := begin(ctx, id); err != nil {
		return err
	}
	if err := CheckData(id, expected, data); err != nil {
		return err
	}
	if rec != nil {
		if err := CheckRecord(id, expected, *rec); err != nil {
			return err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if actual := s.sessions[id].revision; actual != expected {
		return &ConflictError{Session: id, Expected: expected, Actual: actual}
	}
	s.sessions[id] = memoryEntry{data: slices.Clone(data), revision: expected + 1, updated: s.now().UTC()}
	if rec != nil {
		r := *rec
		r.Data = slices.Clone(r.Data)
		s.logs[id] = append(s.logs[id], r)
	}
	return nil
}

// Log returns copies of the session's records after revision after.
func (s *MemoryStore) Log(ctx context.Context, id string, after uint64, limit int) ([]Record, error) {
	if err := begin(ctx, id); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []Record{}
	for _, r := range s.logs[id] {
		if r.Revision <= after {
			continue
		}
		if limit > 0 && len(out) == limit {
			break
		}
		r.Data = slices.Clone(r.Data)
		out = append(out, r)
	}
	return out, nil
}

// Lookup finds the record with the idempotency key.
func (s *MemoryStore) Lookup(ctx context.Context, id, key string) (Record, bool, error) {
	if err := begin(ctx, id); err != nil {
		return Record{}, false, err
	}
	if key == "" {
		return Record{}, false, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.logs[id] {
		if r.Key == key {
			r.Data = slices.Clone(r.Data)
			return r, true, nil
		}
	}
	return Record{}, false, nil
}

// Lock takes the session's turn lock within this process.
func (s *MemoryStore) Lock(ctx context.Context, id string) (func(), error) {
	if err := begin(ctx, id); err != nil {
		return nil, err
	}
	s.mu.Lock()
	l := s.locks[id]
	if l == nil {
		l = &turnLock{ch: make(chan struct{}, 1)}
		s.locks[id] = l
	}
	l.refs++
	s.mu.Unlock()
	release := func() {
		s.mu.Lock()
		if l.refs--; l.refs == 0 {
			delete(s.locks, id)
		}
		s.mu.Unlock()
	}
	select {
	case l.ch <- struct{}{}:
		var once sync.Once
		return func() { once.Do(func() { <-l.ch; release() }) }, nil
	case <-ctx.Done():
		release()
		return nil, ctx.Err()
	}
}

// Sessions lists the stored sessions.
func (s *MemoryStore) Sessions(ctx context.Context) ([]SessionInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	out := make([]SessionInfo, 0, len(s.sessions))
	for id, e := range s.sessions {
		out = append(out, SessionInfo{ID: id, Revision: e.revision, Updated: e.updated})
	}
	s.mu.Unlock()
	slices.SortFunc(out, func(a, b SessionInfo) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}

// Prune deletes the sessions saved before the given time.
func (s *MemoryStore) Prune(ctx context.Context, before time.Time) (int, error) {
	return PruneEach(ctx, s, before, func(_ context.Context, id string) (bool, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		e, ok := s.sessions[id]
		if !ok || !e.updated.Before(before) {
			return false, nil
		}
		delete(s.sessions, id)
		delete(s.logs, id)
		return true, nil
	})
}

// Delete removes the session, if present.
func (s *MemoryStore) Delete(ctx context.Context, id string) error {
	if err := begin(ctx, id); err != nil {
		return err
	}
	s.mu.Lock()
	delete(s.sessions, id)
	delete(s.logs, id)
	s.mu.Unlock()
	return nil
}

// Ping always answers: the sessions are in this process.
func (s *MemoryStore) Ping(ctx context.Context) error { return ctx.Err() }

// List returns the stored session ids, sorted.
func (s *MemoryStore) List(ctx context.Context) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	ids := make([]string, 0, len(s.sessions))
	for id := range s.sessions {
		ids = append(ids, id)
	}
	s.mu.Unlock()
	slices.Sort(ids)
	return ids, nil
}

// begin runs the checks every method starts with: the id, then the context.
func begin(ctx context.Context, id string) error {
	if err := ValidateID(id); err != nil {
		return err
	}
	return ctx.Err()
}
