package main

import (
	"io"
	"os"

	"github.com/soni-dev/soni/cmd/soni/internal/history"
	"golang.org/x/term"
)

// newTerminalReader returns a line editor with history when stdin and
// stdout are both a terminal, or nil (plain lines are read then). The
// editor is golang.org/x/term's Terminal: readline keys (arrows,
// Home/End, Ctrl-A/E/B/F/K/U/W/L/T, Up/Down or Ctrl-P/N for history,
// bracketed paste), on every platform x/term supports.
func newTerminalReader(e *env, historyFile string) lineReader {
	in, ok := e.stdin.(*os.File)
	if !ok || !term.IsTerminal(int(in.Fd())) || !isTerminal(e.stdout) {
		return nil
	}
	h, err := history.Load(historyFile, 0)
	if err != nil {
		// An unreadable history file must not stop the chat.
		h, _ = history.Load("", 0)
	}
	fd := int(in.Fd())
	t := term.NewTerminal(struct {
		io.Reader
		io.Writer
	}{in, e.stdout}, "> ")
	t.History = h
	return &termReader{t: t, raw: func() (func(), error) {
		old, err := term.MakeRaw(fd)
		if err != nil {
			return nil, err
		}
		if w, h, err := term.GetSize(fd); err == nil && w > 0 && h > 0 {
			_ = t.SetSize(w, h)
		}
		return func() { _ = term.Restore(fd, old) }, nil
	}}
}

// termReader reads lines with x/term's editor, the terminal in raw mode
// only while a line is read. Ctrl-D on an empty line and Ctrl-C both end
// the input (io.EOF), which leaves the chat.
type termReader struct {
	t   *term.Terminal
	raw func() (restore func(), err error)
}

func (r *termReader) ReadLine() (string, error) {
	restore, err := r.raw()
	if err != nil {
		return "", err
	}
	defer restore()
	return r.t.ReadLine()
}

// AddHistory does nothing: the editor records each line it reads.
func (r *termReader) AddHistory(string) {}

func (r *termReader) Close() error { return nil }
