package main

import (
	"errors"
	"fmt"

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
			rep, err := rasaimport.Import(c.Args().First(), dst, rasaimport.Options{Force: c.Bool("force")})
			if err != nil {
				var rerr *rasaimport.ReadError
				if errors.As(err, &rerr) {
					return cli.Exit("import rasa: "+err.Error(), exitUsage)
				}
				return cli.Exit("import rasa: "+err.Error(), exitFailed)
			}
			if format == "json" {
				_, err := e.stdout.Write(rep.JSON())
				return err
			}
			s := rep.Summary
			fmt.Fprintf(e.stdout, "imported %s into %s: %d flows, %d pattern overrides, %d of %d steps, %d of %d responses, %d custom actions, %d test files (%d cases) converted as they were\n",
				rep.Source, dst, s.Flows.Total, s.Patterns.Total, s.Steps.Converted, s.Steps.Total, s.Responses.Converted, s.Responses.Total,
				s.Actions.Total, s.TestFiles.Total, s.TestCases.Total)
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
			manual := 0
			for _, it := range rep.Items {
				if it.Status == rasaimport.StatusManual {
					manual++
				}
			}
			fmt.Fprintf(e.stdout, "%s/IMPORT.md lists %d items, %d of which need a person, each with its place in the Rasa project and a fix\n", dst, len(rep.Items), manual)
			return nil
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
