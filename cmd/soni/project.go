package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/ir"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/diag"
	"github.com/urfave/cli/v2"
)

// limitFlags are the compiler limits every project-reading command takes.
func limitFlags() []cli.Flag {
	return []cli.Flag{
		&cli.Int64Flag{Name: "max-file-size", Value: compiler.DefaultMaxFileSize, Usage: "largest flow file read, in bytes"},
	}
}

func compilerOptions(c *cli.Context) compiler.Options {
	return compiler.Options{MaxFileSize: c.Int64("max-file-size")}
}

// oneProject returns the single PATH argument of a command, failing with a
// usage error when it is missing, repeated or unreadable.
func oneProject(c *cli.Context) (string, error) {
	switch c.NArg() {
	case 0:
		return "", usageError("%s: missing PATH (a flow file or a project directory)", c.Command.Name)
	case 1:
	default:
		return "", usageError("%s: takes one PATH, got %d", c.Command.Name, c.NArg())
	}
	path := c.Args().First()
	if _, err := os.Stat(path); err != nil {
		return "", cli.Exit(fmt.Sprintf("cannot read %q: %s", path, errText(err)), exitUsage)
	}
	return path, nil
}

func errText(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

// printDiags writes diagnostics as text to w, with source snippets.
func printDiags(e *env, r *compiler.Result) {
	_ = diag.WriteText(e.stderr, r.Diags, sourcesOf(r), diag.TextOptions{Color: isTerminal(e.stderr) && e.color()})
}

func sourcesOf(rs ...*compiler.Result) diag.SourceMap {
	m := diag.SourceMap{}
	for _, r := range rs {
		for _, f := range r.Files {
			m[f.Path] = f.Src
		}
	}
	return m
}

// readFailure reports whether diagnostics say an input could not be read,
// which exits 2 rather than 1.
func readFailure(l diag.List) bool {
	for _, d := range l {
		if d.Code == diag.CodeFileRead {
			return true
		}
	}
	return false
}

// loadProgram loads PATH as a compiled program (a file written by soni
// compile, see ir.IsProgramFile) or compiles it as a YAML project; brief
// sums a project's warnings up in one line (see compileProject).
func loadProgram(e *env, c *cli.Context, path string, brief bool) (*ir.Program, error) {
	if ir.IsProgramFile(path) {
		// The embedding API's loader: the guarded reader and its size cap.
		p, err := soni.LoadProgram(path, compilerOptions(c))
		var pe *fs.PathError
		switch {
		case errors.As(err, &pe):
			return nil, cli.Exit(fmt.Sprintf("cannot read %q: %s", path, errText(pe)), exitUsage)
		case err != nil:
			return nil, cli.Exit(err.Error(), exitUsage) // it names the path
		}
		return p, nil
	}
	return compileProject(e, c, path, brief)
}
