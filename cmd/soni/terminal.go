package main

import (
	"errors"
	"os"

	"github.com/soni-dev/soni/internal/lineedit"
)

// newTerminalReader returns a line editor with history when stdin and
// stdout are both a terminal, or nil (plain lines are read then).
func newTerminalReader(e *env, historyFile string) lineReader {
	in, ok := e.stdin.(*os.File)
	if !ok || !lineedit.IsTerminal(in) || !isTerminal(e.stdout) {
		return nil
	}
	opts := lineedit.Options{Prompt: "> ", HistoryFile: historyFile}
	ed, err := lineedit.New(in, e.stdout, opts)
	if err != nil && historyFile != "" {
		// An unreadable history file must not stop the chat.
		opts.HistoryFile = ""
		ed, err = lineedit.New(in, e.stdout, opts)
	}
	if err != nil {
		return nil
	}
	return &editorReader{ed: ed}
}

// editorReader adapts the line editor: Ctrl-C leaves the chat like Ctrl-D.
type editorReader struct{ ed *lineedit.Editor }

func (r *editorReader) ReadLine() (string, error) {
	line, err := r.ed.ReadLine()
	if errors.Is(err, lineedit.ErrInterrupted) {
		return "", errInterrupted
	}
	return line, err
}

func (r *editorReader) AddHistory(line string) { r.ed.AddHistory(line) }
func (r *editorReader) Close() error           { return r.ed.Close() }
