package main

import (
	"fmt"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/understand/llm"
	"github.com/soni-dev/soni/vm"
	"github.com/urfave/cli/v2"
)

// understandingFlags are the flags that choose how messages become
// commands (docs/understanding.md).
func understandingFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "understanding", Usage: "rules, llm or hybrid (default: the project's, else SONI_UNDERSTANDING, else rules)"},
		&cli.StringFlag{Name: "llm-url", Usage: "the model's OpenAI-compatible base `URL` (else SONI_LLM_BASE_URL, else the project's)"},
		&cli.StringFlag{Name: "llm-model", Usage: "the model's `NAME` (else SONI_LLM_MODEL, else the project's)"},
	}
}

// understanderFor builds the understanding layer of a command.
func understanderFor(c *cli.Context, prog *ir.Program, dir string) (vm.Understander, error) {
	u, _, err := llm.Select(prog, dir, llm.Overrides{Mode: c.String("understanding"), BaseURL: c.String("llm-url"), Model: c.String("llm-model")}, nil)
	if err != nil {
		return nil, cli.Exit(fmt.Sprintf("%s: %s", c.Command.Name, err), exitUsage)
	}
	return u, nil
}
