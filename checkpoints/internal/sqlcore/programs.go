package sqlcore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/soni-dev/soni/checkpoints"
)

// SaveProgram inserts the version in one statement, which either adds the
// whole row or, when another process added it first, marks it used.
func (s *Store) SaveProgram(ctx context.Context, version string, data []byte) (time.Time, error) {
	if err := checkpoints.CheckVersion(ctx, version); err != nil {
		return time.Time{}, err
	}
	now := s.b.TimeArg(s.now().UTC())
	var saved any
	if err := s.b.DB.QueryRow(ctx, s.b.Q.SaveProgram, version, data, now, now).Scan(&saved); err != nil {
		return time.Time{}, fmt.Errorf("%s: save program %q: %w", s.b.Name, version, s.b.Err(err))
	}
	return s.b.Time(saved).UTC(), nil
}

// LoadProgram reads a saved version.
func (s *Store) LoadProgram(ctx context.Context, version string) ([]byte, time.Time, error) {
	if err := checkpoints.CheckVersion(ctx, version); err != nil {
		return nil, time.Time{}, err
	}
	var data []byte
	var saved any
	err := s.b.DB.QueryRow(ctx, s.b.Q.LoadProgram, version).Scan(&data, &saved)
	if errors.Is(err, s.b.NoRows) {
		return nil, time.Time{}, fmt.Errorf("%w: %q", checkpoints.ErrNoProgram, version)
	}
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("%s: load program %q: %w", s.b.Name, version, s.b.Err(err))
	}
	return data, s.b.Time(saved).UTC(), nil
}

// Programs lists the saved versions, first saved first.
func (s *Store) Programs(ctx context.Context) ([]checkpoints.ProgramInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rows, err := s.b.DB.Query(ctx, s.b.Q.Programs)
	if err != nil {
		return nil, fmt.Errorf("%s: list programs: %w", s.b.Name, s.b.Err(err))
	}
	defer rows.Close()
	out := []checkpoints.ProgramInfo{}
	for rows.Next() {
		var p checkpoints.ProgramInfo
		var saved, used any
		var size int64
		if err := rows.Scan(&p.Version, &saved, &used, &size); err != nil {
			return nil, fmt.Errorf("%s: list programs: %w", s.b.Name, s.b.Err(err))
		}
		p.Saved, p.Used, p.Size = s.b.Time(saved).UTC(), s.b.Time(used).UTC(), int(size)
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: list programs: %w", s.b.Name, s.b.Err(err))
	}
	checkpoints.SortPrograms(out)
	return out, nil
}

// DeleteProgram removes a saved version.
func (s *Store) DeleteProgram(ctx context.Context, version string) error {
	if err := checkpoints.CheckVersion(ctx, version); err != nil {
		return err
	}
	if _, err := s.b.DB.Exec(ctx, s.b.Q.DeleteProgram, version); err != nil {
		return fmt.Errorf("%s: delete program %q: %w", s.b.Name, version, s.b.Err(err))
	}
	return nil
}
