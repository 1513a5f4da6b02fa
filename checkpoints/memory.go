package checkpoints

import (
	"context"
	"fmt"
	"slices"
	"sync"
)

// MemoryStore is a [Store] that keeps checkpoints in memory. It is safe for
// concurrent use and copies bytes in and out, so callers may reuse their
// buffers. The zero value is not ready; use [NewMemoryStore].
type MemoryStore struct {
	mu       sync.Mutex
	sessions map[string]memoryEntry
}

type memoryEntry struct {
	data     []byte
	revision uint64
}

var _ Store = (*MemoryStore)(nil)

// NewMemoryStore returns an empty in-memory store.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{sessions: map[string]memoryEntry{}}
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

// Save stores a copy of data if the session is at revision expected; see
// [Store].
func (s *MemoryStore) Save(ctx context.Context, id string, expected uint64, data []byte) error {
	if err := begin(ctx, id); err != nil {
		return err
	}
	if err := checkData(id, expected, data); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if actual := s.sessions[id].revision; actual != expected {
		return &ConflictError{Session: id, Expected: expected, Actual: actual}
	}
	s.sessions[id] = memoryEntry{data: slices.Clone(data), revision: expected + 1}
	return nil
}

// Delete removes the session, if present.
func (s *MemoryStore) Delete(ctx context.Context, id string) error {
	if err := begin(ctx, id); err != nil {
		return err
	}
	s.mu.Lock()
	delete(s.sessions, id)
	s.mu.Unlock()
	return nil
}

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
