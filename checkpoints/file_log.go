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
	"strconv"
	"sync"
)

// The file store's log is DIR/ID.log, one line per turn,
// {"revision":N,"key":"...","data":{...}} ("key" only when the turn had a
// message id), appended (and fsynced) under the session's lock before the
// checkpoint is renamed into place. A crash between the two leaves a line
// for a revision the checkpoint never reached; the next turn appends its
// own line for that revision. Readers therefore keep, per revision, the
// last line, and only revisions the checkpoint has reached: the log always
// matches the checkpoint.

// logLine is one line of a session's log file, as encoding/json reads it.
type logLine struct {
	Revision uint64          `json:"revision"`
	Key      string          `json:"key,omitempty"`
	Data     json.RawMessage `json:"data"`
}

// appendLogLine appends the log line of a record whose data is compact
// JSON, newline included.
func appendLogLine(b []byte, rev uint64, key string, data []byte) []byte {
	b = append(b, `{"revision":`...)
	b = strconv.AppendUint(b, rev, 10)
	if key != "" {
		k, _ := json.Marshal(key) // a string always encodes
		b = append(b, `,"key":`...)
		b = append(b, k...)
	}
	b = append(b, `,"data":`...)
	b = append(b, data...)
	return append(b, "}\n"...)
}

// appendLog appends one line to the session's log file and extends the
// session's index with it. A torn last line (a write a crash cut short) is
// cut off first: its turn never landed. The caller holds the lock.
func (s *FileStore) appendLog(id string, rec Record, line []byte) error {
	f, err := openNoFollow(s.logPath(id), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("open the log of session %q: %w", id, err)
	}
	fi, end, err := completeLines(f)
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
	if err := f.Close(); err != nil {
		return fmt.Errorf("append to the log of session %q: %w", id, err)
	}
	s.index.get(id).appended(fi, end, lineRef{off: end, n: len(line), key: rec.Key}, rec.Revision)
	return nil
}

// completeLines returns the log file's identity and its length up to its
// last newline, truncating a torn tail after it.
func completeLines(f *os.File) (os.FileInfo, int64, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	size := fi.Size()
	var last [1]byte
	if size == 0 {
		return fi, 0, nil
	}
	if _, err := f.ReadAt(last[:], size-1); err != nil {
		return nil, 0, err
	}
	if last[0] == '\n' {
		return fi, size, nil // the usual case: one byte read
	}
	buf := make([]byte, 4096)
	for end := size; end > 0; {
		start := max(end-int64(len(buf)), 0)
		n, err := f.ReadAt(buf[:end-start], start)
		if err != nil && err != io.EOF {
			return nil, 0, err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			keep := start + int64(i) + 1
			return fi, keep, f.Truncate(keep)
		}
		end = start
	}
	return fi, 0, f.Truncate(0)
}

// lineRef is where a line of a log file is, and its message id.
type lineRef struct {
	off int64
	n   int
	key string
}

// logIndex indexes one session's log file: per revision its last line,
// and per message id the revisions of the lines that had it.
type logIndex struct {
	mu    sync.Mutex
	file  os.FileInfo // the log file indexed; nil: none yet
	size  int64       // how much of it: whole lines
	byRev map[uint64]lineRef
	keys  map[string][]uint64
}

// maxIndexes bounds the logs indexed in memory; an index that is dropped
// is rebuilt by reading its log once.
const maxIndexes = 4096

// indexCache holds the log indexes of a file store's sessions.
type indexCache struct {
	mu sync.Mutex
	m  map[string]*logIndex
}

func (c *indexCache) get(id string) *logIndex {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ix := c.m[id]; ix != nil {
		return ix
	}
	if c.m == nil {
		c.m = map[string]*logIndex{}
	}
	if len(c.m) >= maxIndexes {
		for k := range c.m { // drop any one: it is rebuilt when needed
			delete(c.m, k)
			break
		}
	}
	ix := &logIndex{}
	c.m[id] = ix
	return ix
}

func (c *indexCache) drop(id string) {
	c.mu.Lock()
	delete(c.m, id)
	c.mu.Unlock()
}

// reset makes the index one of file, empty.
func (ix *logIndex) reset(file os.FileInfo) {
	ix.file, ix.size = file, 0
	ix.byRev = map[uint64]lineRef{}
	ix.keys = map[string][]uint64{}
}

func (ix *logIndex) add(ref lineRef, rev uint64) {
	ix.byRev[rev] = ref
	if ref.key != "" && !containsRev(ix.keys[ref.key], rev) {
		ix.keys[ref.key] = append(ix.keys[ref.key], rev)
	}
}

func containsRev(revs []uint64, rev uint64) bool {
	for _, r := range revs {
		if r == rev {
			return true
		}
	}
	return false
}

// appended extends the index with a line this process just wrote at end
// of file, when the index covered the file up to there; otherwise the next
// refresh reads what it is missing.
func (ix *logIndex) appended(file os.FileInfo, end int64, ref lineRef, rev uint64) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if end == 0 {
		ix.reset(file)
	}
	if ix.file != nil && os.SameFile(ix.file, file) && ix.size == end {
		ix.add(ref, rev)
		ix.size = end + int64(ref.n)
	}
}

// refresh brings the index up to date with the log file f: it reads only
// the lines appended since it last looked (by other processes), or the
// whole file when it is a new one. The caller holds ix.mu.
func (ix *logIndex) refresh(s *FileStore, f *os.File, id string) error {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("read the log of session %q: %w", id, err)
	}
	if ix.file == nil || !os.SameFile(ix.file, fi) || fi.Size() < ix.size {
		ix.reset(fi)
	}
	if fi.Size() == ix.size {
		return nil
	}
	r := bufio.NewReaderSize(io.NewSectionReader(f, ix.size, fi.Size()-ix.size), 64<<10)
	for {
		line, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			var long []byte
			long, err = readLongLine(r, line, s.maxSize)
			line = long
		}
		if err == io.EOF {
			return nil // an incomplete tail: a write under way or torn
		}
		if err != nil {
			if errors.Is(err, ErrTooLarge) {
				return s.tooLarge(fmt.Sprintf("the line at byte %d of the log of session %q", ix.size, id), int64(len(line)))
			}
			return fmt.Errorf("read the log of session %q: %w", id, err)
		}
		onIndexLine()
		rev, key, ok := lineHeader(line)
		if !ok {
			return &CorruptError{Path: s.logPath(id), Err: fmt.Errorf("the line at byte %d is not a log record", ix.size)}
		}
		ix.add(lineRef{off: ix.size, n: len(line), key: key}, rev)
		ix.size += int64(len(line))
	}
}

// onIndexLine is called for each log line an index reads from its file
// (the tests count them).
var onIndexLine = func() {}

// readLongLine reads the rest of a line longer than the reader's buffer,
// up to max bytes.
func readLongLine(r *bufio.Reader, first []byte, max int64) ([]byte, error) {
	line := append([]byte(nil), first...)
	for {
		more, err := r.ReadSlice('\n')
		line = append(line, more...)
		if int64(len(line)) > max {
			return line, ErrTooLarge
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

// lineHeader reads the revision and the message id of a log line. Lines
// are written by appendLogLine (or, before issue 20, by encoding/json in
// the same order), so it reads that layout directly and passes any other
// (an escaped key) to encoding/json.
func lineHeader(line []byte) (uint64, string, bool) {
	const prefix = `{"revision":`
	if bytes.HasPrefix(line, []byte(prefix)) {
		i := len(prefix)
		j := i
		for j < len(line) && '0' <= line[j] && line[j] <= '9' {
			j++
		}
		rev, err := strconv.ParseUint(string(line[i:j]), 10, 64)
		rest := line[j:]
		switch {
		case err != nil || rev == 0:
		case bytes.HasPrefix(rest, []byte(`,"data":`)):
			return rev, "", true
		case bytes.HasPrefix(rest, []byte(`,"key":"`)):
			k := rest[len(`,"key":"`):]
			if end := bytes.IndexByte(k, '"'); end >= 0 && bytes.IndexByte(k[:end], '\\') < 0 {
				return rev, string(k[:end]), true
			}
		}
	}
	var l logLine
	if err := json.Unmarshal(line, &l); err != nil || l.Revision == 0 {
		return 0, "", false
	}
	return l.Revision, l.Key, true
}

// readLine reads and parses the log line at ref.
func (s *FileStore) readLine(f *os.File, id string, ref lineRef) (Record, error) {
	b := make([]byte, ref.n)
	if _, err := f.ReadAt(b, ref.off); err != nil {
		return Record{}, fmt.Errorf("read the log of session %q: %w", id, err)
	}
	var l logLine
	if err := json.Unmarshal(b, &l); err != nil {
		return Record{}, &CorruptError{Path: s.logPath(id), Err: fmt.Errorf("the line at byte %d is not a log record", ref.off)}
	}
	return Record{Revision: l.Revision, Key: l.Key, Data: []byte(l.Data)}, nil
}

// openLog opens the session's log file for reading; nil when there is
// none.
func (s *FileStore) openLog(id string) (*os.File, error) {
	f, err := openNoFollow(s.logPath(id), os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open the log of session %q: %w", id, err)
	}
	return f, nil
}

// lookup finds the record of the session's turn with the message id key,
// among the revisions up to current, through the index.
func (s *FileStore) lookup(id, key string, current uint64) (Record, bool, error) {
	f, err := s.openLog(id)
	if f == nil {
		return Record{}, false, err
	}
	defer f.Close()
	ix := s.index.get(id)
	ix.mu.Lock()
	if err := ix.refresh(s, f, id); err != nil {
		ix.mu.Unlock()
		return Record{}, false, err
	}
	var ref lineRef
	found := false
	for _, rev := range ix.keys[key] {
		if r := ix.byRev[rev]; rev <= current && r.key == key {
			ref, found = r, true
			break
		}
	}
	ix.mu.Unlock()
	if !found {
		return Record{}, false, nil
	}
	rec, err := s.readLine(f, id, ref)
	return rec, err == nil, err
}

// Log returns the session's records after revision after; see [Store]. It
// reads the checkpoint's revision and then, through the index, only the
// lines it returns.
func (s *FileStore) Log(ctx context.Context, id string, after uint64, limit int) ([]Record, error) {
	if err := Check(ctx, id); err != nil {
		return nil, err
	}
	out := []Record{}
	_, current, _, err := s.read(s.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	f, err := s.openLog(id)
	if f == nil {
		return out, err
	}
	defer f.Close()
	ix := s.index.get(id)
	ix.mu.Lock()
	if err := ix.refresh(s, f, id); err != nil {
		ix.mu.Unlock()
		return nil, err
	}
	var refs []lineRef
	for rev := after + 1; rev <= current && rev > after && (limit <= 0 || len(refs) < limit); rev++ {
		if r, ok := ix.byRev[rev]; ok {
			refs = append(refs, r)
		}
	}
	ix.mu.Unlock()
	for _, r := range refs {
		rec, err := s.readLine(f, id, r)
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
	return out, nil
}
