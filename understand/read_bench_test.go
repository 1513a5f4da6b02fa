package understand_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/soni-dev/soni/actions"
	"github.com/soni-dev/soni/convtest"
	"github.com/soni-dev/soni/eval"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/understand"
	"github.com/soni-dev/soni/vm"
)

// turn is one message the rules read in a real run, with the rules of
// its project and a copy of the view it was read in.
type turn struct {
	rules *understand.Rules
	msg   string
	view  vm.View
}

// recorder is an understanding layer that keeps every message it is
// asked to read, with its view, and reads it by the rules.
type recorder struct {
	rules *understand.Rules
	mu    *sync.Mutex
	turns *[]turn
}

func (u recorder) Understand(ctx context.Context, msg string, v vm.View) ([]vm.Command, error) {
	u.mu.Lock()
	*u.turns = append(*u.turns, turn{u.rules, msg, snapshot(v)})
	u.mu.Unlock()
	return u.rules.Understand(ctx, msg, v)
}

// snapshot copies a view so that it reads the same after the turn: the
// slots and the flows' guards as they are now, no callbacks.
func snapshot(v vm.View) vm.View {
	out := vm.View{Program: v.Program, Stack: slices.Clone(v.Stack), History: slices.Clone(v.History), Now: v.Now, DateOrder: v.DateOrder}
	if v.Pending != nil {
		p := *v.Pending
		out.Pending = &p
	}
	names := map[string]bool{}
	for _, s := range v.Program.Slots {
		names[s.Name] = true
	}
	for _, f := range v.Program.Flows {
		for _, s := range f.Slots {
			names[s.Name] = true
		}
	}
	slots := map[string]any{}
	if v.Slot != nil {
		for name := range names {
			if val, ok := v.Slot(name); ok {
				slots[name] = val
			}
		}
	}
	out.Slot = func(name string) (any, bool) { val, ok := slots[name]; return val, ok }
	if v.CanStart != nil {
		can := map[string]bool{}
		for _, f := range v.Program.Flows {
			can[f.Name] = v.CanStart(f.Name)
		}
		out.CanStart = func(flow string) bool { return can[flow] }
	}
	return out
}

var corpora struct {
	once                sync.Once
	suites, evals, loop []turn
	err                 error
}

// readCorpora records the messages of the example projects' conversation
// tests (soni test flows/), of the eval sets of evals/ and of the
// synthetic loop's conversation (bench/book_flight.yaml), once.
func readCorpora(b testing.TB) {
	corpora.once.Do(func() {
		var mu sync.Mutex
		rec := func(turns *[]turn) convtest.Options {
			return convtest.Options{
				Jobs: 1,
				Actions: func(p *ir.Program, dir string, env func(string) (string, bool)) vm.ActionRunner {
					return actions.New(p, dir, actions.Options{LookupEnv: env})
				},
				Understander: func(p *ir.Program, _ string) (vm.Understander, error) {
					return recorder{understand.New(p), &mu, turns}, nil
				},
			}
		}
		s := convtest.Load([]string{filepath.Join("..", "flows")}, rec(&corpora.suites))
		if s.Diags.HasErrors() {
			corpora.err = s.Diags.Err()
			return
		}
		s.Run(context.Background())

		loop := filepath.Join(b.TempDir(), "loop_test.yaml")
		flow, _ := filepath.Abs(filepath.Join("..", "bench", "book_flight.yaml"))
		src := "flows: " + filepath.ToSlash(flow) + `
test_cases:
  - test_case: loop
    steps:
      - user: book a flight
      - user: Madrid
      - user: Lisbon
      - user: "2027-03-05"
`
		if corpora.err = os.WriteFile(loop, []byte(src), 0o644); corpora.err != nil {
			return
		}
		s = convtest.Load([]string{loop}, rec(&corpora.loop))
		if s.Diags.HasErrors() {
			corpora.err = s.Diags.Err()
			return
		}
		s.Run(context.Background())

		paths, _ := filepath.Glob(filepath.Join("..", "evals", "*.eval.yaml"))
		for _, path := range paths {
			f, prog, dir, err := eval.Load(path)
			if err != nil {
				corpora.err = err
				return
			}
			u := recorder{understand.New(prog), &mu, &corpora.evals}
			if _, err := eval.Run(context.Background(), path, f, prog, dir, u); err != nil {
				corpora.err = err
				return
			}
		}
	})
	if corpora.err != nil {
		b.Fatal(corpora.err)
	}
}

// BenchmarkRead is the rules' cost of one turn (Rules.Read), on the
// messages of real runs in the views they were read in: the example
// projects' conversation tests (suites), the eval sets' messages
// (evals) and the synthetic loop's four turns (loop, the conversation
// of bench/loop.sh). An operation is one message; the benchmark cycles
// through the corpus. cpu-ns/op is the process's CPU time (both
// processors, the collector's included) per message.
//
//	go test ./understand -run '^$' -bench BenchmarkRead -benchmem
func BenchmarkRead(b *testing.B) {
	readCorpora(b)
	ctx := context.Background()
	for _, bc := range []struct {
		name  string
		turns []turn
	}{{"suites", corpora.suites}, {"evals", corpora.evals}, {"loop", corpora.loop}} {
		b.Run(bc.name, func(b *testing.B) {
			if len(bc.turns) == 0 {
				b.Fatal("no turns recorded")
			}
			b.ReportAllocs()
			cpu0, cpuOK := processCPU()
			i := 0
			for b.Loop() {
				t := bc.turns[i%len(bc.turns)]
				if _, err := t.rules.Read(ctx, t.msg, t.view); err != nil {
					b.Fatal(err)
				}
				i++
			}
			if cpu1, ok := processCPU(); ok && cpuOK && i > 0 {
				b.ReportMetric(float64(cpu1-cpu0)/float64(i), "cpu-ns/op")
			}
		})
	}
}
