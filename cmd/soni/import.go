package main

import (
	"errors"
	"fmt"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/rasaimport"
	"github.com/urfave/cli/v2"
)

func importCommand(e *env) *cli.Command {
	rasa := &cli.Command{
		Name:      "rasa",
		Usage:     "translate a Rasa CALM assistant (flows, domain, e2e tests) into a soni project",
		ArgsUsage: "SRC",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the soni project into `DIR` (created if needed)"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "what to print: text, or json (the migration report)"},
			&cli.BoolFlag{Name: "force", Usage: "overwrite the files the last import wrote even if they were edited since"},
			&cli.StringSliceFlag{Name: "tests", Usage: "import the Rasa e2e tests in `DIR` (a directory or a file, inside the project or not; repeatable), as given to rasa test e2e; by default e2e_tests/, tests/ and e2e/ of the project"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError("import rasa: give the Rasa project's directory: soni import rasa SRC -o DIR")
			}
			dst := c.String("output")
			if dst == "" {
				return usageError("import rasa: give the output directory with -o DIR")
			}
			format := c.String("format")
			if format != "text" && format != "json" {
				return usageError("import rasa: --format must be text or json, not %q", format)
			}
			rep, err := rasaimport.Import(c.Args().First(), dst, rasaimport.Options{Force: c.Bool("force"), Tests: c.StringSlice("tests")})
			if err != nil {
				var rerr *rasaimport.ReadError
				if errors.As(err, &rerr) {
					return cli.Exit("import rasa: "+err.Error(), exitUsage)
				}
				return cli.Exit("import rasa: "+err.Error(), exitFailed)
			}
			if format == "json" {
				if _, err := e.stdout.Write(rep.JSON()); err != nil {
					return err
				}
				return importCheckFailed(e, rep, dst, false)
			}
			fmt.Fprintf(e.stdout, "imported %s into %s: %s\n", rep.Source, dst, rep.Line())
			counts := map[string]int{}
			for _, f := range rep.Files {
				counts[f.Action]++
				if f.Action != "unchanged" {
					fmt.Fprintf(e.stdout, "  %-11s %s\n", f.Action, f.Path)
				}
			}
			if counts["unchanged"] > 0 {
				fmt.Fprintf(e.stdout, "  %d files unchanged\n", counts["unchanged"])
			}
			if counts["kept"] > 0 {
				fmt.Fprintf(e.stdout, "%d files edited since the last import were kept; --force overwrites them\n", counts["kept"])
			}
			if counts["skipped"] > 0 {
				fmt.Fprintf(e.stdout, "%d files the importer did not write were left alone\n", counts["skipped"])
			}
			fmt.Fprintf(e.stdout, "%s/IMPORT.md lists %s, each with its place in the Rasa project and a fix\n", dst, rep.ItemsLine())
			if rep.Check != nil {
				fmt.Fprintf(e.stdout, "%s\n", rep.Check.Line())
			}
			return importCheckFailed(e, rep, dst, true)
		},
	}
	rasa.OnUsageError = func(c *cli.Context, err error, isSubcommand bool) error {
		return usageError("import rasa: %s; run 'soni import rasa -h' for usage", flagErrorText(err, rasa.Flags))
	}
	return &cli.Command{
		Name:        "import",
		Usage:       "translate a project of another tool into a soni project",
		ArgsUsage:   "rasa SRC -o DIR",
		Subcommands: []*cli.Command{rasa},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageError("import: soni imports from rasa, not %q: soni import rasa SRC -o DIR", c.Args().First())
			}
			return usageError("import: say what to import from: soni import rasa SRC -o DIR")
		},
	}
}

// importCheckFailed reports the errors the compiler found in the written
// project (with their source lines when print is set) and fails the
// command; the files stay where they were written, for a person to look
// at and fix.
func importCheckFailed(e *env, rep *rasaimport.Report, dst string, print bool) error {
	c := rep.Check
	if c == nil || c.Errors == 0 {
		return nil
	}
	if print && c.Result != nil {
		var errs diag.List
		for _, d := range c.Result.Diags {
			if d.Severity == diag.Error {
				errs = append(errs, d)
			}
		}
		_ = diag.WriteText(e.stderr, errs, sourcesOf(c.Result), diag.TextOptions{Color: e.color()})
	}
	noun := "errors"
	if c.Errors == 1 {
		noun = "error"
	}
	return cli.Exit(fmt.Sprintf("import rasa: the soni project written to %s does not compile (%d %s, listed in %s/IMPORT.md): the files are left there for you to look at; fix them and run soni validate %s", dst, c.Errors, noun, dst, dst), exitFailed)
}
