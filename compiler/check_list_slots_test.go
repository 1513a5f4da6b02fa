package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// listFlow uses the slot "toppings" of the source's slots: block.
const listFlow = `flows:
  f:
    trigger: {intents: [go]}
    steps:
      - {step: a, type: collect, slot: toppings, message: "Which?"}
      - {step: b, type: say, message: "{toppings}"}
`

// TestListSlotDeclarations: a list slot lowers with its values and item
// bounds, and each declaration that cannot work is an E014 naming the
// slot.
func TestListSlotDeclarations(t *testing.T) {
	t.Parallel()
	r := CompileSource("t.yaml", []byte("slots:\n  toppings: {type: list, values: {pepperoni: [salami], olives: []}, min_items: 1, max_items: 2}\n"+listFlow), Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	s := r.Program.Slots[0]
	assert.Equal(t, ir.TypeList, s.Type)
	assert.Equal(t, 1, s.MinItems)
	assert.Equal(t, 2, s.MaxItems)
	assert.Equal(t, []ir.Value{{Value: "pepperoni", Synonyms: []string{"salami"}}, {Value: "olives"}}, s.Values)

	for _, tc := range []struct{ slot, want string }{
		{`{type: list, min_items: 3, max_items: 2}`,
			`2:37 list slot "toppings" has min_items 3 greater than max_items 2, so no list can ever be stored: swap them or fix one`},
		{`{type: list, values: []}`,
			`2:3 list slot "toppings" has empty values, so no item can ever be stored: list its values, or remove values to take any items`},
		{`{type: text, max_items: 2}`,
			`2:37 max_items of slot "toppings" is ignored: only a list slot counts items, and "toppings" is of type text; write type: list or remove max_items`},
		{`{type: list, max: 2}`,
			`2:3 list slot "toppings" has min or max, which bound numbers: write min_items or max_items to bound its number of items`},
	} {
		t.Run(tc.slot, func(t *testing.T) {
			src := "slots:\n  toppings: " + tc.slot + "\n" + listFlow
			assert.Equal(t, []string{tc.want}, codeDiags(t, src, diag.CodeInvalidValue))
		})
	}
}

// TestListSlotExpressionsAndLiterals: conditions over a list slot are
// type-checked as conditions over a list of strings (in, len), and set
// literals and initial values must be lists of its values.
func TestListSlotExpressionsAndLiterals(t *testing.T) {
	t.Parallel()
	const slot = "slots:\n  toppings: {type: list, values: [pepperoni, olives]}\n"
	step := func(s string) string {
		return slot + `flows:
  f:
    trigger: {intents: [go]}
    steps:
      - ` + s + "\n"
	}
	for _, ok := range []string{
		`{step: a, type: branch, evaluate: '"pepperoni" in toppings', cases: {"true": __end__}}`,
		`{step: a, type: branch, evaluate: 'len(toppings) > 2 and not ("olives" in toppings)', cases: {"true": __end__}}`,
		`{step: a, type: set, slots: {toppings: [pepperoni, olives]}}`,
		`{step: a, type: set, slots: {toppings: {expr: 'filter(toppings, # != "olives")'}}}`,
	} {
		assert.Empty(t, codeDiags(t, step(ok), diag.CodeExpression), ok)
		assert.Empty(t, codeDiags(t, step(ok), diag.CodeSetType), ok)
	}
	assert.NotEmpty(t, codeDiags(t, step(`{step: a, type: branch, evaluate: 'toppings > 2', cases: {"true": __end__}}`), diag.CodeExpression))
	assert.Equal(t, []string{`7:48 cannot set list slot "toppings" to a list: write a list of its values "pepperoni", "olives" ("pineapple" is not one), or use {expr: ...}`},
		codeDiags(t, step(`{step: a, type: set, slots: {toppings: [pepperoni, pineapple]}}`), diag.CodeSetType))
	assert.Equal(t, []string{`7:49 cannot set list slot "toppings" to a mapping: write a list such as [a, b], or use {expr: ...}`},
		codeDiags(t, step(`{step: a, type: set, slots: {toppings: {a: 1}}}`), diag.CodeSetType))

	r := CompileSource("t.yaml", []byte("slots:\n  toppings: {type: list, values: {pepperoni: [salami]}, initial: [salami]}\n"+listFlow), Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	assert.Equal(t, []any{"pepperoni"}, r.Program.Slots[0].Initial, "an initial synonym is stored as its value")
	assert.NotEmpty(t, codeDiags(t, "slots:\n  toppings: {type: list, max_items: 1, initial: [a, b]}\n"+listFlow, diag.CodeInvalidValue),
		"an initial list longer than max_items can never be stored")
}
