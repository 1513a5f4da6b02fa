package main

import (
	"io"

	"github.com/soni-dev/soni/lsp"
	"github.com/urfave/cli/v2"
)

func lspCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "lsp",
		Usage: "run the language server for editors, on stdin and stdout",
		Description: "soni lsp speaks the Language Server Protocol on standard input and output. An editor starts it\n" +
			"and gets, for the project each open file belongs to, the diagnostics of soni validate as you type,\n" +
			"completion, hovers, definitions, references, rename, quick fixes, symbols and formatting.\n" +
			"See docs/editors.md.",
		Flags: limitFlags(),
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageError("lsp: takes no arguments")
			}
			return lsp.New(compilerOptions(c), version).Serve(c.Context, stdio{e.stdin, e.stdout})
		},
	}
}

// stdio joins the command's standard input and output into the stream the
// server speaks on.
type stdio struct {
	io.Reader
	io.Writer
}

// Close ends nothing: the process's streams close when it exits.
func (stdio) Close() error { return nil }
