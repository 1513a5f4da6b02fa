package main

import (
	"fmt"
	"path/filepath"

	"github.com/soni-dev/soni/cmd/soni/internal/scaffold"
	"github.com/urfave/cli/v2"
)

func initCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "init",
		Usage:     "create a new project to grow from: a flow with an action, a conversation test, an eval file and CI",
		ArgsUsage: "DIR",
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError("init: give one DIR, the directory of the new project (new or empty)")
			}
			dir := c.Args().First()
			name := filepath.Base(dir)
			if abs, err := filepath.Abs(dir); err == nil {
				name = filepath.Base(abs)
			}
			files, err := scaffold.Create(dir, name)
			if err != nil {
				return usageError("init: %s", err)
			}
			fmt.Fprintf(e.stdout, "created %s:\n", dir)
			for _, f := range files {
				fmt.Fprintf(e.stdout, "  %s\n", f)
			}
			fmt.Fprintf(e.stdout, "next:\n  cd %s\n  soni chat flows      # say \"I want a coffee\"\n  soni test flows\n", dir)
			return nil
		},
	}
}
