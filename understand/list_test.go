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
	res := compiler.Compile("../testdata/lists", compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	pizza := []string{"I want a pizza"}
	runCasesWith(t, reader(t, res.Program), []gcase{
		{"two values", pizza, "pepperoni and mushrooms", "set_slot toppings=[pepperoni mushrooms]", true},
		{"synonyms, a label and commas", pizza, "salami, champignons and extra cheese", "set_slot toppings=[pepperoni mushrooms extra_cheese]", true},
		{"words around the values", pizza, "I'd like olives and onions please", "set_slot toppings=[olives onions]", false},
		{"one value", pizza, "olives", "set_slot toppings=[olives]", true},
		{"the opening gives the toppings", nil, "I want a pizza with salami and onions", "start_flow order_pizza toppings=[pepperoni onions]", false},
		{"an opening without toppings", nil, "I want a pizza", "start_flow order_pizza", true},
		{"free-text items", []string{"plan a party"}, "Ana, Bob and Carla", "set_slot guests=[Ana Bob Carla]", false},
		{"no value is the raw text for the VM to refuse", pizza, "pineapple", "set_slot toppings=pineapple", false},
	})
}
