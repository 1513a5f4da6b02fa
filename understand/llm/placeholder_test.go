package llm

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/vm"
)

// TestPlaceholderTheUserTyped: a model's "none" means no value, unless
// the user's message is that word: at an optional text question, "none"
// typed by the user is the answer.
func TestPlaceholderTheUserTyped(t *testing.T) {
	r := compiler.CompileSource("note.yaml", []byte(`version: "1.0"
flows:
  leave_note:
    trigger: {intents: ["leave a note"]}
    slots: [{name: note, type: text}]
    steps:
      - {step: ask, type: collect, slot: note, message: "Any note?"}
      - {step: done, type: say, message: "Noted."}
`), compiler.Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	m, err := vm.New(r.Program, vm.Options{})
	require.NoError(t, err)
	res, err := m.Turn(context.Background(), m.NewState("s"), vm.Input{Commands: []vm.Command{{Kind: vm.CmdStartFlow, Flow: "leave_note"}}})
	require.NoError(t, err)
	v := m.View(res.State)
	raws, _ := ParseCommands("set slot note none")

	cmds, notes := ValidateMessage(raws, v, "None")
	assert.Equal(t, []vm.Command{{Kind: vm.CmdSetSlot, Slot: "note", Value: "none"}}, cmds, "%v", notes)

	cmds, notes = ValidateMessage(raws, v, "nothing to add, thanks")
	assert.Equal(t, []vm.Command{{Kind: vm.CmdFallback}}, cmds, "%v", notes)
	cmds, _ = Validate(raws, v)
	assert.Equal(t, []vm.Command{{Kind: vm.CmdFallback}}, cmds)
}
