// Package lineedit is a small terminal line editor with history, used by
// `soni chat` when stdin and stdout are a terminal.
//
// The terminal is switched to raw mode only while ReadLine runs and is
// always restored before it returns. Editing keys follow readline: arrows,
// Home/End, Backspace/Delete, Ctrl-A/E/B/F/K/U/W/L, Up/Down for history,
// Ctrl-D (delete, or end of input on an empty line) and Ctrl-C (interrupt).
//
// The code is split in three: a decoder that turns terminal bytes into keys,
// a pure editing state machine, and the terminal I/O around them. Raw mode
// is implemented for Linux; elsewhere New fails with ErrUnsupported and the
// caller reads plain lines instead.
package lineedit

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
)

// ErrInterrupted is returned by ReadLine when the user presses Ctrl-C.
var ErrInterrupted = errors.New("interrupted")

// ErrNotTerminal is returned by New when its input is not a terminal.
var ErrNotTerminal = errors.New("input is not a terminal")

// ErrUnsupported is returned by New on platforms where the terminal cannot
// be switched to raw mode.
var ErrUnsupported = errors.New("terminal line editing is not supported on this platform")

// ErrClosed is returned by ReadLine after Close.
var ErrClosed = errors.New("line editor is closed")

// Options configure an Editor.
type Options struct {
	// Prompt is printed before the text of each line.
	Prompt string
	// HistoryFile keeps the history between runs, one entry per line; ""
	// keeps it in memory only.
	HistoryFile string
	// MaxHistory is how many entries are kept; 0 means DefaultMaxHistory.
	MaxHistory int
}

// Editor reads lines from a terminal with editing and history. It is not
// safe for concurrent use.
type Editor struct {
	in io.Reader
	// term is the terminal switched to raw mode around each ReadLine, or
	// nil when the input is a plain reader (tests).
	term   *os.File
	out    io.Writer
	prompt string
	hist   *history
	dec    decoder
	// queue holds keys already read but not used yet, such as the lines
	// after the first of a paste.
	queue   []Key
	readBuf []byte
	closed  bool
	// drawn is the last redraw written, to skip writing the same again.
	drawn string
}

// New returns an editor reading keys from the terminal in and drawing on
// out. It fails with ErrNotTerminal if in is not a terminal, with
// ErrUnsupported if raw mode is not available here, and with an error
// naming the file if the history file cannot be read.
func New(in *os.File, out io.Writer, opts Options) (*Editor, error) {
	if !rawSupported {
		return nil, ErrUnsupported
	}
	if !IsTerminal(in) {
		return nil, ErrNotTerminal
	}
	e, err := newEditor(in, out, opts)
	if err != nil {
		return nil, err
	}
	e.term = in
	return e, nil
}

// newEditor builds an editor that reads keys from in without touching any
// terminal mode. New wraps it; tests call it directly.
func newEditor(in io.Reader, out io.Writer, opts Options) (*Editor, error) {
	if opts.MaxHistory < 0 {
		return nil, fmt.Errorf("max history %d is negative", opts.MaxHistory)
	}
	if opts.MaxHistory == 0 {
		opts.MaxHistory = DefaultMaxHistory
	}
	h, err := loadHistory(opts.HistoryFile, opts.MaxHistory)
	if err != nil {
		return nil, err
	}
	return &Editor{
		in:      in,
		out:     out,
		prompt:  opts.Prompt,
		hist:    h,
		readBuf: make([]byte, 4096),
	}, nil
}

// IsTerminal reports whether f is a terminal.
func IsTerminal(f *os.File) bool {
	return isTerminal(f)
}

// SetPrompt changes the prompt printed by later calls to ReadLine.
func (e *Editor) SetPrompt(prompt string) {
	e.prompt = prompt
}

// History returns a copy of the history entries, oldest first.
func (e *Editor) History() []string {
	return append([]string(nil), e.hist.lines...)
}

// ReadLine prints the prompt and returns the line the user typed, without
// the line ending. It returns io.EOF on Ctrl-D at an empty line (or when the
// input ends with an empty line) and ErrInterrupted on Ctrl-C. The terminal
// mode is restored before ReadLine returns, however it returns.
func (e *Editor) ReadLine() (line string, err error) {
	if e.closed {
		return "", ErrClosed
	}
	if e.term != nil {
		restore, rerr := makeRaw(e.term)
		if rerr != nil {
			return "", fmt.Errorf("switch terminal to raw mode: %w", rerr)
		}
		defer func() {
			if rerr := restore(); rerr != nil && err == nil {
				err = fmt.Errorf("restore terminal mode: %w", rerr)
			}
		}()
	}
	s := newState(e.hist.lines)
	e.drawn = ""
	if err := e.refresh(s); err != nil {
		return "", err
	}
	emptyReads := 0
	for {
		dirty := false
		for len(e.queue) > 0 {
			k := e.queue[0]
			e.queue = e.queue[1:]
			switch s.handle(k) {
			case actRedraw:
				dirty = true
			case actClearScreen:
				if err := e.write("\x1b[H\x1b[2J"); err != nil {
					return "", err
				}
				e.drawn = ""
				dirty = true
			case actAccept:
				return s.String(), e.finish(s, "\r\n")
			case actEOF:
				return "", withWriteErr(io.EOF, e.finish(s, "\r\n"))
			case actInterrupt:
				return "", withWriteErr(ErrInterrupted, e.finish(s, "^C\r\n"))
			}
		}
		if dirty {
			if err := e.refresh(s); err != nil {
				return "", err
			}
		}
		n, rerr := e.in.Read(e.readBuf)
		if n > 0 {
			emptyReads = 0
			e.queue = append(e.queue, e.dec.feed(e.readBuf[:n])...)
			continue
		}
		if rerr == nil {
			// A reader that keeps returning nothing would spin forever.
			if emptyReads++; emptyReads >= 100 {
				return "", fmt.Errorf("read terminal input: %w", io.ErrNoProgress)
			}
			continue
		}
		if rerr == io.EOF {
			if len(s.buf) > 0 {
				return s.String(), e.finish(s, "\r\n")
			}
			return "", withWriteErr(io.EOF, e.finish(s, "\r\n"))
		}
		return "", fmt.Errorf("read terminal input: %w", rerr)
	}
}

// finish draws the final state of the line with the cursor at its end, if
// that is not on screen already, and writes tail after it.
func (e *Editor) finish(s *state, tail string) error {
	s.pos = len(s.buf)
	if line := e.line(s); line != e.drawn {
		tail = line + tail
	}
	e.drawn = ""
	return e.write(tail)
}

// withWriteErr returns sentinel itself, so callers can compare with ==,
// unless writing to the terminal failed too; then both are joined.
func withWriteErr(sentinel, werr error) error {
	if werr != nil {
		return errors.Join(sentinel, werr)
	}
	return sentinel
}

// refresh redraws the prompt and the text and puts the cursor in place,
// unless the screen shows exactly that already.
func (e *Editor) refresh(s *state) error {
	line := e.line(s)
	if line == e.drawn {
		return nil
	}
	e.drawn = line
	return e.write(line)
}

// line is the byte sequence that redraws s: back to the first column, the
// prompt, the text, clear to the end of the screen line, then the cursor
// moved left by the number of runes after it.
func (e *Editor) line(s *state) string {
	out := "\r" + e.prompt + string(s.buf) + "\x1b[K"
	if after := len(s.buf) - s.pos; after > 0 {
		out += "\x1b[" + strconv.Itoa(after) + "D"
	}
	return out
}

// write sends text to the output.
func (e *Editor) write(text string) error {
	if _, err := io.WriteString(e.out, text); err != nil {
		return fmt.Errorf("write terminal output: %w", err)
	}
	return nil
}

// AddHistory records line as the newest history entry, unless it is blank
// or equal to the newest entry, and appends it to the history file, creating
// the file (mode 0600) and its directory if needed. When the file holds
// MaxHistory entries it is rewritten with the newest ones. Write errors do
// not interrupt editing; the first one is returned by Close.
func (e *Editor) AddHistory(line string) {
	e.hist.add(line)
}

// Close ends the editor: later ReadLine calls fail with ErrClosed. It does
// not close the input or output. It returns the first error met while
// writing the history file, if any.
func (e *Editor) Close() error {
	e.closed = true
	e.queue = nil
	return e.hist.err
}
