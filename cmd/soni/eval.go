package main

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"slices"
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
			&cli.Uint64Flag{Name: "oracle-noise", Usage: "with --oracle: write each answer with the noise of a small model (prose, code fences, names in another case, units, ...), chosen per case by a generator seeded with `SEED`; prints the accuracy per kind of noise", DefaultText: "off"},
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
			if c.IsSet("oracle-noise") && !c.Bool("oracle") {
				return usageError("eval: --oracle-noise adds noise to the oracle's answers: give --oracle too")
			}
			if c.Bool("oracle") {
				if c.IsSet("llm-url") || c.IsSet("llm-fixtures") {
					return usageError("eval: --oracle is the model: give no --llm-url or --llm-fixtures")
				}
				oracle = newEvalOracle()
				if c.IsSet("oracle-noise") {
					oracle.noisy, oracle.seed = true, c.Uint64("oracle-noise")
				}
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
			noiseAll := map[string]eval.Kind{}
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
					hooks.BeforeCaseIn = oracle.set
					oracle.kinds = nil
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
				if oracle != nil && oracle.noisy {
					byNoise := oracle.count(r, noiseAll)
					if format == "text" {
						writeNoise(e, byNoise)
					}
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
					if oracle != nil && oracle.noisy {
						writeNoise(e, noiseAll)
					}
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
	// noisy: each answer gets a small model's noise (eval.NoisyAnswer),
	// seeded with seed; kinds are the kinds each case got, in order.
	noisy bool
	seed  uint64
	kinds [][]string
	ts    *httptest.Server
	url   string
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

func (o *evalOracle) set(i int, c eval.Case, want []vm.Command, v vm.View) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.noisy {
		o.answer = llm.FormatCommands(want)
		return
	}
	var kinds []string
	o.answer, kinds = eval.NoisyAnswer(o.seed, i, c, want, v)
	o.kinds = append(o.kinds, kinds)
}

// count adds up, per kind of noise, the cases of r that got it and those
// of them that were right, into a file's map and into all.
func (o *evalOracle) count(r *eval.Result, all map[string]eval.Kind) map[string]eval.Kind {
	m := map[string]eval.Kind{}
	for i, cr := range r.Cases {
		if i >= len(o.kinds) {
			break
		}
		kinds := o.kinds[i]
		if len(kinds) == 0 {
			kinds = []string{"none"}
		}
		for _, k := range kinds {
			for _, mm := range []map[string]eval.Kind{m, all} {
				kk := mm[k]
				kk.Total++
				if cr.OK {
					kk.Correct++
				}
				mm[k] = kk
			}
		}
	}
	return m
}

// writeNoise prints the accuracy per kind of noise, in NoiseKinds' order.
func writeNoise(e *env, m map[string]eval.Kind) {
	fmt.Fprintf(e.stdout, "  by kind of noise (a case counts for each kind it got):\n")
	for _, k := range append(slices.Clone(eval.NoiseKinds), "none") {
		v, ok := m[k]
		if !ok {
			continue
		}
		fmt.Fprintf(e.stdout, "    %-16s %5.1f%% (%d/%d)\n", k, 100*float64(v.Correct)/float64(v.Total), v.Correct, v.Total)
	}
}

func (o *evalOracle) close() { o.ts.Close() }
