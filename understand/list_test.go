package understand

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/compiler"
)

// TestListSlots: testdata/lists' toppings (a list of declared values)
// and guests (a list of any text), filled from an answer and from the
// opening message; an answer of only values and joining words is sure.
func TestListSlots(t *testing.T) {
	t.Parallel()
	res := compiler.Compile("../testdata/lists", compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	pizza := []string{"I want a pizza"}
	runCasesWith(t, reader(t, res.Program), []gcase{
		{"two values", pizza, "pepperoni and mushrooms", "set_slot toppings=[pepperoni mushrooms]", true},
		{"synonyms, a label and commas", pizza, "salami, champignons and extra cheese", "set_slot toppings=[pepperoni mushrooms extra_cheese]", true},
		{"words around the values", pizza, "I'd like olives and onions please", "set_slot toppings=[olives onions]", true},
		{"one value", pizza, "olives", "set_slot toppings=[olives]", true},
		{"the opening gives the toppings", nil, "I want a pizza with salami and onions", "start_flow order_pizza toppings=[pepperoni onions]", false},
		{"an opening without toppings", nil, "I want a pizza", "start_flow order_pizza", true},
		{"free-text items", []string{"plan a party"}, "Ana, Bob and Carla", "set_slot guests=[Ana Bob Carla]", false},
		{"no value is the raw text for the VM to refuse", pizza, "pineapple", "set_slot toppings=pineapple", false},
	})
}

// TestListEdits: at the confirmation of a list, or at a later question of
// its flow, add and remove words change the list instead of replacing
// it; a message without them, or naming none of its values, replaces it
// or is read as before.
func TestListEdits(t *testing.T) {
	t.Parallel()
	res := compiler.CompileSource("pizza.yaml", []byte(`version: "1.0"
flows:
  order_pizza:
    description: Order a pizza with toppings
    trigger: {intents: ["order a pizza"]}
    slots:
      - {name: toppings, type: list, values: [pepperoni, mushrooms, olives, onions], max_items: 3}
      - {name: address, type: text}
    steps:
      - {step: ask, type: collect, slot: toppings, message: "Which toppings?"}
      - {step: ok, type: confirm, slot: toppings, message: "A pizza with {toppings}?"}
      - {step: where, type: collect, slot: address, message: "Where to?"}
      - {step: done, type: say, message: "Ordered {toppings} to {address}."}
`), compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	atConfirm := []string{"order a pizza", "pepperoni and mushrooms"}
	atAddress := append(atConfirm, "yes")
	runCasesWith(t, reader(t, res.Program), []gcase{
		{"add", atConfirm, "add olives", "correct_slot toppings=[pepperoni mushrooms olives]", false},
		{"also", atConfirm, "also onions please", "correct_slot toppings=[pepperoni mushrooms onions]", false},
		{"too after the value", atConfirm, "olives too", "correct_slot toppings=[pepperoni mushrooms olives]", false},
		{"as well", atConfirm, "actually olives as well", "correct_slot toppings=[pepperoni mushrooms olives]", false},
		{"remove", atConfirm, "remove the mushrooms", "correct_slot toppings=[pepperoni]", false},
		{"without", atConfirm, "without mushrooms", "correct_slot toppings=[pepperoni]", false},
		{"remove and add", atConfirm, "remove the mushrooms and add olives", "correct_slot toppings=[pepperoni olives]", false},
		{"a value already there", atConfirm, "add pepperoni", "correct_slot toppings=[pepperoni mushrooms]", false},
		{"no add word replaces", atConfirm, "no, olives and onions", "correct_slot toppings=[olives onions]", false},
		{"yes is yes", atConfirm, "yes", "affirm", true},
		{"at a later question", atAddress, "oh, add olives too", "correct_slot toppings=[pepperoni mushrooms olives]", false},
		{"an address is no list edit", atAddress, "Main Street 1", "set_slot address=Main Street 1", false},
	})
}

// TestListSlotOfACalledFlow: the message that starts a flow gives the
// list slot of the flow it calls, which the VM holds until that flow asks
// (language.md, slots across calls).
func TestListSlotOfACalledFlow(t *testing.T) {
	t.Parallel()
	res := compiler.CompileSource("calls.yaml", []byte(`version: "1.0"
flows:
  order_pizza:
    description: Order a pizza
    trigger: {intents: ["order a pizza"]}
    steps:
      - {step: pick, type: call, target: pick_toppings}
      - {step: done, type: say, message: "Ordered."}
  pick_toppings:
    slots:
      - {name: toppings, type: list, values: [pepperoni, mushrooms, olives]}
    steps:
      - {step: ask, type: collect, slot: toppings, message: "Which toppings?"}
`), compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	runCasesWith(t, reader(t, res.Program), []gcase{
		{"the called flow's list", nil, "order a pizza with olives and mushrooms", "start_flow order_pizza toppings=[olives mushrooms]", false},
	})
}
