package checkpoints

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// The file store's event log is DIR/ID.log, one JSON line per turn,
// {"revision": N, "key": "...", "data": {...}}, appended (and fsynced)
// under the session's save lock before the checkpoint is renamed into
// place. A crash between the two leaves a line for a revision the
// checkpoint never reached; the next turn appends its own line for that
// revision. Readers therefore keep, per revision, the last line, and only
// revisions the checkpoint has reached: the log always matches the
// checkpoint. The turn lock is a flock(2) on DIR/ID.turn.
const (
	logExt  = ".log"
	turnExt = ".turn"
)

var _ Journal = (*FileStore)(nil)

func (s *FileStore) logPath(id string) string  { return filepath.Join(s.dir, id+logExt) }
func (s *FileStore) turnPath(id string) string { return filepath.Join(s.dir, id+turnExt) }

// logLine is one line of a session's log file.
type logLine struct {
	Revision uint64          `json:"revision"`
	Key      string          `json:"key,omitempty"`
	Data     json.RawMessage `json:"data"`
}

// Commit appends rec to DIR/ID.log and then saves data like Save, under
// the session's save lock; see [Journal] and the log's crash rule above.
func (s *FileStore) Commit(ctx context.Context, id string, expected uint64, data []byte, rec Record) error {
	if err := begin(ctx, id); err != nil {
		return err
	}
	if err := CheckRecord(id, expected, rec); err != nil {
		return err
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, rec.Data); err != nil || len(bytes.TrimSpace(rec.Data)) == 0 || rec.Data[0] != '{' {
		return fmt.Errorf("%w: the log record of session %q is not a JSON object", ErrInvalidData, id)
	}
	line, err := json.Marshal(logLine{Revision: rec.Revision, Key: rec.Key, Data: compact.Bytes()})
	if err != nil {
		return fmt.Errorf("encode the log record of session %q: %w", id, err)
	}
	return s.save(ctx, id, expected, data, append(line, '\n'))
}

// appendLog appends one line to the session's log file. A torn last line
// (a write a crash cut short) is cut off first: its turn never landed.
func (s *FileStore) appendLog(id string, line []byte) error {
	f, err := openNoFollow(s.logPath(id), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("open the log of session %q: %w", id, err)
	}
	end, err := completeLines(f)
	if err == nil {
		_, err = f.WriteAt(line, end)
	}
	if err != nil {
		_ = f.Close()
		return fmt.Errorf("append to the log of session %q: %w", id, err)
	}
	if s.sync {
		if err := f.Sync(); err != nil {
			_ = f.Close()
			return fmt.Errorf("sync the log of session %q: %w", id, err)
		}
	}
	return f.Close()
}

// completeLines returns the length of the file up to its last newline,
// truncating a torn tail after it.
func completeLines(f *os.File) (int64, error) {
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	size := fi.Size()
	buf := make([]byte, 4096)
	for end := size; end > 0; {
		start := max(end-int64(len(buf)), 0)
		n, err := f.ReadAt(buf[:end-start], start)
		if err != nil && err != io.EOF {
			return 0, err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			keep := start + int64(i) + 1
			if keep < size {
				return keep, f.Truncate(keep)
			}
			return keep, nil
		}
		end = start
	}
	if size > 0 {
		return 0, f.Truncate(0)
	}
	return 0, nil
}

// records reads the session's log: per revision the last line, up to the
// checkpoint's revision, oldest first.
func (s *FileStore) records(id string) ([]Record, error) {
	_, current, err := s.read(s.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return []Record{}, nil
	}
	if err != nil {
		return nil, err
	}
	f, err := openNoFollow(s.logPath(id), os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return []Record{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open the log of session %q: %w", id, err)
	}
	defer f.Close()
	byRev := map[uint64]Record{}
	r := bufio.NewReaderSize(f, 64<<10)
	for n := 1; ; n++ {
		b, err := r.ReadBytes('\n')
		if len(b) > 0 && b[len(b)-1] != '\n' {
			// A line without its newline is the tail of a write a crash
			// cut short; its turn never reached the checkpoint.
			break
		}
		if int64(len(b)) > s.maxSize {
			return nil, s.tooLarge(fmt.Sprintf("line %d of the log of session %q", n, id), int64(len(b)))
		}
		if len(b) > 0 {
			var l logLine
			if jerr := json.Unmarshal(b, &l); jerr != nil || l.Revision == 0 {
				return nil, &CorruptError{Path: s.logPath(id), Err: fmt.Errorf("line %d is not a log record", n)}
			}
			if l.Revision <= current {
				byRev[l.Revision] = Record{Revision: l.Revision, Key: l.Key, Data: []byte(l.Data)}
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read the log of session %q: %w", id, err)
		}
	}
	out := make([]Record, 0, len(byRev))
	for rev := uint64(1); rev <= current; rev++ {
		if rec, ok := byRev[rev]; ok {
			out = append(out, rec)
		}
	}
	return out, nil
}

// Log returns the session's records after revision after; see [Journal].
func (s *FileStore) Log(ctx context.Context, id string, after uint64, limit int) ([]Record, error) {
	if err := begin(ctx, id); err != nil {
		return nil, err
	}
	all, err := s.records(id)
	if err != nil {
		return nil, err
	}
	out := []Record{}
	for _, r := range all {
		if r.Revision <= after {
			continue
		}
		if limit > 0 && len(out) == limit {
			break
		}
		out = append(out, r)
	}
	return out, nil
}

// Lookup scans the session's log for the key.
func (s *FileStore) Lookup(ctx context.Context, id, key string) (Record, bool, error) {
	if err := begin(ctx, id); err != nil {
		return Record{}, false, err
	}
	if key == "" {
		return Record{}, false, nil
	}
	all, err := s.records(id)
	if err != nil {
		return Record{}, false, err
	}
	for _, r := range all {
		if r.Key == key {
			return r, true, nil
		}
	}
	return Record{}, false, nil
}

// Lock takes a flock(2) on DIR/ID.turn; see [Journal].
func (s *FileStore) Lock(ctx context.Context, id string) (func(), error) {
	if err := begin(ctx, id); err != nil {
		return nil, err
	}
	if err := s.ensureDir(); err != nil {
		return nil, err
	}
	unlock, err := lockFile(ctx, s.turnPath(id))
	if err != nil {
		return nil, fmt.Errorf("lock the turns of session %q: %w", id, err)
	}
	return unlock, nil
}

// Sessions lists the sessions with the revision and modification time of
// their checkpoint files. A checkpoint that cannot be read is listed with
// revision 0.
func (s *FileStore) Sessions(ctx context.Context) ([]SessionInfo, error) {
	ids, err := s.List(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]SessionInfo, 0, len(ids))
	for _, id := range ids {
		info := SessionInfo{ID: id}
		if fi, err := os.Lstat(s.path(id)); err == nil {
			info.Updated = fi.ModTime().UTC()
		} else {
			continue // deleted meanwhile
		}
		if _, rev, err := s.read(s.path(id)); err == nil {
			info.Revision = rev
		}
		out = append(out, info)
	}
	return out, nil
}

// Prune deletes the sessions whose checkpoint file was last written
// before the given time, each under its turn lock; see [Journal].
func (s *FileStore) Prune(ctx context.Context, before time.Time) (int, error) {
	return PruneEach(ctx, s, before, func(ctx context.Context, id string) (bool, error) {
		fi, err := os.Lstat(s.path(id))
		if err != nil || !fi.ModTime().Before(before) {
			return false, nil // saved meanwhile, or gone
		}
		if err := s.Delete(ctx, id); err != nil {
			return false, err
		}
		// Last under the turn lock: remove its file (see lockFile).
		_ = os.Remove(s.turnPath(id))
		return true, nil
	})
}

// deleteLog removes the session's log file (under the save lock).
func (s *FileStore) deleteLog(id string) error {
	if err := os.Remove(s.logPath(id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("delete the log of session %q: %w", id, err)
	}
	return nil
}
