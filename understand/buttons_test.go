package understand

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/compiler"
)

// buttonsYAML is a project whose questions are asked with buttons, as an
// imported assistant asks them: a yes or no question whose buttons are
// not titled yes and no, and a text question with two buttons.
const buttonsYAML = `version: "1.0"
slots:
  restarted: {type: boolean}
  delivery: {type: text}
responses:
  utter_ask_restarted:
    - text: "Switch the device off and on again, and tell me when you are ready."
      buttons:
        - {title: "Finished", payload: "/SetSlots(restarted=true)"}
        - {title: "Something went wrong", payload: "/SetSlots(restarted=false)"}
  utter_ask_delivery:
    - text: "How should we send it?"
      buttons:
        - {title: "Post it to me", payload: "/SetSlots(delivery=post)"}
        - {title: "I'll collect it", payload: "/SetSlots(delivery=pickup)"}
flows:
  restart_device:
    description: walk the user through restarting the device
    trigger: {intents: ["restart my device"]}
    steps:
      - {step: ask, type: collect, slot: restarted, response: utter_ask_restarted}
  order_card:
    description: order a new card
    trigger: {intents: ["order a card"]}
    steps:
      - {step: ask, type: collect, slot: delivery, response: utter_ask_delivery}
`

// TestButtonAnswers: a typed button title answers as the button's
// payload does, and so does a short message that names words of one
// button only, when it is no answer by itself; words of both buttons do
// not, and a free-text answer stays the text.
func TestButtonAnswers(t *testing.T) {
	t.Parallel()
	res := compiler.CompileSource("buttons.yaml", []byte(buttonsYAML), compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	runCasesWith(t, reader(t, res.Program), []gcase{
		{"a title", []string{"restart my device"}, "finished", "set_slot restarted=true", true},
		{"a title with its case and a stop", []string{"restart my device"}, "Finished.", "set_slot restarted=true", true},
		{"a button's words", []string{"restart my device"}, "hmm, something is wrong", "set_slot restarted=false", false},
		{"a text question's title", []string{"order a card"}, "post it to me", "set_slot delivery=post", true},
		{"words of both", []string{"restart my device"}, "finished but something went wrong", "set_slot restarted=finished but something went wrong", false},
		{"a text answer stays the text", []string{"order a card"}, "I can collect it tomorrow", "set_slot delivery=I can collect it tomorrow", false},
	})
}
