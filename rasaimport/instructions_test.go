package rasaimport

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestInstructionsGiveNoPhrases: a flow description that reads as an
// instruction to Rasa's language model gives no trigger phrases (issue
// 27), while one that says what the flow does still does; a description
// that mixes both keeps what the flow does.
func TestInstructionsGiveNoPhrases(t *testing.T) {
	dir := writeProject(t, map[string][]byte{
		"domain.yml": []byte("version: \"3.1\"\nslots:\n  address_ok: {type: bool, mappings: [{type: from_llm}]}\nresponses:\n  utter_ask_address_ok: [{text: \"Is your address right?\"}]\n  utter_ok: [{text: \"ok\"}]\n"),
		"data/flows.yml": []byte(`flows:
  confirm_address:
    description: This flow is called from any other flow to confirm that the user's address is correct.
    steps:
      - collect: address_ok
  out_of_scope:
    description: trigger this if the user asks for something we don't have a flow for.
    steps:
      - action: utter_ok
  car_research:
    description: Help the user choose a car to buy. Trigger this proactively if the user isn't clear which car they want.
    steps:
      - action: utter_ok
  transaction_search:
    description: lists the last transactions of the user account
    steps:
      - action: utter_ok
`),
	})
	files, _, err := Translate(dir)
	require.NoError(t, err)
	flows := string(files["flows/flows.yaml"])
	for _, gone := range []string{`- "This flow is called`, `- "trigger this`, `Trigger this proactively if the user isn't clear which car they want"`, `- "Help the user choose a car to buy. Trigger`} {
		assert.NotContains(t, flows, gone)
	}
	for _, kept := range []string{`- "confirm address"`, `- "out of scope"`, `- "Help the user choose a car to buy"`, `- "lists the last transactions of the user account"`} {
		assert.Contains(t, flows, kept)
	}
}
