package compiler

import (
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// genProject writes a project of n flows with 20 steps each, using every
// step type, split into files of perFile flows after a domain file, the way
// real projects are laid out. Every flow is valid and clean, so the
// benchmark measures the whole pipeline including lowering.
func genProject(n, perFile int) []Source {
	var files []Source
	var b strings.Builder
	flush := func() {
		files = append(files, Source{Name: fmt.Sprintf("gen/%04d.yaml", len(files)), Src: []byte(b.String())})
		b.Reset()
	}
	b.WriteString("version: \"1.0\"\nslots:\n  amount: {type: number, min: 0}\n  account: {type: categorical, values: {checking: [current], savings: [saver]}}\n")
	b.WriteString("actions:\n  lookup:\n    inputs: [account]\n    outputs: [balance]\n    run: {exec: [./lookup]}\n")
	b.WriteString("flows:\n  helper:\n    trigger:\n      intents: [\"help me\"]\n    steps:\n      - step: hi\n        type: say\n        message: \"I can help.\"\n")
	flush()
	for i := 0; i < n; i++ {
		if i%perFile == 0 {
			if i > 0 {
				flush()
			}
			b.WriteString("version: \"1.0\"\nflows:\n")
		}
		next := (i + 1) % n
		fmt.Fprintf(&b, `  flow_%[1]d:
    description: generated flow %[1]d
    trigger:
      intents: ["start flow %[1]d", "run number %[1]d"]
    slots:
      - {name: note_%[1]d, type: text}
      - {name: count_%[1]d, type: integer, min: 0, max: 100}
    steps:
      - step: hello
        type: say
        message: "Hello from flow %[1]d"
      - step: ask_amount
        type: collect
        slot: amount  # soni:ignore W017
        message: "How much?"
        max_attempts: 3
        on_invalid: give_up
      - step: ask_account
        type: collect
        slot: account  # soni:ignore W017
        message: "Which account?"
      - step: ask_note
        type: collect
        slot: note_%[1]d
        message: "Any note for {account}?"
      - step: init
        type: set
        slots:
          count_%[1]d: 0
          label: "flow %[1]d for {amount}"
      - step: loop
        type: while
        condition: "count_%[1]d < 3 AND amount > 0"
        do: [bump, ask_more]
        exit_to: check
      - step: bump
        type: set
        slots:
          count_%[1]d: {expr: "count_%[1]d + 1"}
      - step: ask_more
        type: collect
        slot: more
        message: "More? ({count_%[1]d})"
        force: true
      - step: check
        type: branch
        slot: amount
        cases:
          ">1000": big
          "<=0": zero
          default: fetch
      - step: big
        type: say
        message: "That is a lot: {amount}"
        jump_to: fetch
      - step: zero
        type: say
        message: "Nothing to do"
        jump_to: __end__
      - step: fetch
        type: action
        call: lookup
        map_outputs:
          balance: balance_%[1]d
        on_error: failed
      - step: show
        type: say
        message: "Balance {balance_%[1]d} for {label}"
      - step: decide
        type: branch
        evaluate: "amount > 10 and account == 'checking'"
        cases:
          "true": sure
          default: done
      - step: sure
        type: confirm
        slot: amount
        message: "Send {amount}?"
        on_deny: done
      - step: helper
        type: call
        target: helper
      - step: done
        type: say
        message: "Done with {note_%[1]d}"
        jump_to: __end__
      - step: failed
        type: say
        message: "Lookup failed"
        jump_to: __end__
      - step: give_up
        type: say
        message: "Too many tries"
      - step: away
        type: link
        target: flow_%[2]d
`, i, next)
	}
	flush()
	return files
}

// BenchmarkCompile compiles and validates a generated project of 1,000
// flows × 20 steps. The target is under 1 s per operation on a 2-core
// machine, with memory (B/op) within 20× the YAML size, reported as
// x-yaml.
func BenchmarkCompile(b *testing.B) {
	files := genProject(1000, 10)
	size := 0
	for _, f := range files {
		size += len(f.Src)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	runtime.GC()
	peak := startPeakSampler()
	for i := 0; i < b.N; i++ {
		r := CompileSources(files, Options{})
		if r.Program == nil {
			b.Fatalf("generated project does not compile: %v", r.Diags[0])
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(peak())/float64(size), "peak-heap-x-yaml")
	b.ReportMetric(liveAfterCompile(files)/float64(size), "live-heap-x-yaml")
}

// liveAfterCompile returns the bytes a compile keeps live: the model, the
// program and the sources, measured after a collection.
func liveAfterCompile(files []Source) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := CompileSources(files, Options{})
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(r)
	return float64(after.HeapAlloc) - float64(before.HeapAlloc)
}

// TestCompileMemoryBudget: compiling keeps live at most 20× the YAML's size
// (the model, the program and the sources). Memory, unlike time, is
// stable enough to assert.
func TestCompileMemoryBudget(t *testing.T) {
	// Not parallel: it measures the process's heap, which other tests
	// running at the same time would change.
	files := genProject(200, 10)
	size := 0
	for _, f := range files {
		size += len(f.Src)
	}
	ratio := liveAfterCompile(files) / float64(size)
	t.Logf("live heap %.1f× the YAML", ratio)
	if ratio > 20 {
		t.Fatalf("compiling keeps %.1f× the YAML's size live; the budget is 20×", ratio)
	}
}

// startPeakSampler samples the live heap every millisecond until the
// returned function is called, which gives the highest value seen above
// the heap at the start.
func startPeakSampler() func() uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	var peak atomic.Uint64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				metrics.Read(s)
				if v := s[0].Value.Uint64(); v > base && v-base > peak.Load() {
					peak.Store(v - base)
				}
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-stopped
		return peak.Load()
	}
}

// TestGeneratedProjectIsClean keeps the benchmark honest: the generated
// project must compile without any diagnostic, errors or warnings, so the
// benchmark measures a full compile and lowering.
func TestGeneratedProjectIsClean(t *testing.T) {
	t.Parallel()
	files := genProject(3, 2)
	r := CompileSources(files, Options{})
	for _, d := range r.Diags {
		t.Errorf("%s", d)
	}
	if r.Program == nil {
		t.Fatal("no program")
	}
	if os.Getenv("SONI_DUMP") != "" {
		for _, f := range files {
			os.Stdout.Write(f.Src)
		}
	}
}
