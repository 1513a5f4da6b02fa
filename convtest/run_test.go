package convtest

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAssertions runs one file per kind of check. Each file has cases
// named *_pass, which must pass, and *_fail*, which must fail; the text and
// JSON reports of the failures are golden files next to the test file.
func TestAssertions(t *testing.T) {
	tests := []struct {
		file                    string
		passed, failed, skipped int
	}{
		{"bot", 1, 1, 0},
		{"bot_strict", 2, 3, 0},
		{"bot_matches", 1, 1, 0},
		{"slot_was_set", 1, 2, 0},
		{"slot_was_not_set", 1, 1, 0},
		{"flow_events", 1, 1, 0},
		{"action_executed", 1, 2, 0},
		{"commands", 1, 1, 0},
		{"fixtures", 1, 1, 1},
		{"stubs", 1, 1, 0},
		{"unstubbed", 1, 1, 0},
		{"rasa", 1, 2, 0},
		{"bot_did_not_utter", 1, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.ToSlash(filepath.Join("testdata", "assert", tt.file+".yaml"))
			_, r := run(t, []string{path}, Options{})
			assert.Equal(t, tt.passed, r.Passed, "passed")
			assert.Equal(t, tt.failed, r.Failed, "failed")
			assert.Equal(t, tt.skipped, r.Skipped, "skipped")
			require.Len(t, r.Files, 1)
			for _, c := range r.Files[0].Cases {
				switch {
				case strings.Contains(c.Name, "_pass"):
					assert.Equal(t, Passed, c.Status, "case %s: %s", c.Name, c.FailureText())
				case strings.Contains(c.Name, "_fail"):
					assert.Equal(t, Failed, c.Status, "case %s", c.Name)
				}
			}
			var js bytes.Buffer
			require.NoError(t, WriteJSON(&js, r))
			golden(t, filepath.Join("testdata", "assert", tt.file+".golden"), []byte(textOf(t, r)+"--- json\n"+js.String()))
		})
	}
}

// TestTypedSlotComparison compares expected slot values by the slot's type.
func TestTypedSlotComparison(t *testing.T) {
	num := &ir.Slot{Name: "amount", Type: ir.TypeNumber}
	integer := &ir.Slot{Name: "qty", Type: ir.TypeInteger}
	cat := &ir.Slot{Name: "tier", Type: ir.TypeCategorical, Values: []ir.Value{{Value: "premium", Synonyms: []string{"gold"}}, {Value: "basic"}}}
	tests := []struct {
		name             string
		def              *ir.Slot
		expected, actual any
		want             bool
		err              bool
	}{
		{"number int matches float", num, int64(50), 50.0, true, false},
		{"number float matches", num, 50.0, 50.0, true, false},
		{"number text matches", num, "50", 50.0, true, false},
		{"number differs", num, int64(51), 50.0, false, false},
		{"integer float matches", integer, 2.0, int64(2), true, false},
		{"categorical synonym", cat, "gold", "premium", true, false},
		{"categorical differs", cat, "basic", "premium", false, false},
		{"does not convert", integer, "lots", int64(2), false, true},
		{"any number", nil, int64(3), 3.0, true, false},
		{"any text of number", &ir.Slot{Name: "x", Type: ir.TypeAny}, "3", int64(3), true, false},
		{"any list", nil, []any{int64(1), "a"}, []any{1.0, "a"}, true, false},
		{"any map differs", nil, map[string]any{"a": int64(1)}, map[string]any{"a": 2.0}, false, false},
		{"null matches cleared", num, nil, nil, true, false},
		{"null does not match a value", num, nil, 1.0, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := sameValue(tt.def, tt.expected, tt.actual)
			if tt.err {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestParallelDeterministic runs every assertion file with one worker and
// with many: the reports are the same bytes.
func TestParallelDeterministic(t *testing.T) {
	paths := []string{filepath.Join("testdata", "assert")}
	render := func(jobs int) string {
		_, r := run(t, paths, Options{Jobs: jobs})
		var b bytes.Buffer
		require.NoError(t, WriteText(&b, r, TextOptions{}))
		require.NoError(t, WriteJSON(&b, r))
		require.NoError(t, WriteJUnit(&b, r))
		require.NoError(t, WriteCoverage(&b, r.Coverage))
		return b.String()
	}
	one := render(1)
	for i := 0; i < 3; i++ {
		assert.Equal(t, one, render(8))
	}
}

// TestRunFilter runs only the cases --run selects.
func TestRunFilter(t *testing.T) {
	_, r := run(t, []string{filepath.Join("testdata", "assert", "bot.yaml")}, Options{Run: regexp.MustCompile(`_fail$`)})
	require.Len(t, r.Files[0].Cases, 1)
	assert.Equal(t, "bot_fail", r.Files[0].Cases[0].Name)
	assert.Equal(t, "0 passed, 1 failed", r.Summary())
}

// TestSummary pins the last line of the report.
func TestSummary(t *testing.T) {
	tests := []struct {
		r    Report
		want string
	}{
		{Report{Passed: 3}, "3 passed, 0 failed"},
		{Report{Passed: 1, Failed: 2}, "1 passed, 2 failed"},
		{Report{Passed: 1, Failed: 0, Skipped: 4}, "1 passed, 0 failed, 4 skipped"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.r.Summary())
	}
}

// TestColor paints only when asked.
func TestColor(t *testing.T) {
	_, r := run(t, []string{filepath.Join("testdata", "assert", "bot.yaml")}, Options{})
	var plain, color bytes.Buffer
	require.NoError(t, WriteText(&plain, r, TextOptions{}))
	require.NoError(t, WriteText(&color, r, TextOptions{Color: true}))
	assert.NotContains(t, plain.String(), "\x1b[")
	assert.Contains(t, color.String(), ansiRed+"-I can take two orders.")
	assert.Contains(t, color.String(), ansiGreen+"+I can take an order.")
}

// TestRuntimeError fails a case whose turn cannot run, naming the error.
func TestRuntimeError(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "loop.yaml", `flows:
  spin:
    trigger: {intents: ["spin"]}
    steps:
      - step: a
        type: set
        slots: {n: 1}
        jump_to: a
`)
	test := writeFile(t, dir, "tests/spin.yaml", "flows: ../loop.yaml\ntest_cases:\n  - test_case: spins\n    steps:\n      - user: spin\n      - bot: never\n      - user: again\n")
	_, r := run(t, []string{test}, Options{})
	require.Equal(t, 1, r.Failed)
	f := r.Files[0].Cases[0].Failures
	require.Len(t, f, 1, "the case stops at the turn that failed")
	assert.Equal(t, 1, f[0].Turn)
	assert.Contains(t, f[0].Error, "max_steps_per_turn")
	assert.Contains(t, r.Files[0].Cases[0].FailureText(), "error: ")
}

// TestCancelledContext fails every case when the run is cancelled.
func TestCancelledContext(t *testing.T) {
	s := Load([]string{filepath.Join("testdata", "assert", "bot.yaml")}, Options{Now: fixedNow})
	require.False(t, s.Diags.HasErrors())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := s.Run(ctx)
	assert.Equal(t, 0, r.Passed)
	assert.Equal(t, 2, r.Failed)
}

// TestEventChecks checks flow and action events against a turn's events,
// whatever their order: an action that failed and then succeeded in the
// same turn (a retry) was executed.
func TestEventChecks(t *testing.T) {
	failed := vm.Event{Type: vm.EventActionFailed, Flow: "f", Action: "pay", Error: "timeout"}
	executed := vm.Event{Type: vm.EventActionExecuted, Flow: "f", Action: "pay"}
	other := vm.Event{Type: vm.EventActionExecuted, Flow: "f", Action: "log"}
	started := vm.Event{Type: vm.EventFlowStarted, Flow: "f"}
	tests := []struct {
		name   string
		kind   StepKind
		target string
		events []vm.Event
		want   string // "" passes
	}{
		{"executed", StepActionExecuted, "pay", []vm.Event{executed}, ""},
		{"failed then retried", StepActionExecuted, "pay", []vm.Event{failed, executed}, ""},
		{"executed then failed", StepActionExecuted, "pay", []vm.Event{executed, failed}, ""},
		{"only failed", StepActionExecuted, "pay", []vm.Event{other, failed}, `action "pay" failed: timeout`},
		{"not run", StepActionExecuted, "pay", []vm.Event{other}, `action "pay" was not executed during the turn (actions executed: log)`},
		{"flow started", StepFlowStarted, "f", []vm.Event{started}, ""},
		{"flow not started", StepFlowStarted, "g", []vm.Event{started}, `flow "g" was not started during the turn (flows started: f)`},
		{"flow not completed", StepFlowCompleted, "f", []vm.Event{started}, `flow "f" was not completed during the turn (flows completed: none)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := checkEvents(nil, &Step{Kind: tt.kind, Text: tt.target}, &vm.Result{Events: tt.events})
			if tt.want == "" {
				assert.Empty(t, got)
				return
			}
			require.Len(t, got, 1)
			assert.Contains(t, got[0], tt.want)
		})
	}
}

// TestValidatorStubs: stub_validators answers a named validator for the
// file or one case: a verdict (valid, value, message) or a failure.
func TestValidatorStubs(t *testing.T) {
	_, r := run(t, []string{"testdata/validators/tests.yaml"}, Options{})
	assert.Equal(t, 3, r.Passed, "%v", r.Files[0].Cases[0].FailureText())
	assert.Equal(t, 0, r.Failed)
}

// TestForbidden covers bot_did_not_utter's reading of a reply: as in
// Rasa, each field forbids on its own.
func TestForbidden(t *testing.T) {
	yes := ir.Button{Title: "Yes", Payload: "/SetSlots(ok=true)"}
	no := ir.Button{Title: "No", Payload: "/SetSlots(ok=false)"}
	reply := vm.Utterance{Text: "Send 5 to Ana?", Response: "utter_confirm", Buttons: []ir.Button{yes, no}}
	tests := []struct {
		name string
		st   Step
		want string
	}{
		{"its response", Step{Response: "utter_confirm"}, "was said from utter_confirm"},
		{"another response", Step{Response: "utter_done"}, ""},
		{"its text", Step{Text: "Ana", Regexp: regexp.MustCompile("Ana")}, "matches /Ana/"},
		{"another text", Step{Text: "Bo", Regexp: regexp.MustCompile("Bo")}, ""},
		{"one of its buttons", Step{Buttons: []ir.Button{{Title: "Maybe", Payload: "/x"}, no}, HasButtons: true}, `has the button "No" (/SetSlots(ok=false))`},
		{"a button with another payload", Step{Buttons: []ir.Button{{Title: "No", Payload: "/x"}}, HasButtons: true}, ""},
		{"any field forbids", Step{Response: "utter_done", Text: "Send", Regexp: regexp.MustCompile("Send")}, "matches /Send/"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, forbidden(&tc.st, reply))
		})
	}
}
