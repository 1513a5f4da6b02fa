package main

import (
	"fmt"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/diag"
	"github.com/urfave/cli/v2"
)

func validateCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "validate",
		Usage:     "check projects and print every problem",
		ArgsUsage: "PATH...",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output format: text, json, github or sarif"},
			&cli.BoolFlag{Name: "strict", Usage: "fail on warnings too"},
		}, limitFlags()...),
		Action: func(c *cli.Context) error {
			format := c.String("format")
			switch format {
			case "text", "json", "github", "sarif":
			default:
				return usageError("validate: unknown format %q: use text, json, github or sarif", format)
			}
			if c.NArg() == 0 {
				return usageError("validate: missing PATH (a flow file or a project directory)")
			}
			var all diag.List
			var results []*compiler.Result
			for _, arg := range c.Args().Slice() {
				// A directory of projects (flows/ holding banking/ and
				// travel/) is checked project by project, as soni test
				// runs each test file against its own project.
				for _, path := range compiler.SplitProjects(arg, compilerOptions(c)) {
					r := compiler.Compile(path, compilerOptions(c))
					results = append(results, r)
					all = append(all, r.Diags...)
				}
			}
			all.Sort()
			var err error
			switch format {
			case "text":
				err = diag.WriteText(e.stdout, all, sourcesOf(results...), diag.TextOptions{Color: e.color()})
			case "json":
				err = diag.WriteJSON(e.stdout, all)
			case "github":
				err = diag.WriteGitHub(e.stdout, all)
			case "sarif":
				err = diag.WriteSARIF(e.stdout, all, diag.ToolInfo{Name: "soni", Version: version, InformationURI: "https://github.com/soni-dev/soni"})
			}
			if err != nil {
				return cli.Exit(fmt.Sprintf("validate: %s", err), exitUsage)
			}
			errs, warns := all.Count()
			switch {
			case readFailure(all):
				return cli.Exit("", exitUsage)
			case errs > 0, c.Bool("strict") && warns > 0:
				return cli.Exit("", exitFailed)
			}
			return nil
		},
	}
}
