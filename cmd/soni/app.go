package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/soni-dev/soni/internal/suggest"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"
)

// Exit statuses, as cli.md fixes them.
const (
	exitOK     = 0
	exitFailed = 1
	exitUsage  = 2
)

// version is the soni version, set at build time with -ldflags.
var version = "0.1.0-dev"

// usageError marks a bad invocation (exit 2).
func usageError(format string, args ...any) error {
	return cli.Exit(fmt.Sprintf(format, args...), exitUsage)
}

// signalContext is cancelled by SIGINT or SIGTERM.
func signalContext() context.Context {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		// The first signal cancels the context, which every command
		// watches; the default handling comes back at once, so that a
		// second Ctrl-C or SIGTERM ends the process even if something
		// failed to stop.
		<-ctx.Done()
		stop()
	}()
	return ctx
}

// env is what a command sees of the process: its streams and whether
// stdout is a terminal.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

func (e *env) color() bool {
	if _, ok := os.LookupEnv("NO_COLOR"); ok {
		return false
	}
	return isTerminal(e.stdout)
}

// isTerminal reports whether w is a terminal. A character device is not
// enough: /dev/null is one too, and "soni chat P > /dev/null" must not
// switch the terminal to the line editor or print colour.
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// run is the whole CLI: it parses args, runs the command and returns the
// exit status. It never calls os.Exit, so tests can drive it.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	app := newApp(e)
	notFound := false
	app.CommandNotFound = func(c *cli.Context, name string) {
		notFound = true
		hint := ""
		if s := suggest.Closest(name, commandNames(c.App)); s != "" {
			hint = fmt.Sprintf(" (did you mean %q?)", s)
		}
		fmt.Fprintf(stderr, "soni: unknown command %q%s; run 'soni help' for the list\n", name, hint)
	}
	err := app.RunContext(ctx, reorderArgs(app, args))
	if notFound {
		return exitUsage
	}
	if err == nil {
		return exitOK
	}
	var ec cli.ExitCoder
	if errors.As(err, &ec) {
		if msg := strings.TrimSpace(err.Error()); msg != "" {
			fmt.Fprintln(stderr, "soni:", msg)
		}
		return ec.ExitCode()
	}
	fmt.Fprintln(stderr, "soni:", err)
	return exitUsage
}

// urfave/cli keeps the help flag in a global; it is set once, here, so
// that run may be called from several goroutines (tests do).
func init() {
	cli.HelpFlag = &cli.BoolFlag{Name: "help", Aliases: []string{"h"}, Usage: "show help"}
}

func newApp(e *env) *cli.App {
	commands := []*cli.Command{
		initCommand(e),
		validateCommand(e),
		compileCommand(e),
		graphCommand(e),
		schemaCommand(e),
		chatCommand(e),
		testCommand(e),
		serveCommand(e),
		inspectCommand(e),
		logCommand(e),
		sessionsCommand(e),
		deployCommand(e),
		dbCommand(e),
		benchCommand(e),
		evalCommand(e),
		importCommand(e),
		lspCommand(e),
	}
	for _, cmd := range commands {
		if cmd.OnUsageError == nil {
			cmd.OnUsageError = onUsageError(cmd)
		}
	}
	return &cli.App{
		Name:            "soni",
		Usage:           "compile, check, run and test declarative dialogue flows",
		Version:         version,
		Reader:          e.stdin,
		Writer:          e.stdout,
		ErrWriter:       e.stderr,
		HideHelpCommand: false,
		Suggest:         true,
		ExitErrHandler:  func(*cli.Context, error) {},
		OnUsageError: func(c *cli.Context, err error, isSubcommand bool) error {
			return usageError("%s; run 'soni -h' for usage", flagErrorText(err, c.App.Flags))
		},
		Commands: commands,
	}
}

// onUsageError reports a bad flag of cmd as a usage error on stderr. Without
// it, urfave/cli prints "Incorrect Usage" and the whole help on stdout,
// where a script expects results ("soni compile P --bogus > prog.json").
func onUsageError(cmd *cli.Command) cli.OnUsageErrorFunc {
	return func(c *cli.Context, err error, isSubcommand bool) error {
		return usageError("%s: %s; run 'soni %s -h' for usage", cmd.Name, flagErrorText(err, cmd.Flags), cmd.Name)
	}
}

// Messages of the flag package that name a flag with one dash, whatever
// the user typed.
var (
	reUndefinedFlag = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^flag provided but not defined: -+(.*)$`) })
	reMissingValue  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^flag needs an argument: -+(.*)$`) })
	reOneDashFlag   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|[ (])-([A-Za-z][A-Za-z0-9-]+)`) })
)

// flagErrorText rewrites a flag parsing error in soni's words, naming the
// flag as it is documented (--name, -x) and suggesting a near flag name.
func flagErrorText(err error, flags []cli.Flag) string {
	msg := err.Error()
	if m := reUndefinedFlag().FindStringSubmatch(msg); m != nil {
		var names []string
		for _, f := range flags {
			names = append(names, f.Names()...)
		}
		text := fmt.Sprintf("unknown flag %q", dashed(m[1]))
		if s := suggest.Closest(m[1], names); s != "" {
			text += fmt.Sprintf(" (did you mean %q?)", dashed(s))
		}
		return text
	}
	if m := reMissingValue().FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("flag %q needs a value", dashed(m[1]))
	}
	return reOneDashFlag().ReplaceAllString(msg, "$1--$2")
}

// dashed writes a flag name the way the help does: -x, --name.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

func commandNames(app *cli.App) []string {
	var names []string
	for _, c := range app.Commands {
		names = append(names, c.Names()...)
	}
	return names
}

// reorderArgs moves each command's flags before its positional arguments,
// so "soni compile flows/banking -o prog.json" works as cli.md writes it
// (urfave/cli stops parsing flags at the first positional argument).
func reorderArgs(app *cli.App, args []string) []string {
	if len(args) < 3 {
		return args
	}
	cmd := app.Command(args[1])
	if cmd == nil {
		return args
	}
	fixed := 2 // the program and the command; a subcommand joins them
	if len(cmd.Subcommands) > 0 {
		sub := cmd.Command(args[2])
		if sub == nil {
			return args
		}
		cmd, fixed = sub, 3
	}
	takesValue := map[string]bool{}
	for _, f := range cmd.Flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			takesValue[n] = !isBool
		}
	}
	var flags, pos []string
	rest := args[fixed:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			pos = append(pos, rest[i+1:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' {
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if j := strings.IndexByte(name, '='); j >= 0 {
				continue
			}
			if takesValue[name] {
				if i+1 == len(rest) {
					// The value is missing. Leave the flag last, with no
					// "--" after it to take as its value, so that the
					// parser reports it ("compile P -o" must not write a
					// file named "--").
					return append(slices.Clone(args[:fixed]), flags...)
				}
				flags = append(flags, rest[i+1])
				i++
			}
			continue
		}
		pos = append(pos, a)
	}
	out := append(slices.Clone(args[:fixed]), flags...)
	if len(pos) > 0 {
		out = append(out, "--")
		out = append(out, pos...)
	}
	return out
}
