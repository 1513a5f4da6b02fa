package lineedit

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// result is what one ReadLine call returned.
type result struct {
	line string
	err  error
}

// readAll calls ReadLine until io.EOF (at most 20 times) and returns every
// result, the EOF included.
func readAll(t *testing.T, e *Editor) []result {
	t.Helper()
	var got []result
	for range 20 {
		line, err := e.ReadLine()
		got = append(got, result{line, err})
		if errors.Is(err, io.EOF) {
			return got
		}
		if err == nil {
			e.AddHistory(line)
		}
	}
	t.Fatal("ReadLine never returned io.EOF")
	return nil
}

func TestReadLine(t *testing.T) {
	eof := result{"", io.EOF}
	tests := []struct {
		name  string
		input string
		want  []result
	}{
		{"one line", "hello\r", []result{{"hello", nil}, eof}},
		{"LF ends a line", "hello\n", []result{{"hello", nil}, eof}},
		{"paste of several lines", "one\r\ntwo\r\nthree\r\n", []result{{"one", nil}, {"two", nil}, {"three", nil}, eof}},
		{"empty lines are returned", "\r\r", []result{{"", nil}, {"", nil}, eof}},
		{"last line without newline", "tail", []result{{"tail", nil}, eof}},
		{"ctrl-d on empty line", "\x04rest\r", []result{eof}},
		{"ctrl-d deletes in a line", "ab\x02\x04\r", []result{{"a", nil}, eof}},
		{"ctrl-c interrupts", "abc\x03next\r", []result{{"", ErrInterrupted}, {"next", nil}, eof}},
		{"editing keys", "wrld\x1b[D\x1b[D\x1b[Do\x05!\x01Xhello \x1b[H\x1b[3~\r", []result{{"hello world!", nil}, eof}},
		{"home and kill", "junk\x01\x0bkeep\x1bOH\x1b[4~ it\r", []result{{"keep it", nil}, eof}},
		{"ctrl-u and ctrl-w", "drop this\x15say hi there\x17you\r", []result{{"say hi you", nil}, eof}},
		{"multi-byte", "caf\xc3\xa9 \xe2\x82\xac5\x7f6\r", []result{{"café €6", nil}, eof}},
		{"history recall", "first\rsecond\r\x1b[A\x1b[A\r", []result{{"first", nil}, {"second", nil}, {"first", nil}, eof}},
		{"history keeps draft", "old\rnew\x1b[A\x1b[B!\r", []result{{"old", nil}, {"new!", nil}, eof}},
		{"clear screen keeps text", "ab\x0cc\r", []result{{"abc", nil}, eof}},
	}
	for _, tt := range tests {
		readers := map[string]func(string) io.Reader{
			"one read":      func(s string) io.Reader { return strings.NewReader(s) },
			"byte per read": func(s string) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) },
			"data with EOF": func(s string) io.Reader { return iotest.DataErrReader(strings.NewReader(s)) },
		}
		for rname, mk := range readers {
			t.Run(tt.name+"/"+rname, func(t *testing.T) {
				var out bytes.Buffer
				e, err := newEditor(mk(tt.input), &out, Options{Prompt: "> "})
				require.NoError(t, err)
				assert.Equal(t, tt.want, readAll(t, e))
				require.NoError(t, e.Close())
			})
		}
	}
}

// chunkReader returns one chunk per Read, like a terminal delivering
// separate key presses, then io.EOF.
type chunkReader struct{ chunks []string }

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.chunks[0])
	if n == len(c.chunks[0]) {
		c.chunks = c.chunks[1:]
	} else {
		c.chunks[0] = c.chunks[0][n:]
	}
	return n, nil
}

func TestReadLineOutput(t *testing.T) {
	// Every ReadLine draws the prompt first; the final call, which meets
	// the end of input, writes "\r> \x1b[K\r\n".
	const start, end = "\r> \x1b[K", "\r> \x1b[K\r\n"
	tests := []struct {
		name   string
		chunks []string // one Read each
		want   string
	}{
		{"typing then enter", []string{"a", "b", "\r"},
			start + "\r> a\x1b[K" + "\r> ab\x1b[K" + "\r\n" + end},
		{"typing in one read is drawn once", []string{"ab\r"},
			start + "\r> ab\x1b[K" + "\r\n" + end},
		{"cursor moved left by rune count", []string{"é€x", "\x02", "\x1b[D", "\r"},
			start + "\r> é€x\x1b[K" + "\r> é€x\x1b[K\x1b[1D" + "\r> é€x\x1b[K\x1b[2D" + "\r> é€x\x1b[K\r\n" + end},
		{"escape sequence split across reads", []string{"ab\x1b", "[", "D", "\r"},
			start + "\r> ab\x1b[K" + "\r> ab\x1b[K\x1b[1D" + "\r> ab\x1b[K\r\n" + end},
		{"ctrl-c moves to the end first", []string{"ab", "\x02", "\x03"},
			start + "\r> ab\x1b[K" + "\r> ab\x1b[K\x1b[1D" + "\r> ab\x1b[K^C\r\n" + end},
		{"ctrl-d on empty line", []string{"\x04"},
			start + "\r\n"},
		{"ctrl-l clears then redraws", []string{"a", "\x0c", "\r"},
			start + "\r> a\x1b[K" + "\x1b[H\x1b[2J\r> a\x1b[K" + "\r\n" + end},
		{"ctrl-l in one read", []string{"a\x0c\r"},
			start + "\x1b[H\x1b[2J\r> a\x1b[K" + "\r\n" + end},
		{"no redraw when nothing changed", []string{"\x7f", "\x1b[D", "\r"},
			start + "\r\n" + end},
		{"edits that cancel out in one read are not drawn", []string{"a\x7f\r"},
			start + "\r\n" + end},
		{"history entry shown", []string{"hi\r", "\x1b[A", "\r"},
			start + "\r> hi\x1b[K" + "\r\n" + start + "\r> hi\x1b[K" + "\r\n" + end},
		{"pasted lines drawn once each", []string{"ab\ncd\n"},
			start + "\r> ab\x1b[K" + "\r\n" + start + "\r> cd\x1b[K" + "\r\n" + end},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			e, err := newEditor(&chunkReader{chunks: tt.chunks}, &out, Options{Prompt: "> "})
			require.NoError(t, err)
			readAll(t, e)
			assert.Equal(t, tt.want, out.String())
		})
	}
}

// failWriter fails every write after the first ok ones.
type failWriter struct{ ok int }

func (w *failWriter) Write(p []byte) (int, error) {
	if w.ok > 0 {
		w.ok--
		return len(p), nil
	}
	return 0, errors.New("broken pipe")
}

// emptyReader returns no bytes and no error, forever.
type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error) { return 0, nil }

func TestReadLineErrors(t *testing.T) {
	t.Run("write error", func(t *testing.T) {
		e, err := newEditor(strings.NewReader("a\r"), &failWriter{}, Options{})
		require.NoError(t, err)
		_, err = e.ReadLine()
		assert.ErrorContains(t, err, "broken pipe")
	})
	t.Run("write error with interrupt keeps both", func(t *testing.T) {
		e, err := newEditor(strings.NewReader("\x03"), &failWriter{ok: 1}, Options{})
		require.NoError(t, err)
		_, err = e.ReadLine()
		assert.ErrorIs(t, err, ErrInterrupted)
		assert.ErrorContains(t, err, "broken pipe")
	})
	t.Run("read error", func(t *testing.T) {
		e, err := newEditor(iotest.ErrReader(errors.New("device gone")), io.Discard, Options{})
		require.NoError(t, err)
		_, err = e.ReadLine()
		assert.ErrorContains(t, err, "device gone")
		assert.NotErrorIs(t, err, io.EOF)
	})
	t.Run("reader that returns nothing", func(t *testing.T) {
		e, err := newEditor(emptyReader{}, io.Discard, Options{})
		require.NoError(t, err)
		_, err = e.ReadLine()
		assert.ErrorIs(t, err, io.ErrNoProgress)
	})
	t.Run("closed", func(t *testing.T) {
		e, err := newEditor(strings.NewReader("a\r"), io.Discard, Options{})
		require.NoError(t, err)
		require.NoError(t, e.Close())
		_, err = e.ReadLine()
		assert.ErrorIs(t, err, ErrClosed)
	})
	t.Run("negative max history", func(t *testing.T) {
		_, err := newEditor(strings.NewReader(""), io.Discard, Options{MaxHistory: -1})
		assert.ErrorContains(t, err, "max history -1 is negative")
	})
}

func TestNewRejectsNonTerminal(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "in")
	require.NoError(t, err)
	defer f.Close()
	assert.False(t, IsTerminal(f))
	assert.False(t, IsTerminal(nil))
	_, err = New(f, io.Discard, Options{})
	if rawSupported {
		assert.ErrorIs(t, err, ErrNotTerminal)
	} else {
		assert.ErrorIs(t, err, ErrUnsupported)
	}
}

func TestAddHistory(t *testing.T) {
	tests := []struct {
		name string
		add  []string
		want []string
	}{
		{"keeps order", []string{"a", "b", "c"}, []string{"a", "b", "c"}},
		{"skips empty and blank", []string{"a", "", "  \t", "b"}, []string{"a", "b"}},
		{"skips immediate duplicates", []string{"a", "a", "b", "a", "a"}, []string{"a", "b", "a"}},
		{"line breaks become spaces", []string{"x\ny", "p\r\nq"}, []string{"x y", "p q"}},
		{"trims to max", []string{"1", "2", "3", "4", "5"}, []string{"3", "4", "5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := newEditor(strings.NewReader(""), io.Discard, Options{MaxHistory: 3})
			require.NoError(t, err)
			for _, line := range tt.add {
				e.AddHistory(line)
			}
			assert.Equal(t, tt.want, e.History())
		})
	}
}

func TestHistoryFile(t *testing.T) {
	tests := []struct {
		name     string
		existing *string // nil: no file
		max      int
		add      []string
		loaded   []string // history right after newEditor
		want     []string // history at the end
		file     string   // file content at the end
	}{
		{
			name: "missing file", max: 5,
			add:    []string{"a", "b"},
			loaded: nil, want: []string{"a", "b"}, file: "a\nb\n",
		},
		{
			name: "loads and appends", existing: ptr("x\ny\n"), max: 5,
			add:    []string{"y", "z"},
			loaded: []string{"x", "y"}, want: []string{"x", "y", "z"}, file: "x\ny\nz\n",
		},
		{
			name: "skips blank lines and CR", existing: ptr("x\r\n\n  \ny"), max: 5,
			loaded: []string{"x", "y"}, want: []string{"x", "y"}, file: "x\r\n\n  \ny",
		},
		{
			name: "trims long file on load", existing: ptr("1\n2\n3\n4\n5\n"), max: 3,
			loaded: []string{"3", "4", "5"}, want: []string{"3", "4", "5"}, file: "3\n4\n5\n",
		},
		{
			name: "trims file when full", existing: ptr("1\n2\n"), max: 3,
			add:    []string{"3", "4", "5"},
			loaded: []string{"1", "2"}, want: []string{"3", "4", "5"}, file: "3\n4\n5\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "sub", "dir", "history")
			if tt.existing != nil {
				require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
				require.NoError(t, os.WriteFile(path, []byte(*tt.existing), 0o600))
			}
			e, err := newEditor(strings.NewReader(""), io.Discard, Options{HistoryFile: path, MaxHistory: tt.max})
			require.NoError(t, err)
			assert.Equal(t, tt.loaded, e.History())
			for _, line := range tt.add {
				e.AddHistory(line)
			}
			require.NoError(t, e.Close())
			assert.Equal(t, tt.want, e.History())

			data, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, tt.file, string(data))
			fi, err := os.Stat(path)
			require.NoError(t, err)
			if tt.existing == nil || tt.loaded != nil && len(tt.loaded) < strings.Count(*tt.existing, "\n") {
				assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
			}
			entries, err := os.ReadDir(filepath.Dir(path))
			require.NoError(t, err)
			assert.Len(t, entries, 1, "no temporary files left behind")

			// A new editor sees what the last one saved.
			e2, err := newEditor(strings.NewReader(""), io.Discard, Options{HistoryFile: path, MaxHistory: tt.max})
			require.NoError(t, err)
			assert.Equal(t, tt.want, e2.History())
		})
	}
}

func TestHistoryFileErrors(t *testing.T) {
	t.Run("unreadable history is an error naming the file", func(t *testing.T) {
		dir := t.TempDir() // a directory cannot be read as a file
		_, err := newEditor(strings.NewReader(""), io.Discard, Options{HistoryFile: dir})
		require.Error(t, err)
		assert.Contains(t, err.Error(), `read history file "`+dir+`"`)
	})
	t.Run("write error is reported by close", func(t *testing.T) {
		parent := filepath.Join(t.TempDir(), "sub")
		path := filepath.Join(parent, "history")
		e, err := newEditor(strings.NewReader(""), io.Discard, Options{HistoryFile: path})
		require.NoError(t, err)
		// The directory cannot be created once a file takes its name.
		require.NoError(t, os.WriteFile(parent, nil, 0o600))
		e.AddHistory("a")
		e.AddHistory("b")
		assert.Equal(t, []string{"a", "b"}, e.History(), "history in memory still works")
		err = e.Close()
		require.Error(t, err)
		assert.Contains(t, err.Error(), "history")
	})
}

func ptr(s string) *string { return &s }
