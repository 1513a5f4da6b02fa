package llm

import (
	"testing"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStartFlowFillsTheSlotsOfTheFlowsItCalls: the model may give, with
// a start_flow, the slots of a flow the started flow calls; they join the
// start, which the VM holds for the called flow, and the prompt lists
// them with the started flow.
func TestStartFlowFillsTheSlotsOfTheFlowsItCalls(t *testing.T) {
	r := compiler.CompileSource("pizza.yaml", []byte(`version: "1.0"
flows:
  order_pizza:
    trigger: {intents: ["order a pizza"]}
    steps:
      - {step: pick, type: call, target: pick_pizza}
      - {step: done, type: say, message: "Ordered."}
  pick_pizza:
    slots:
      - {name: size, type: categorical, values: [small, large]}
    steps:
      - {step: ask_size, type: collect, slot: size, message: "What size?"}
`), compiler.Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	m, err := vm.New(r.Program, vm.Options{})
	require.NoError(t, err)
	v := m.View(m.NewState("s"))
	raws, _ := ParseCommands("start flow order_pizza\nset slot size large")
	cmds, notes := Validate(raws, v)
	assert.Empty(t, notes)
	assert.Equal(t, []vm.Command{{Kind: vm.CmdStartFlow, Flow: "order_pizza", Slots: []vm.SlotValue{{Slot: "size", Value: "large"}}}}, cmds)

	tp, err := ParsePrompt("")
	require.NoError(t, err)
	prompt, err := RenderPrompt(tp, v, "a large pizza", 6, AnswerText)
	require.NoError(t, err)
	assert.Contains(t, prompt, "- order_pizza")
	assert.Contains(t, prompt, "slot size (categorical: one of small, large)")
}
