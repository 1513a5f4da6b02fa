package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"
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
	ctx, _ := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
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

func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// run is the whole CLI: it parses args, runs the command and returns the
// exit status. It never calls os.Exit, so tests can drive it.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	app := newApp(e)
	notFound := false
	app.CommandNotFound = func(c *cli.Context, name string) {
		notFound = true
		fmt.Fprintf(stderr, "soni: unknown command %q; run 'soni help' for the list\n", name)
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

func newApp(e *env) *cli.App {
	cli.HelpFlag = &cli.BoolFlag{Name: "help", Aliases: []string{"h"}, Usage: "show help"}
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
			return usageError("%s", err)
		},
		Commands: []*cli.Command{
			validateCommand(e),
			compileCommand(e),
			graphCommand(e),
			schemaCommand(e),
			chatCommand(e),
			testCommand(e),
		},
	}
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
	takesValue := map[string]bool{}
	for _, f := range cmd.Flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			takesValue[n] = !isBool
		}
	}
	var flags, pos []string
	rest := args[2:]
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
			if takesValue[name] && i+1 < len(rest) {
				flags = append(flags, rest[i+1])
				i++
			}
			continue
		}
		pos = append(pos, a)
	}
	out := append([]string{args[0], args[1]}, flags...)
	if len(pos) > 0 {
		out = append(out, "--")
		out = append(out, pos...)
	}
	return out
}
