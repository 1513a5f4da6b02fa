package checkpoints

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The program versions of a FileStore live in DIR/programs, one file a
// version: programs/<version, its colon a dash>.program. A file starts
// with a header line, "soni.program/v1 <when first saved, RFC 3339>",
// followed by the program's bytes; its modification time is when the
// version was last saved again. A file is written whole under a temporary
// name and linked into place, which fails if another process saved the
// version first, so a version's file never changes once written.
const (
	programsDir    = "programs"
	programExt     = ".program"
	programHeader  = "soni.program/v1 "
	programTempPre = ".tmp-"
)

func (s *FileStore) programPath(version string) string {
	return filepath.Join(s.dir, programsDir, strings.ReplaceAll(version, ":", "-")+programExt)
}

// SaveProgram writes the version's file unless it exists, and marks it
// used (its modification time) now; see [Store].
func (s *FileStore) SaveProgram(ctx context.Context, version string, data []byte) (time.Time, error) {
	if err := CheckVersion(ctx, version); err != nil {
		return time.Time{}, err
	}
	path := s.programPath(version)
	now := time.Now()
	if saved, err := s.touchProgram(path, now); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return saved, err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return time.Time{}, fmt.Errorf("save program %q: %w", version, err)
	}
	tmp, err := os.CreateTemp(dir, programTempPre+"*")
	if err != nil {
		return time.Time{}, fmt.Errorf("save program %q: %w", version, err)
	}
	defer func() { _ = os.Remove(tmp.Name()) }()
	saved := now.UTC()
	_, err = fmt.Fprintf(tmp, "%s%s\n", programHeader, saved.Format(time.RFC3339Nano))
	if err == nil {
		_, err = tmp.Write(data)
	}
	if err == nil && s.sync {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("save program %q: %w", version, err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) { // another process saved it first
			return s.touchProgram(path, now)
		}
		return time.Time{}, fmt.Errorf("save program %q: %w", version, err)
	}
	if s.sync {
		if err := syncDir(dir); err != nil {
			return time.Time{}, fmt.Errorf("save program %q: %w", version, err)
		}
	}
	return saved, nil
}

// touchProgram marks an existing version's file used at now and returns
// when the version was first saved.
func (s *FileStore) touchProgram(path string, now time.Time) (time.Time, error) {
	_, saved, err := s.readProgram(path)
	if err != nil {
		return time.Time{}, err
	}
	if err := os.Chtimes(path, now, now); err != nil {
		return time.Time{}, fmt.Errorf("mark program %q used: %w", filepath.Base(path), err)
	}
	return saved, nil
}

// readProgram reads a version's file: its bytes and when it was first
// saved. A missing file matches fs.ErrNotExist.
func (s *FileStore) readProgram(path string) ([]byte, time.Time, error) {
	f, err := openNoFollow(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, time.Time{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, time.Time{}, err
	}
	if fi.Size() > s.maxSize {
		return nil, time.Time{}, s.tooLarge("program "+filepath.Base(path), fi.Size())
	}
	b := make([]byte, fi.Size())
	if _, err := f.ReadAt(b, 0); err != nil {
		return nil, time.Time{}, &CorruptError{Path: path, Err: err}
	}
	head, rest, ok := bytes.Cut(b, []byte("\n"))
	if !ok || !bytes.HasPrefix(head, []byte(programHeader)) {
		return nil, time.Time{}, &CorruptError{Path: path, Err: fmt.Errorf("no %q header line", strings.TrimSpace(programHeader))}
	}
	saved, err := time.Parse(time.RFC3339Nano, string(head[len(programHeader):]))
	if err != nil {
		return nil, time.Time{}, &CorruptError{Path: path, Err: fmt.Errorf("header time: %w", err)}
	}
	return rest, saved.UTC(), nil
}

// LoadProgram reads a version's file; see [Store].
func (s *FileStore) LoadProgram(ctx context.Context, version string) ([]byte, time.Time, error) {
	if err := CheckVersion(ctx, version); err != nil {
		return nil, time.Time{}, err
	}
	b, saved, err := s.readProgram(s.programPath(version))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, time.Time{}, fmt.Errorf("%w: %q", ErrNoProgram, version)
	}
	return b, saved, err
}

// Programs lists the versions' files, first saved first; files that are
// not versions' are skipped. See [Store].
func (s *FileStore) Programs(ctx context.Context) ([]ProgramInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(filepath.Join(s.dir, programsDir))
	if errors.Is(err, fs.ErrNotExist) {
		return []ProgramInfo{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list programs: %w", err)
	}
	out := []ProgramInfo{}
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), programExt)
		if !ok || !e.Type().IsRegular() {
			continue
		}
		version := strings.Replace(name, "-", ":", 1)
		if ValidateVersion(version) != nil {
			continue
		}
		path := filepath.Join(s.dir, programsDir, e.Name())
		b, saved, err := s.readProgram(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue // deleted meanwhile
		}
		if err != nil {
			return nil, err
		}
		fi, err := os.Lstat(path)
		if err != nil {
			continue
		}
		out = append(out, ProgramInfo{Version: version, Saved: saved, Used: fi.ModTime().UTC(), Size: len(b)})
	}
	SortPrograms(out)
	return out, nil
}

// DeleteProgram removes a version's file; see [Store].
func (s *FileStore) DeleteProgram(ctx context.Context, version string) error {
	if err := CheckVersion(ctx, version); err != nil {
		return err
	}
	if err := os.Remove(s.programPath(version)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("delete program %q: %w", version, err)
	}
	return nil
}
