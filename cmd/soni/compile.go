package main

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"fmt"
	"os"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/diag"
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
			prog, err := compileProject(e, c, path, false)
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
// Warnings are printed and do not stop it; errors exit 1. With brief, a
// project that has warnings and no error gets one line that counts them
// by code and says how to list them (chat and serve, which start with
// the project's first prompt or request, not with its review).
func compileProject(e *env, c *cli.Context, path string, brief bool) (*ir.Program, error) {
	r := compiler.Compile(path, compilerOptions(c))
	switch {
	case brief && len(r.Diags) > 0 && !r.Diags.HasErrors():
		fmt.Fprintln(e.stderr, warningSummary(r.Diags, path))
	case len(r.Diags) > 0:
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

// warningSummary is the one line that stands for a project's warnings:
// how many, by code (most frequent first), and the command that lists
// them.
func warningSummary(l diag.List, path string) string {
	counts := map[string]int{}
	for _, d := range l {
		counts[d.Code]++
	}
	codes := slices.Collect(maps.Keys(counts))
	slices.SortFunc(codes, func(a, b string) int { return cmp.Or(cmp.Compare(counts[b], counts[a]), cmp.Compare(a, b)) })
	parts := make([]string, len(codes))
	for i, code := range codes {
		parts[i] = fmt.Sprintf("%s ×%d", code, counts[code])
	}
	noun := "warnings"
	if len(l) == 1 {
		noun = "warning"
	}
	return fmt.Sprintf("soni: %d %s (%s): run soni validate %s to list them", len(l), noun, strings.Join(parts, ", "), path)
}
