package main

import (
	"fmt"
	"os"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/ir"
	"github.com/urfave/cli/v2"
)

func compileCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "compile",
		Usage:     "write the compiled program (the IR graph) as deterministic JSON",
		ArgsUsage: "PATH",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` instead of stdout"},
		}, limitFlags()...),
		Action: func(c *cli.Context) error {
			path, err := oneProject(c)
			if err != nil {
				return err
			}
			prog, err := compileProject(e, c, path)
			if err != nil {
				return err
			}
			b, err := ir.Encode(prog)
			if err != nil {
				return cli.Exit(err.Error(), exitFailed)
			}
			if out := c.String("output"); out != "" {
				if err := os.WriteFile(out, b, 0o644); err != nil {
					return cli.Exit(fmt.Sprintf("compile: cannot write %q: %s", out, errText(err)), exitUsage)
				}
				return nil
			}
			_, err = e.stdout.Write(b)
			return err
		},
	}
}

// compileProject compiles a project, printing its diagnostics to stderr.
// Warnings are printed and do not stop it; errors exit 1.
func compileProject(e *env, c *cli.Context, path string) (*ir.Program, error) {
	r := compiler.Compile(path, compilerOptions(c))
	if len(r.Diags) > 0 {
		printDiags(e, r)
	}
	if r.Program == nil {
		if readFailure(r.Diags) {
			return nil, cli.Exit("", exitUsage)
		}
		return nil, cli.Exit("", exitFailed)
	}
	return r.Program, nil
}
