package checkpoints

import (
	"context"
	"fmt"
	"sort"
	"time"
)

// memProgram is one saved program version of a MemoryStore.
type memProgram struct {
	data        []byte
	saved, used time.Time
}

// SaveProgram keeps a copy of the version's bytes in memory; see [Store].
func (s *MemoryStore) SaveProgram(ctx context.Context, version string, data []byte) (time.Time, error) {
	if err := CheckVersion(ctx, version); err != nil {
		return time.Time{}, err
	}
	now := s.now().UTC()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.programs == nil {
		s.programs = map[string]*memProgram{}
	}
	if p := s.programs[version]; p != nil {
		p.used = now
		return p.saved, nil
	}
	s.programs[version] = &memProgram{data: append([]byte(nil), data...), saved: now, used: now}
	return now, nil
}

// LoadProgram returns a saved version; see [Store].
func (s *MemoryStore) LoadProgram(ctx context.Context, version string) ([]byte, time.Time, error) {
	if err := CheckVersion(ctx, version); err != nil {
		return nil, time.Time{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.programs[version]
	if p == nil {
		return nil, time.Time{}, fmt.Errorf("%w: %q", ErrNoProgram, version)
	}
	return p.data, p.saved, nil
}

// Programs lists the saved versions, first saved first; see [Store].
func (s *MemoryStore) Programs(ctx context.Context) ([]ProgramInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	out := make([]ProgramInfo, 0, len(s.programs))
	for v, p := range s.programs {
		out = append(out, ProgramInfo{Version: v, Saved: p.saved, Used: p.used, Size: len(p.data)})
	}
	s.mu.Unlock()
	SortPrograms(out)
	return out, nil
}

// DeleteProgram forgets a saved version; see [Store].
func (s *MemoryStore) DeleteProgram(ctx context.Context, version string) error {
	if err := CheckVersion(ctx, version); err != nil {
		return err
	}
	s.mu.Lock()
	delete(s.programs, version)
	s.mu.Unlock()
	return nil
}

// SortPrograms sorts versions first saved first, and by version when two
// were saved at the same time.
func SortPrograms(ps []ProgramInfo) {
	sort.Slice(ps, func(i, j int) bool {
		if !ps[i].Saved.Equal(ps[j].Saved) {
			return ps[i].Saved.Before(ps[j].Saved)
		}
		return ps[i].Version < ps[j].Version
	})
}
