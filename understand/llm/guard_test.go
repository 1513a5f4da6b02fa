package llm

import (
	"testing"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPromptLeavesOutGuardedFlows: a flow whose guard (if:) does not hold
// is absent for the understanding, so the model's prompt does not offer
// it; once the guard holds, it is there.
func TestPromptLeavesOutGuardedFlows(t *testing.T) {
	r := compiler.CompileSource("lounge.yaml", []byte(`version: "1.0"
slots:
  tier: {type: categorical, values: [basic, gold], initial: basic}
flows:
  lounge:
    description: Book the gold lounge
    if: tier == "gold"
    trigger: {intents: ["book the lounge"]}
    steps:
      - {step: s, type: say, message: "Booked."}
  room:
    description: Book a room
    trigger: {intents: ["book a room"]}
    steps:
      - {step: s, type: say, message: "Booked."}
`), compiler.Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	m, err := vm.New(r.Program, vm.Options{})
	require.NoError(t, err)
	tp, err := ParsePrompt("")
	require.NoError(t, err)

	st := m.NewState("s")
	prompt, err := RenderPrompt(tp, m.View(st), "book something", 6, AnswerText)
	require.NoError(t, err)
	assert.Contains(t, prompt, "- room")
	assert.NotContains(t, prompt, "lounge")

	st.Slots["tier"] = "gold"
	prompt, err = RenderPrompt(tp, m.View(st), "book something", 6, AnswerText)
	require.NoError(t, err)
	assert.Contains(t, prompt, "- lounge")
}
