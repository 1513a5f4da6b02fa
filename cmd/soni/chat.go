package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/tmpl"
	"github.com/soni-dev/soni/vm"
	"github.com/urfave/cli/v2"
)

// maxLine is the longest user message chat reads; longer lines are cut
// there, with a note on stderr.
const maxLine = 64 << 10

func chatCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "chat",
		Usage:     "talk to the flows, in a terminal or through a pipe",
		ArgsUsage: "PATH",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "session", Value: "default", Usage: "conversation `ID`: [A-Za-z0-9._-]{1,128}"},
			&cli.StringFlag{Name: "checkpoints", Value: filepath.Join(".soni", "checkpoints"), Usage: "checkpoint `DIR`"},
			&cli.BoolFlag{Name: "reset", Usage: "start the session afresh"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object per turn"},
			&cli.BoolFlag{Name: "trace", Usage: "show the commands and steps of each turn"},
		}, limitFlags()...),
		Action: func(c *cli.Context) error {
			path, err := oneProject(c)
			if err != nil {
				return err
			}
			session := c.String("session")
			if err := checkpoints.ValidateID(session); err != nil {
				return usageError("chat: %s", err)
			}
			prog, err := loadProgram(e, c, path)
			if err != nil {
				return err
			}
			store, err := checkpoints.NewFileStore(c.String("checkpoints"))
			if err != nil {
				return cli.Exit(fmt.Sprintf("chat: %s", err), exitUsage)
			}
			eng, err := soni.New(prog, soni.Options{Store: store, Dir: soni.ProjectDir(path)})
			if err != nil {
				return cli.Exit(fmt.Sprintf("chat: %s", err), exitFailed)
			}
			ch := &chat{e: e, eng: eng, session: session, json: c.Bool("json"), trace: c.Bool("trace"),
				history: filepath.Join(filepath.Dir(filepath.Clean(c.String("checkpoints"))), "history")}
			return ch.run(c.Context, c.Bool("reset"))
		},
	}
}

// chat is one chat session on the terminal or a pipe.
type chat struct {
	e       *env
	eng     *soni.Engine
	session string
	json    bool
	trace   bool
	// history is the line editor's history file.
	history string
}

// lineReader reads one user message at a time.
type lineReader interface {
	ReadLine() (string, error)
	AddHistory(string)
	Close() error
}

func (ch *chat) run(ctx context.Context, reset bool) error {
	if reset {
		if err := ch.eng.Reset(ctx, ch.session); err != nil {
			return cli.Exit(fmt.Sprintf("chat: %s", err), exitFailed)
		}
	}
	st, rev, err := ch.eng.State(ctx, ch.session)
	if err != nil {
		return cli.Exit(fmt.Sprintf("chat: %s", err), exitFailed)
	}
	if rev > 0 && st.Pending != nil {
		fmt.Fprintf(ch.e.stderr, "resuming session %q: %s\n", ch.session, st.Pending.Prompt)
	}
	in := ch.reader()
	defer in.Close()
	for {
		if ctx.Err() != nil {
			return nil
		}
		line, err := in.ReadLine()
		if errors.Is(err, io.EOF) || errors.Is(err, errInterrupted) {
			return nil
		}
		if err != nil {
			return cli.Exit(fmt.Sprintf("chat: %s", err), exitFailed)
		}
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		in.AddHistory(line)
		quit, err := ch.handle(ctx, line)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		if quit {
			return nil
		}
	}
}

// handle runs one input line: a / command or a message. It returns true
// when the user asked to quit.
func (ch *chat) handle(ctx context.Context, line string) (bool, error) {
	in := vm.Input{Text: line}
	if strings.HasPrefix(line, "/") {
		fields := strings.Fields(line)
		cmd, arg := fields[0], strings.TrimSpace(strings.TrimPrefix(line, fields[0]))
		switch cmd {
		case "/quit", "/exit":
			return true, nil
		case "/reset":
			if err := ch.eng.Reset(ctx, ch.session); err != nil {
				return false, cli.Exit(fmt.Sprintf("chat: %s", err), exitFailed)
			}
			ch.note("session %q reset", ch.session)
			return false, nil
		case "/state":
			return false, ch.printState(ctx)
		case "/start":
			if arg == "" {
				ch.note("usage: /start FLOW")
				return false, nil
			}
			if ch.eng.Program().Flow(arg) == nil {
				ch.note("unknown flow %q", arg)
				return false, nil
			}
			in.Commands = []vm.Command{{Kind: vm.CmdStartFlow, Flow: arg}}
		case "/set":
			name, value, ok := strings.Cut(arg, "=")
			if !ok || strings.TrimSpace(name) == "" {
				ch.note("usage: /set SLOT=VALUE")
				return false, nil
			}
			in.Commands = []vm.Command{{Kind: vm.CmdSetSlot, Slot: strings.TrimSpace(name), Value: strings.TrimSpace(value)}}
		case "/cancel":
			in.Commands = []vm.Command{{Kind: vm.CmdCancelFlow}}
		case "/yes":
			in.Commands = []vm.Command{{Kind: vm.CmdAffirm}}
		case "/no":
			in.Commands = []vm.Command{{Kind: vm.CmdDeny}}
		default:
			ch.note("unknown command %q: use /start FLOW, /set SLOT=VALUE, /cancel, /yes, /no, /state, /reset or /quit", cmd)
			return false, nil
		}
	}
	reply, err := ch.eng.Handle(ctx, ch.session, in)
	if err != nil {
		if ctx.Err() != nil {
			return false, nil
		}
		var re *vm.RuntimeError
		if errors.As(err, &re) {
			// The turn failed at run time; the checkpoint is untouched and
			// the conversation can go on.
			fmt.Fprintf(ch.e.stderr, "soni: runtime error: %s\n", err)
			return false, nil
		}
		return false, cli.Exit(fmt.Sprintf("chat: %s", err), exitFailed)
	}
	ch.print(reply)
	return false, nil
}

func (ch *chat) note(format string, args ...any) {
	fmt.Fprintf(ch.e.stderr, format+"\n", args...)
}

// turnJSON is the --json form of a turn: one object per line.
type turnJSON struct {
	Session  string         `json:"session"`
	Revision uint64         `json:"revision"`
	Replies  []string       `json:"replies"`
	Pending  *vm.Pending    `json:"pending"`
	Slots    map[string]any `json:"slots"`
	Events   []vm.Event     `json:"events"`
	Stack    []string       `json:"stack"`
	Trace    []string       `json:"trace,omitempty"`
}

func (ch *chat) print(r *soni.Reply) {
	if ch.json {
		t := turnJSON{Session: r.Session, Revision: r.Revision, Replies: r.Replies, Pending: r.Pending, Slots: r.Slots(), Events: r.Events, Stack: []string{}}
		if t.Replies == nil {
			t.Replies = []string{}
		}
		if t.Events == nil {
			t.Events = []vm.Event{}
		}
		for _, f := range r.State.Stack {
			t.Stack = append(t.Stack, f.Flow)
		}
		if ch.trace {
			t.Trace = r.Trace
		}
		b, err := json.Marshal(t)
		if err != nil {
			fmt.Fprintf(ch.e.stderr, "soni: %s\n", err)
			return
		}
		fmt.Fprintf(ch.e.stdout, "%s\n", b)
		return
	}
	if ch.trace {
		for _, c := range r.Commands {
			fmt.Fprintf(ch.e.stderr, "trace: command %s\n", describeCommand(c))
		}
		for _, l := range r.Trace {
			fmt.Fprintf(ch.e.stderr, "trace: %s\n", l)
		}
	}
	for _, line := range r.Replies {
		fmt.Fprintln(ch.e.stdout, line)
	}
}

func describeCommand(c vm.Command) string {
	switch c.Kind {
	case vm.CmdStartFlow:
		return fmt.Sprintf("start_flow(%s)", c.Flow)
	case vm.CmdSetSlot, vm.CmdCorrectSlot:
		return fmt.Sprintf("%s(%s=%s)", c.Kind, c.Slot, tmpl.Format(c.Value))
	}
	return string(c.Kind)
}

func (ch *chat) printState(ctx context.Context) error {
	st, rev, err := ch.eng.State(ctx, ch.session)
	if err != nil {
		return cli.Exit(fmt.Sprintf("chat: %s", err), exitFailed)
	}
	w := ch.e.stdout
	fmt.Fprintf(w, "session %s, revision %d\n", ch.session, rev)
	if len(st.Stack) == 0 {
		fmt.Fprintln(w, "no active flow")
	}
	for i := len(st.Stack) - 1; i >= 0; i-- {
		f := st.Stack[i]
		fmt.Fprintf(w, "flow %s at step %s%s\n", f.Flow, f.Step, fmtSlots(f.Slots))
	}
	if st.Pending != nil {
		fmt.Fprintf(w, "waiting for %s of %s: %s\n", st.Pending.Kind, st.Pending.Slot, st.Pending.Prompt)
	}
	fmt.Fprintf(w, "slots:%s\n", fmtSlots(st.Slots))
	return nil
}

func fmtSlots(m map[string]any) string {
	if len(m) == 0 {
		return ""
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%s", k, tmpl.Format(m[k]))
	}
	return b.String()
}

// errInterrupted is what a reader returns on Ctrl-C.
var errInterrupted = errors.New("interrupted")

// reader picks the line editor on a terminal, plain lines otherwise.
func (ch *chat) reader() lineReader {
	if r := newTerminalReader(ch.e, ch.history); r != nil {
		return r
	}
	return &plainReader{r: bufio.NewReaderSize(ch.e.stdin, 64<<10), e: ch.e}
}

// plainReader reads lines from a pipe, cutting very long lines.
type plainReader struct {
	r *bufio.Reader
	e *env
}

func (p *plainReader) ReadLine() (string, error) {
	var b []byte
	cut := false
	for {
		chunk, isPrefix, err := p.r.ReadLine()
		if err != nil {
			if len(b) > 0 && errors.Is(err, io.EOF) {
				return string(b), nil
			}
			return "", err
		}
		if len(b)+len(chunk) > maxLine {
			chunk = chunk[:max(0, maxLine-len(b))]
			cut = true
		}
		b = append(b, chunk...)
		if !isPrefix {
			break
		}
	}
	if cut {
		fmt.Fprintf(p.e.stderr, "soni: message cut to %d KiB\n", maxLine>>10)
	}
	return string(b), nil
}

func (p *plainReader) AddHistory(string) {}
func (p *plainReader) Close() error      { return nil }
