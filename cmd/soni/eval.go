package main

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"sync"

	"github.com/soni-dev/soni/understand/llm/replay"
	"github.com/soni-dev/soni/vm"

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
			&cli.BoolFlag{Name: "oracle", Usage: "answer every model request with the case's labelled commands (with --understanding llm or hybrid; llm by default): the ceiling of the routing and of the model path"},
		}, understandingFlags()...),
		Action: func(c *cli.Context) (err error) {
			if c.NArg() == 0 {
				return usageError("eval: missing FILE (an eval file, see docs/understanding.md)")
			}
			format := c.String("format")
			if format != "text" && format != "json" {
				return usageError("eval: unknown format %q: use text or json", format)
			}
			var oracle *evalOracle
			var over llm.Overrides
			if c.Bool("oracle") {
				if c.IsSet("llm-url") || c.IsSet("llm-fixtures") {
					return usageError("eval: --oracle is the model: give no --llm-url or --llm-fixtures")
				}
				oracle = newEvalOracle()
				defer oracle.close()
				over = llm.Overrides{Mode: c.String("understanding"), BaseURL: oracle.url, Model: "oracle"}
				if over.Mode == "" {
					over.Mode = "llm"
				}
				if over.Mode == "rules" {
					return usageError("eval: --oracle answers model requests: use --understanding llm or hybrid")
				}
			} else {
				var finish func(error) error
				over, finish, err = llmOverrides(e, c)
				if err != nil {
					return err
				}
				defer func() { err = finish(err) }()
			}
			now, err := nowOf(c)
			if err != nil {
				return err
			}
			minAcc := c.Float64("min-accuracy")
			failed := false
			var results []*eval.Result
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
				var hooks eval.Hooks
				if oracle != nil {
					hooks.BeforeCase = oracle.set
				}
				r, err := eval.RunWith(c.Context, path, f, prog, dir, u, hooks)
				if err != nil {
					return cli.Exit(fmt.Sprintf("eval: %s: %s", path, err), exitUsage)
				}
				results = append(results, r)
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
			if len(results) > 1 {
				// Several files: their sum, the model's share and the
				// prompt size over all of them.
				o := eval.Overall(results)
				if format == "json" {
					b, _ := json.Marshal(o)
					fmt.Fprintln(e.stdout, string(b))
				} else {
					eval.WriteText(e.stdout, o)
				}
			}
			if failed {
				return cli.Exit("", exitFailed)
			}
			return nil
		},
	}
}

// evalOracle is a model that answers with the labelled commands of the
// case being measured, through the whole model path (prompt, request,
// parsing, validation): soni eval --oracle.
type evalOracle struct {
	mu     sync.Mutex
	answer string
	ts     *httptest.Server
	url    string
}

func newEvalOracle() *evalOracle {
	o := &evalOracle{}
	fake := &replay.Server{Respond: func(replay.Request, int) (int, string) {
		o.mu.Lock()
		defer o.mu.Unlock()
		b, _ := json.Marshal(map[string]any{
			"object":  "chat.completion",
			"choices": []any{map[string]any{"index": 0, "message": map[string]string{"role": "assistant", "content": o.answer}, "finish_reason": "stop"}},
		})
		return 200, string(b)
	}}
	o.ts = httptest.NewServer(fake)
	o.url = o.ts.URL + "/v1"
	return o
}

func (o *evalOracle) set(_ eval.Case, want []vm.Command) {
	o.mu.Lock()
	o.answer = llm.FormatCommands(want)
	o.mu.Unlock()
}

func (o *evalOracle) close() { o.ts.Close() }
