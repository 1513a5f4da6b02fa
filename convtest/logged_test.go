package convtest

import (
	"bytes"
	"testing"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWriteTestCase writes a logged conversation through the test file
// model and reads it back: messages, given commands with nested values,
// replies, and the stubs of an action that answered and one that failed.
func TestWriteTestCase(t *testing.T) {
	recs := []soni.TurnRecord{
		{Text: "send 100 to Ana: now", Replies: []string{"How much?", "yes"}, Events: []vm.Event{
			{Type: vm.EventActionExecuted, Action: "check_balance", Outputs: map[string]any{"balance": 120.5, "ok": true, "tags": []any{"a", "b c"}}},
		}},
		{Given: []vm.Command{{Kind: vm.CmdStartFlow, Flow: "transfer", Slots: []vm.SlotValue{{Slot: "amount", Value: 100}, {Slot: "to", Value: "true"}}}, {Kind: vm.CmdAffirm}},
			Replies: []string{"Done."}, Events: []vm.Event{{Type: vm.EventActionFailed, Action: "send", Error: "no route"}}},
	}
	var b bytes.Buffer
	warnings := WriteTestCase(&b, "s1", "flows/bank", recs)
	assert.Empty(t, warnings)
	want := `# Session "s1" as logged (soni log --format test, or the inspector), 2 turns.
# flows: is the project given to soni log, relative to where it ran:
# save this file there, or adjust the path.
flows: flows/bank
stub_custom_actions:
  check_balance:
    outputs: {balance: 120.5, ok: true, tags: [a, "b c"]}
  send:
    error: "no route"
test_cases:
  - test_case: session_s1
    steps:
      - user: "send 100 to Ana: now"
      - bot: "How much?"
      - bot: "yes"
      - user: ""
        commands: [{start_flow: {flow: transfer, slots: {amount: 100, to: "true"}}}, affirm]
      - bot: Done.
`
	assert.Equal(t, want, b.String())

	f, ds := ParseFile("logged.yaml", b.Bytes())
	require.False(t, ds.HasErrors(), "%v", ds)
	assert.Equal(t, "flows/bank", f.Flows)
	require.Len(t, f.Stubs, 2)
	assert.Equal(t, map[string]any{"balance": 120.5, "ok": true, "tags": []any{"a", "b c"}}, f.Stubs[0].Outputs)
	assert.True(t, f.Stubs[1].Fails)
	assert.Equal(t, "no route", f.Stubs[1].Error)
	c := f.Cases[0]
	require.Len(t, c.Turns, 2)
	assert.Equal(t, "send 100 to Ana: now", c.Turns[0].User.Text)
	assert.Equal(t, []string{"How much?", "yes"}, []string{c.Turns[0].Checks[0].Text, c.Turns[0].Checks[1].Text})
	assert.Equal(t, []vm.Command{
		{Kind: vm.CmdStartFlow, Flow: "transfer", Slots: []vm.SlotValue{{Slot: "amount", Value: int64(100)}, {Slot: "to", Value: "true"}}},
		{Kind: vm.CmdAffirm},
	}, c.Turns[1].User.Commands)
}
