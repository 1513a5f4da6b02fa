package compiler

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/diag"
)

// TestRunnerlessActions: a called action with no run block is W020,
// unless a conversation test of the project stubs it (by name, or for one
// case as CASE::ACTION), it has a run block, or no flow calls it.
func TestRunnerlessActions(t *testing.T) {
	const flows = `version: "1.0"
actions:
  quote:
    outputs: [price]
  ask_size:
    outputs: []
  priced:
    outputs: [price]
    run: {http: {url: "http://127.0.0.1:9/price"}}
flows:
  order:
    trigger:
      intents: ["order"]
    steps:
      - {step: size, type: collect, slot: size, ask_action: ask_size}
      - {step: price, type: action, call: quote, map_outputs: {price: price}}
      - {step: again, type: action, call: priced}
      - {step: tell, type: say, message: "{size}: {price}"}
`
	for _, tc := range []struct {
		name  string
		tests string // a conversation test file, or ""
		want  []string
	}{
		{"no tests", "", []string{"quote", "ask_size"}},
		{"stubbed by name", "stub_custom_actions:\n  quote: {outputs: {price: 3}}\n  ask_size: {outputs: {}}\n", nil},
		{"stubbed for one case", "stub_custom_actions:\n  one::quote: {outputs: {price: 3}}\n", []string{"ask_size"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "flows.yaml"), []byte(flows), 0o644))
			if tc.tests != "" {
				require.NoError(t, os.MkdirAll(filepath.Join(dir, "tests"), 0o755))
				src := "flows: ..\n" + tc.tests + "test_cases:\n  - test_case: one\n    steps:\n      - user: order\n"
				require.NoError(t, os.WriteFile(filepath.Join(dir, "tests", "order.yaml"), []byte(src), 0o644))
			}
			r := Compile(dir, Options{})
			var got []string
			for _, d := range r.Diags {
				if d.Code == diag.CodeRunnerlessAction {
					got = append(got, d.Path[len("actions."):])
					assert.Contains(t, d.Message, "has no runner: flow \"order\" calls it at step")
				}
			}
			assert.ElementsMatch(t, tc.want, got, "%v", r.Diags)
		})
	}
}
