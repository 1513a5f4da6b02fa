package main

import (
	"encoding/json"
	"fmt"

	"github.com/soni-dev/soni/eval"
	"github.com/soni-dev/soni/understand/llm"
	"github.com/urfave/cli/v2"
)

func evalCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "eval",
		Usage:     "measure how well messages are understood, on a labelled set (FILE.eval.yaml)",
		ArgsUsage: "FILE...",
		Flags: append([]cli.Flag{
			&cli.Float64Flag{Name: "min-accuracy", Usage: "fail when a file's accuracy is below `PERCENT`", DefaultText: "off"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "text or json"},
			llmFixturesFlag(),
			nowFlag(),
		}, understandingFlags()...),
		Action: func(c *cli.Context) (err error) {
			if c.NArg() == 0 {
				return usageError("eval: missing FILE (an eval file, see docs/understanding.md)")
			}
			format := c.String("format")
			if format != "text" && format != "json" {
				return usageError("eval: unknown format %q: use text or json", format)
			}
			over, finish, err := llmOverrides(e, c)
			if err != nil {
				return err
			}
			defer func() { err = finish(err) }()
			now, err := nowOf(c)
			if err != nil {
				return err
			}
			minAcc := c.Float64("min-accuracy")
			failed := false
			for _, path := range c.Args().Slice() {
				f, prog, dir, err := eval.Load(path)
				if err != nil {
					return cli.Exit(fmt.Sprintf("eval: %s", err), exitUsage)
				}
				if !now.IsZero() {
					f.Clock = now
				}
				u, _, err := llm.Select(prog, dir, over, nil)
				if err != nil {
					return cli.Exit(fmt.Sprintf("eval: %s", err), exitUsage)
				}
				r, err := eval.Run(c.Context, path, f, prog, dir, u)
				if err != nil {
					return cli.Exit(fmt.Sprintf("eval: %s: %s", path, err), exitUsage)
				}
				if format == "json" {
					b, _ := json.Marshal(r)
					fmt.Fprintln(e.stdout, string(b))
				} else {
					eval.WriteText(e.stdout, r)
				}
				if c.IsSet("min-accuracy") && 100*r.Accuracy < minAcc {
					fmt.Fprintf(e.stderr, "soni: eval: %s: accuracy %.1f%% is below --min-accuracy %.1f%%\n", path, 100*r.Accuracy, minAcc)
					failed = true
				}
			}
			if failed {
				return cli.Exit("", exitFailed)
			}
			return nil
		},
	}
}
