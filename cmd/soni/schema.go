package main

import (
	"github.com/soni-dev/soni/schema"
	"github.com/urfave/cli/v2"
)

func schemaCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "schema",
		Usage: "print the JSON Schema of flow files, for editors and other tools",
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageError("schema: takes no arguments")
			}
			_, err := e.stdout.Write(schema.JSON())
			return err
		},
	}
}
