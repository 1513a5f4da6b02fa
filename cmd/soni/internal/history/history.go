// Package history keeps the line history of soni chat's terminal editor
// (golang.org/x/term's Terminal) in a file between runs: one entry per
// line, oldest first, bounded. It implements term.History.
package history

import (
	"errors"
	"fmt"
	"github.com/soni-dev/soni/internal/safefile"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// DefaultMax is the number of entries kept when Load is given 0.
const DefaultMax = 500

// History is the list of earlier lines and, when path is set, the file that
// keeps them between runs: one entry per line, oldest first. It is not safe
// for concurrent use (x/term's Terminal calls it from ReadLine only).
type History struct {
	path  string
	max   int
	lines []string
	// fileLines counts the entries in the file, to know when to trim it.
	fileLines int
	// err is the first error met while writing the file.
	err error
}

// maxHistoryFile bounds the history file read at start.
const maxHistoryFile = 16 << 20

// Load reads the history file at path ("" keeps the history in memory
// only), keeping the last limit entries (0: DefaultMax). A missing file is
// an empty history; a file holding more than limit entries is rewritten
// with the last limit. The file is read through the guarded reader: a
// FIFO or a huge file is refused, not waited on.
func Load(path string, limit int) (*History, error) {
	if limit <= 0 {
		limit = DefaultMax
	}
	h := &History{path: path, max: limit}
	if path == "" {
		return h, nil
	}
	data, err := safefile.ReadFile(path, maxHistoryFile)
	if errors.Is(err, fs.ErrNotExist) {
		return h, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read history file %q: %w", path, err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) != "" {
			h.lines = append(h.lines, line)
		}
	}
	h.fileLines = len(h.lines)
	if len(h.lines) > limit {
		h.lines = h.lines[len(h.lines)-limit:]
		if err := h.rewrite(); err != nil {
			return nil, err
		}
	}
	return h, nil
}

// Add records line unless it is blank or repeats the latest entry, and
// appends it to the file. Line breaks inside line become spaces, since the
// file holds one entry per line. The first error writing the file stops
// writing it (Err reports it); the history in memory goes on.
func (h *History) Add(line string) {
	line = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(line)
	if strings.TrimSpace(line) == "" {
		return
	}
	if n := len(h.lines); n > 0 && h.lines[n-1] == line {
		return
	}
	h.lines = append(h.lines, line)
	if len(h.lines) > h.max {
		h.lines = append(h.lines[:0], h.lines[len(h.lines)-h.max:]...)
	}
	if h.path == "" || h.err != nil {
		return
	}
	if h.fileLines >= h.max {
		h.err = h.rewrite()
		return
	}
	h.err = h.appendLine(line)
}

// appendLine adds one entry at the end of the file, creating the file and
// its directory when missing.
func (h *History) appendLine(line string) error {
	if err := os.MkdirAll(filepath.Dir(h.path), 0o700); err != nil {
		return fmt.Errorf("create history directory %q: %w", filepath.Dir(h.path), err)
	}
	f, err := os.OpenFile(h.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("open history file %q: %w", h.path, err)
	}
	_, werr := f.WriteString(line + "\n")
	cerr := f.Close()
	if werr != nil {
		return fmt.Errorf("write history file %q: %w", h.path, werr)
	}
	if cerr != nil {
		return fmt.Errorf("write history file %q: %w", h.path, cerr)
	}
	h.fileLines++
	return nil
}

// rewrite replaces the file with the entries in memory, atomically: a
// temporary file in the same directory is written, synced and renamed over
// the old one.
func (h *History) rewrite() error {
	dir := filepath.Dir(h.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create history directory %q: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(h.path)+".tmp*")
	if err != nil {
		return fmt.Errorf("rewrite history file %q: %w", h.path, err)
	}
	var b strings.Builder
	for _, line := range h.lines {
		b.WriteString(line)
		b.WriteByte('\n')
	}
	_, err = tmp.WriteString(b.String())
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), h.path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("rewrite history file %q: %w", h.path, err)
	}
	h.fileLines = len(h.lines)
	return nil
}

// Len returns the number of entries.
func (h *History) Len() int { return len(h.lines) }

// At returns an entry: 0 is the latest, Len()-1 the oldest.
func (h *History) At(i int) string { return h.lines[len(h.lines)-1-i] }

// Err returns the first error met writing the file, or nil.
func (h *History) Err() error { return h.err }
