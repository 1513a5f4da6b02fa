package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/internal/text"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/understand/llm"

	"github.com/soni-dev/soni/internal/suggest"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/actions"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/payload"
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
			&cli.StringFlag{Name: "checkpoints", Usage: "checkpoint `DIR` (default: .soni/checkpoints/PROJECT, one directory per project)"},
			&cli.StringFlag{Name: "store", Usage: storeUsage},
			&cli.BoolFlag{Name: "reset", Usage: "start the session afresh"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object per turn"},
			&cli.BoolFlag{Name: "trace", Usage: "show the commands and steps of each turn"},
			&cli.StringFlag{Name: "language", Usage: "the session's `LANG` (en, es...): responses say their translation into it"},
			nowFlag(),
		}, append(understandingFlags(), limitFlags()...)...),
		Action: func(c *cli.Context) error {
			path, err := oneProject(c)
			if err != nil {
				return err
			}
			if ps := compiler.SplitProjects(path, compilerOptions(c)); len(ps) > 1 {
				for i, p := range ps {
					ps[i] = "soni chat " + p
				}
				return usageError("chat: %q holds %d projects; chat with one of them: %s", path, len(ps), strings.Join(ps, ", "))
			}
			session := c.String("session")
			if err := checkpoints.ValidateID(session); err != nil {
				return usageError("chat: %s", err)
			}
			prog, err := loadProgram(e, c, path, true)
			if err != nil {
				return err
			}
			dir := c.String("checkpoints")
			if !c.IsSet("checkpoints") {
				dir = defaultCheckpoints(path)
			}
			if c.IsSet("store") && c.IsSet("checkpoints") {
				return usageError("chat: give --store or --checkpoints, not both (--checkpoints DIR is --store file:DIR)")
			}
			store, err := openStore(c.String("store"), dir, readWrite)
			if err != nil {
				return storeError("chat", c.String("store"), err)
			}
			defer store.Close()
			now, err := nowOf(c)
			if err != nil {
				return err
			}
			u, err := understanderFor(c, prog, soni.ProjectDir(path), func(h llm.Health) {
				fmt.Fprintln(e.stderr, "soni chat: "+modelWarning(h))
			})
			if err != nil {
				return err
			}
			eng, err := soni.New(prog, soni.Options{Store: store, Dir: soni.ProjectDir(path), Understander: u})
			if err != nil {
				return cli.Exit(fmt.Sprintf("chat: %s", err), exitFailed)
			}
			ch := &chat{e: e, eng: eng, project: path, session: session, json: c.Bool("json"), trace: c.Bool("trace"), now: now,
				history: historyFile(dir, c.IsSet("checkpoints")), language: strings.TrimSpace(c.String("language"))}
			if fs, ok := store.(*checkpoints.FileStore); ok {
				ch.checkpoint, _ = fs.Path(session)
			}
			return ch.run(c.Context, c.Bool("reset"))
		},
	}
}

// chat is one chat session on the terminal or a pipe.
type chat struct {
	e       *env
	eng     *soni.Engine
	project string
	session string
	json    bool
	trace   bool
	// now, when not zero, is when every message is sent (--now).
	now time.Time
	// language, when set (--language), is sent as the metadata's
	// language with every message.
	language string
	// history is the line editor's history file (see historyFile).
	history string
	// checkpoint is the session's checkpoint file, when the store keeps
	// files: the errors about it name it.
	checkpoint string
	// last is the state after the last turn this chat ran (or loaded at
	// start): /state, /set and the --json object of a failed turn read it
	// instead of loading the checkpoint again.
	last *soni.Reply
	// wrote and problem track the current message under --json, which
	// prints exactly one object per message: wrote is set once it is
	// printed, problem holds the note to report when it was not.
	wrote   bool
	problem string
}

// failure is the message of an error that ends the chat, with the advice
// the library leaves to the command line: a checkpoint that cannot be
// resumed or read names its file, and the ways to go on.
func (ch *chat) failure(err error) string {
	var re *soni.ResumeError
	if !errors.As(err, &re) && !errors.Is(err, checkpoints.ErrCorrupt) {
		return fmt.Sprintf("chat: %s", err)
	}
	msg := err.Error()
	if ch.checkpoint != "" && re != nil {
		msg = strings.Replace(msg, fmt.Sprintf("the checkpoint of session %q", ch.session), fmt.Sprintf("checkpoint %q", ch.checkpoint), 1)
	}
	return fmt.Sprintf("chat: %s: to keep it and start a new conversation, choose another session with --session NAME; to discard it, start the session afresh with --reset", msg)
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
		return cli.Exit(ch.failure(err), exitFailed)
	}
	ch.setLast(st, rev)
	ch.banner()
	if rev > 0 && st.Pending != nil {
		fmt.Fprintf(ch.e.stderr, "resuming session %q: %s\n", ch.session, st.Pending.Prompt)
	}
	in := ch.reader()
	defer in.Close()
	var lines *lineSource
	if _, plain := in.(*plainReader); plain {
		// The line editor sees Ctrl-C as a key; a plain read must be
		// given up on a signal instead (see lineSource).
		lines = readLines(in)
		defer lines.stop()
	}
	for {
		if ctx.Err() != nil {
			return nil
		}
		line, err := lines.read(ctx, in)
		if errors.Is(err, io.EOF) || errors.Is(err, errInterrupted) {
			return nil
		}
		if err != nil {
			return cli.Exit(fmt.Sprintf("chat: %s", err), exitFailed)
		}
		// A message is text: an invalid UTF-8 byte becomes U+FFFD here, as
		// the checkpoint would store it, so that a resumed conversation
		// sees the same message as this one.
		line = strings.ToValidUTF8(strings.TrimRight(line, "\r"), "\uFFFD")
		if strings.TrimSpace(line) == "" {
			continue
		}
		in.AddHistory(line)
		ch.wrote, ch.problem = false, ""
		quit, err := ch.handle(ctx, line)
		if ch.json && !ch.wrote && !quit {
			// One object per message, whatever happened to it, so that a
			// harness reading a line per message stays in step.
			msg := ch.problem
			var ex cli.ExitCoder
			if errors.As(err, &ex) {
				msg = ex.Error()
			} else if err != nil {
				msg = err.Error()
			} else if ctx.Err() != nil {
				msg = "interrupted: the turn was not saved"
			}
			ch.writeLast(msg)
		}
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
	in := vm.Input{Text: line, Now: ch.now, Channel: "chat"}
	if ch.language != "" {
		in.Metadata = map[string]any{"language": ch.language}
	}
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
			ch.setLast(ch.eng.Machine().NewState(ch.session), 0)
			fmt.Fprintf(ch.e.stderr, "session %q reset\n", ch.session)
			return false, nil
		case "/state":
			ch.printState()
			return false, nil
		case "/help":
			fmt.Fprint(ch.e.stderr, chatHelp)
			return false, nil
		case "/start":
			if arg == "" {
				ch.note("usage: /start FLOW; the flows are %s", strings.Join(ch.flowNames(), ", "))
				return false, nil
			}
			if !ch.projectFlow(arg) {
				hint := ""
				if s := suggest.Closest(arg, ch.flowNames()); s != "" {
					hint = fmt.Sprintf(" (did you mean %q?)", s)
				}
				ch.note("unknown flow %q%s; the flows are %s", arg, hint, strings.Join(ch.flowNames(), ", "))
				return false, nil
			}
			in.Commands = []vm.Command{{Kind: vm.CmdStartFlow, Flow: arg}}
		case "/set":
			name, value, ok := strings.Cut(arg, "=")
			if !ok || strings.TrimSpace(name) == "" {
				ch.note("usage: /set SLOT=VALUE")
				return false, nil
			}
			name = strings.TrimSpace(name)
			if msg := ch.checkSlot(name); msg != "" {
				ch.note("%s", msg)
				return false, nil
			}
			in.Commands = []vm.Command{{Kind: vm.CmdSetSlot, Slot: name, Value: strings.TrimSpace(value)}}
		case "/cancel":
			in.Commands = []vm.Command{{Kind: vm.CmdCancelFlow}}
		case "/yes":
			in.Commands = []vm.Command{{Kind: vm.CmdAffirm}}
		case "/no":
			in.Commands = []vm.Command{{Kind: vm.CmdDeny}}
		default:
			if p, err := payload.Parse(line); err == nil && (p.Kind == payload.SetSlots ||
				p.Kind == payload.Intent && (len(p.Slots) > 0 || ch.projectFlow(p.Name))) {
				// A button's payload, typed or pasted: the engine reads it.
				// A bare /word that names no flow is a mistyped command.
				break
			}
			hint := ""
			if s := suggest.Closest(cmd, chatCommands); s != "" {
				hint = fmt.Sprintf(" (did you mean %s?)", s)
			}
			ch.note("unknown command %q%s: use /start FLOW, /set SLOT=VALUE, /cancel, /yes, /no, /state, /reset, /help or /quit", cmd, hint)
			return false, nil
		}
	}
	reply, err := ch.eng.Handle(ctx, ch.session, in)
	if err != nil {
		if ctx.Err() != nil {
			// Ctrl-C or a signal during the turn: the cursor may sit after
			// a "^C", so start a new line, and say what became of the turn.
			fmt.Fprintf(ch.e.stderr, "\ninterrupted: the turn for %q was not saved; the conversation stays where it was\n", text.Clip(line, 60))
			return false, nil
		}
		var re *vm.RuntimeError
		if errors.As(err, &re) {
			// The turn failed at run time; the checkpoint is untouched and
			// the conversation can go on.
			fmt.Fprintf(ch.e.stderr, "soni: runtime error: %s\n", err)
			ch.problem = err.Error()
			return false, nil
		}
		var ce *checkpoints.ConflictError
		if errors.As(err, &ce) {
			// A writer that bypassed the session's lock saved it while
			// this turn ran.
			return false, cli.Exit(fmt.Sprintf("chat: session %q was saved by another writer while this turn ran (it is now at revision %d, this turn started from %d); the turn for %q was not saved: run soni chat again to go on from the other writer's state",
				ch.session, ce.Actual, ce.Expected, text.Clip(line, 60)), exitFailed)
		}
		return false, cli.Exit(ch.failure(err), exitFailed)
	}
	ch.last = reply
	ch.print(reply)
	return false, nil
}

// chatCommands are the / commands of the chat shell.
var chatCommands = []string{"/cancel", "/exit", "/help", "/no", "/quit", "/reset", "/set", "/start", "/state", "/yes"}

// chatHelp is what /help prints.
const chatHelp = `Type a message to talk to the flows, or a command:
  /start FLOW       start a flow
  /set SLOT=VALUE   set a slot
  /cancel           cancel the flow on top
  /yes, /no         answer a confirmation
  /state            show the stack, the slots and the pending question
  /reset            delete this session's checkpoint and start afresh
  /help             this list
  /quit             leave (the conversation is saved after every turn)
A button's payload, /SetSlots(slot=value) or /intent{"slot": "value"}, is
sent as a message, as a click would send it.
`

// flowNames returns the names of the project's flows (not soni's default
// patterns), sorted.
func (ch *chat) flowNames() []string {
	var names []string
	for _, f := range ch.eng.Program().Flows {
		if !f.Builtin {
			names = append(names, f.Name)
		}
	}
	slices.Sort(names)
	return names
}

// projectFlow reports whether the project defines a flow of this name.
func (ch *chat) projectFlow(name string) bool {
	f := ch.eng.Program().Flow(name)
	return f != nil && !f.Builtin
}

// banner tells, on stderr, which project is loaded, the flows a message can
// start, that /help exists, and the actions that nothing can run.
func (ch *chat) banner() {
	prog := ch.eng.Program()
	var startable []string
	for _, f := range prog.Flows {
		if len(f.Triggers) > 0 {
			startable = append(startable, f.Name)
		}
	}
	slices.Sort(startable)
	list := "none: use /start FLOW"
	if len(startable) > 0 {
		list = strings.Join(startable, ", ")
	}
	fmt.Fprintf(ch.e.stderr, "soni chat: %s, session %q; flows a message can start: %s. Type /help for commands.\n", ch.project, ch.session, list)
	if missing := actionsWithoutRunner(prog); len(missing) > 0 {
		fmt.Fprintf(ch.e.stderr, "note: no runner for action %s: a step that calls it fails (its on_error runs); declare run: exec or http for it (docs/actions.md)\n",
			strings.Join(missing, ", "))
	}
	if missing := validatorsWithoutRunner(prog); len(missing) > 0 {
		fmt.Fprintf(ch.e.stderr, "note: no runner for validator %s: no answer to a question that uses it is accepted; declare it under validators with run: exec or http (docs/language.md, named validators)\n",
			strings.Join(missing, ", "))
	}
}

// validatorsWithoutRunner lists, sorted and quoted, the named validators
// the collect steps use that no declaration runs.
func validatorsWithoutRunner(prog *ir.Program) []string {
	seen := map[string]bool{}
	for _, f := range prog.Flows {
		for _, n := range f.Nodes {
			if n.Validator == nil || n.Validator.Name == "" || seen[n.Validator.Name] {
				continue
			}
			if v := prog.Validator(n.Validator.Name); v == nil || v.Run == nil {
				seen[n.Validator.Name] = true
			}
		}
	}
	var out []string
	for _, name := range slices.Sorted(maps.Keys(seen)) {
		out = append(out, strconv.Quote(name))
	}
	return out
}

// actionsWithoutRunner lists, sorted and quoted, the actions the flows call
// that neither a run: block nor anything else in the CLI can run.
func actionsWithoutRunner(prog *ir.Program) []string {
	seen := map[string]bool{}
	for _, f := range prog.Flows {
		for _, n := range f.Nodes {
			name := n.AskAction
			if n.Kind == ir.KindAction {
				name = n.Action
				if ir.IsBuiltinAction(name) && prog.Action(name) == nil {
					continue // the VM runs it (action_cancel_flow...)
				}
			}
			if name == "" || seen[name] {
				continue
			}
			if a := prog.Action(name); a == nil || a.Run == nil {
				seen[name] = true
			}
		}
	}
	var out []string
	for _, name := range slices.Sorted(maps.Keys(seen)) {
		out = append(out, strconv.Quote(name))
	}
	return out
}

// setLast records a loaded or reset state as the last one.
func (ch *chat) setLast(st *vm.State, rev uint64) {
	ch.last = &soni.Reply{Result: &vm.Result{State: st, Pending: st.Pending}, Session: ch.session, Revision: rev}
}

// checkSlot returns a note for /set of a slot that the conversation cannot
// set now (neither a conversation slot nor a slot of the flow on top), or ""
// when it can. A typo in /set must not end the chat.
func (ch *chat) checkSlot(name string) string {
	st := ch.last.State
	prog := ch.eng.Program()
	top := ""
	if n := len(st.Stack); n > 0 {
		top = st.Stack[n-1].Flow
	}
	if prog.ResolveSlot(top, name) != nil {
		return ""
	}
	var names []string
	for _, s := range prog.Slots {
		names = append(names, s.Name)
	}
	scope := "the conversation slots"
	if f := prog.Flow(top); f != nil {
		scope = fmt.Sprintf("the slots of flow %q and of the conversation", top)
		for _, s := range f.Slots {
			names = append(names, s.Name)
		}
	} else {
		scope = "no flow is active; " + scope
	}
	sort.Strings(names)
	msg := fmt.Sprintf("/set: unknown slot %q", name)
	if s := suggest.Closest(name, names); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	if len(names) == 0 {
		return fmt.Sprintf("%s: %s: there are none", msg, scope)
	}
	return fmt.Sprintf("%s: %s are %s", msg, scope, strings.Join(names, ", "))
}

// note tells the user why a line was not run as a turn; under --json it
// is also the "error" of the line's object.
func (ch *chat) note(format string, args ...any) {
	ch.problem = fmt.Sprintf(format, args...)
	fmt.Fprintln(ch.e.stderr, ch.problem)
}

// turnJSON is the --json form of a turn: one object per line.
type turnJSON struct {
	Session  string         `json:"session"`
	Revision uint64         `json:"revision"`
	Replies  []string       `json:"replies"`
	Messages []vm.Utterance `json:"messages,omitempty"`
	Pending  *vm.Pending    `json:"pending"`
	Slots    map[string]any `json:"slots"`
	Events   []vm.Event     `json:"events"`
	Stack    []string       `json:"stack"`
	Trace    []string       `json:"trace,omitempty"`
	// Warnings are the runners' warnings of the turn (an action's
	// undeclared output, a validator that failed).
	Warnings []string `json:"warnings,omitempty"`
	// Error is set for a turn that failed at run time; the rest is the
	// state of the last good turn, which is what the checkpoint holds.
	Error string `json:"error,omitempty"`
}

// turnJSONOf is the --json object of a reply, with the trace when asked.
func turnJSONOf(r *soni.Reply, trace bool) turnJSON {
	t := turnJSON{Session: r.Session, Revision: r.Revision, Replies: r.Replies, Messages: r.Messages, Pending: r.Pending, Slots: r.Slots(), Events: r.Events, Stack: []string{}}
	if t.Replies == nil {
		t.Replies = []string{}
	}
	if t.Events == nil {
		t.Events = []vm.Event{}
	}
	for _, f := range r.State.Stack {
		t.Stack = append(t.Stack, f.Flow)
	}
	if trace {
		t.Trace = r.Trace
	}
	t.Warnings = r.Warnings
	return t
}

func (ch *chat) print(r *soni.Reply) {
	if ch.json {
		ch.writeJSON(turnJSONOf(r, ch.trace))
		return
	}
	if ch.trace {
		// The trace names every command the turn applied, in order; it
		// holds the warnings too.
		for _, l := range r.Trace {
			fmt.Fprintf(ch.e.stderr, "trace: %s\n", l)
		}
	} else {
		for _, w := range r.Warnings {
			fmt.Fprintf(ch.e.stderr, "warning: %s\n", w)
		}
		// A failed action changes what the bot says ("I couldn't find a
		// flight" reads as "no flights"): say so, briefly, without the
		// trace.
		for _, ev := range r.Events {
			if ev.Type == vm.EventActionFailed {
				fmt.Fprintf(ch.e.stderr, "action %s failed: %s (see --trace)\n", ev.Action, actions.Brief(ev.Error))
			}
		}
	}
	for i, line := range r.Replies {
		fmt.Fprintln(ch.e.stdout, line)
		// A response's buttons: type the title or the payload.
		for _, b := range r.Message(i).Buttons {
			fmt.Fprintf(ch.e.stdout, "  [%s] %s\n", b.Title, b.Payload)
		}
	}
}

// writeJSON prints v as one line of JSON. Replies are text for people, so
// "&", "<" and ">" stay as they are rather than \u0026 and the like.
func (ch *chat) writeJSON(v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(ch.e.stderr, "soni: %s\n", err)
		return
	}
	_, _ = ch.e.stdout.Write(b.Bytes())
	ch.wrote = true
}

// printState shows the state after the last turn.
func (ch *chat) printState() {
	st, rev := ch.last.State, ch.last.Revision
	if ch.json {
		// One JSON object per line, like a turn, so that --json output
		// stays machine-readable: no replies and no events.
		ch.writeLast("")
		return
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
}

// writeLast prints the state after the last turn as a --json turn object
// with no replies and no events, and errMsg as its "error": the object of a
// line that ran no turn, or whose turn failed and was not saved.
func (ch *chat) writeLast(errMsg string) {
	r := &soni.Reply{Result: &vm.Result{State: ch.last.State, Pending: ch.last.State.Pending}, Session: ch.session, Revision: ch.last.Revision}
	t := turnJSONOf(r, false)
	t.Error = errMsg
	ch.writeJSON(t)
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

// lineSource reads plain lines in a goroutine, one at a time and only when
// asked, so that chat can wait for input and for Ctrl-C or SIGTERM at once.
// Without it, a signal that comes while chat waits for a line (a terminal
// on stdin with stdout piped, or a producer that keeps the pipe open) would
// be noticed only after the next line. Nothing is read ahead of the turns.
type lineSource struct {
	req     chan struct{}
	results chan lineResult
}

type lineResult struct {
	line string
	err  error
}

// readLines starts the goroutine that reads from in on request.
func readLines(in lineReader) *lineSource {
	s := &lineSource{req: make(chan struct{}), results: make(chan lineResult, 1)}
	go func() {
		for range s.req {
			line, err := in.ReadLine()
			s.results <- lineResult{line, err}
		}
	}()
	return s
}

// read returns the next line, or errInterrupted when ctx is done first. A
// nil source reads from in directly.
func (s *lineSource) read(ctx context.Context, in lineReader) (string, error) {
	if s == nil {
		return in.ReadLine()
	}
	s.req <- struct{}{}
	select {
	case r := <-s.results:
		return r.line, r.err
	case <-ctx.Done():
		return "", errInterrupted
	}
}

// stop ends the goroutine once its current read, if any, returns.
func (s *lineSource) stop() { close(s.req) }

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

// historyFile is where the line editor keeps its history: .soni/history for
// the default checkpoint directories, else a .history file inside the
// checkpoint directory given, so that --checkpoints never writes outside
// the directory it names.
func historyFile(checkpointsDir string, given bool) string {
	if !given {
		return filepath.Join(".soni", "history")
	}
	return filepath.Join(filepath.Clean(checkpointsDir), ".history")
}

// defaultCheckpoints is the checkpoint directory of a project when
// --checkpoints is not given: .soni/checkpoints/NAME, NAME being the
// project directory's name (a one-file project's or a compiled program's
// file name without extension), so that two projects chatted with from
// one directory never share a conversation.
func defaultCheckpoints(path string) string {
	return filepath.Join(".soni", "checkpoints", projectKey(path))
}

// projectKey names a project for its checkpoint directory: letters,
// digits, ".", "_" and "-" of its directory or file name, else "project".
func projectKey(path string) string {
	name := ""
	if abs, err := filepath.Abs(path); err == nil {
		if info, err := os.Stat(abs); err == nil && !info.IsDir() {
			name = strings.TrimSuffix(filepath.Base(abs), filepath.Ext(abs))
		} else {
			name = filepath.Base(abs)
		}
	}
	key := strings.Map(func(r rune) rune {
		if r < 0x80 && (r == '.' || r == '_' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return r
		}
		return '_'
	}, name)
	if strings.Trim(key, "._") == "" {
		return "project"
	}
	return key
}
