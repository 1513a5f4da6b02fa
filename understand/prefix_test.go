package understand

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/compiler"
)

// TestShortStartOfOneValue: at a categorical question, a message that is
// only the first three letters of one value's word is that value ("dec"
// for December); three letters inside a longer message, or the start of
// two values' words, are not.
func TestShortStartOfOneValue(t *testing.T) {
	t.Parallel()
	res := compiler.CompileSource("seat.yaml", []byte(`version: "1.0"
flows:
  pick_seat:
    description: pick a seat class
    trigger: {intents: ["pick a seat"]}
    slots:
      - {name: cabin, type: categorical, values: [economy, premium_economy, business]}
      - {name: month, type: categorical, values: [June, July, December]}
    steps:
      - {step: ask, type: collect, slot: cabin, message: "Which class?"}
      - {step: when, type: collect, slot: month, message: "Which month?"}
`), compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	runCasesWith(t, reader(t, res.Program), []gcase{
		{"three letters of one value", []string{"pick a seat"}, "bus", "set_slot cabin=business", true},
		{"three letters of two values", []string{"pick a seat"}, "eco", "set_slot cabin=eco", false},
		{"a month's three letters", []string{"pick a seat", "business"}, "dec", "set_slot month=December", true},
		{"three letters in a sentence", []string{"pick a seat", "business"}, "in dec please", "set_slot month=in dec please", false},
	})
}
