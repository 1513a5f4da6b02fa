package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

func dbCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "db",
		Usage: "manage the tables of a database store",
		Subcommands: []*cli.Command{{
			Name:  "migrate",
			Usage: "bring a sqlite or postgres store's tables to this soni's schema, once (safe while replicas serve)",
			Description: "Every soni that writes to a database store migrates its tables itself when they are behind,\n" +
				"once, under a lock. Operators who migrate before a deploy run this first; read-only commands\n" +
				"(soni sessions list, soni log) never change the tables and ask for it.",
			Flags: []cli.Flag{&cli.StringFlag{Name: "store", Required: true, Usage: "the database store `URL`: sqlite:PATH or postgres://..."}},
			Action: func(c *cli.Context) error {
				if c.NArg() != 0 {
					return usageError("db migrate: takes no arguments, got %d: give the store with --store URL", c.NArg())
				}
				url := c.String("store")
				from, to, err := migrateStore(c.Context, url)
				if err != nil {
					return cli.Exit(fmt.Sprintf("db migrate: %s", err), exitFailed)
				}
				if from == to {
					fmt.Fprintf(e.stdout, "the schema of %s is at version %d, this soni's: nothing to do\n", redactURL(url), to)
					return nil
				}
				fmt.Fprintf(e.stdout, "migrated %s from schema version %d to %d\n", redactURL(url), from, to)
				return nil
			},
		}},
	}
}
