package values

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/soni-dev/soni/ir"
)

var (
	toppingsSlot = &ir.Slot{Name: "toppings", Type: ir.TypeList, MinItems: 1, MaxItems: 3, Values: []ir.Value{
		{Value: "pepperoni", Synonyms: []string{"salami"}},
		{Value: "mushrooms", Synonyms: []string{"mushroom", "champignons"}},
		{Value: "olives"},
		{Value: "green_peppers", Label: "green peppers", Synonyms: []string{"peppers"}},
		{Value: "cheese"},
		{Value: "extra_cheese", Label: "extra cheese"},
	}}
	guestsSlot = &ir.Slot{Name: "guests", Type: ir.TypeList, MaxItems: 4}
	codesSlot  = &ir.Slot{Name: "codes", Type: ir.TypeList, Pattern: `[A-Z]{3}`, MinItems: 2}
)

func TestConvertList(t *testing.T) {
	runConv(t, []convCase{
		{name: "two values joined by and", slot: toppingsSlot, raw: "pepperoni and mushrooms", want: []any{"pepperoni", "mushrooms"}},
		{name: "commas and and", slot: toppingsSlot, raw: "pepperoni, mushrooms and olives", want: []any{"pepperoni", "mushrooms", "olives"}},
		{name: "in the order written", slot: toppingsSlot, raw: "olives & salami", want: []any{"olives", "pepperoni"}},
		{name: "synonyms and labels give values", slot: toppingsSlot, raw: "Champignons, green peppers please", want: []any{"mushrooms", "green_peppers"}},
		{name: "a longer phrase wins", slot: toppingsSlot, raw: "extra cheese and olives", want: []any{"extra_cheese", "olives"}},
		{name: "the whole answer is one value", slot: toppingsSlot, raw: "extra cheese", want: []any{"extra_cheese"}},
		{name: "a value said twice counts once", slot: toppingsSlot, raw: "salami, pepperoni", want: []any{"pepperoni"}},
		{name: "none named", slot: toppingsSlot, raw: "pineapple", err: `"pineapple" names none of pepperoni, mushrooms, olives, green_peppers, cheese, extra_cheese`, sentinel: ErrNoValue},
		{name: "more than max_items", slot: toppingsSlot, raw: "pepperoni, mushrooms, olives and cheese", sentinel: ErrTooManyItems},
		{name: "too many is invalid", slot: toppingsSlot, raw: "pepperoni, mushrooms, olives and cheese", err: `"pepperoni, mushrooms, olives, cheese" has 4 items, more than 3`, sentinel: ErrInvalid},
		{name: "a list literal", slot: toppingsSlot, raw: []any{"salami", "olives"}, want: []any{"pepperoni", "olives"}},
		{name: "a list of strings", slot: toppingsSlot, raw: []string{"olives"}, want: []any{"olives"}},
		{name: "a list item that is no value", slot: toppingsSlot, raw: []any{"olives", "ham"}, sentinel: ErrNoValue},
		{name: "an empty list is too few", slot: toppingsSlot, raw: []any{}, sentinel: ErrNoValue},
		{name: "a nested list", slot: toppingsSlot, raw: []any{[]any{"olives"}}, sentinel: ErrNoValue},
		{name: "a map", slot: toppingsSlot, raw: map[string]any{"a": "olives"}, sentinel: ErrNoValue},
		{name: "nil", slot: toppingsSlot, raw: nil, sentinel: ErrNoValue},

		{name: "free text split at commas and and", slot: guestsSlot, raw: "Ana, Bob and Carla", want: []any{"Ana", "Bob", "Carla"}},
		{name: "free text with semicolons and a full stop", slot: guestsSlot, raw: " Ana María; Bob. ", want: []any{"Ana María", "Bob"}},
		{name: "one item", slot: guestsSlot, raw: "Ana", want: []any{"Ana"}},
		{name: "a word holding and is not split", slot: guestsSlot, raw: "Sandra and Andy", want: []any{"Sandra", "Andy"}},
		{name: "too many guests", slot: guestsSlot, raw: "a, b, c, d, e", sentinel: ErrTooManyItems},
		{name: "only separators", slot: guestsSlot, raw: " , and ", err: "no items were given", sentinel: ErrNoValue},
		{name: "items must match the pattern", slot: codesSlot, raw: "ABC and XYZ", want: []any{"ABC", "XYZ"}},
		{name: "an item that does not", slot: codesSlot, raw: "ABC, 12", sentinel: ErrInvalid},
		{name: "fewer than min_items", slot: codesSlot, raw: "ABC", err: `"ABC" has 1 item, fewer than 2`, sentinel: ErrTooFewItems},
	})
}

func TestShownList(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want any
	}{
		{[]any{"pepperoni"}, "pepperoni"},
		{[]any{"pepperoni", "green_peppers"}, "pepperoni and green peppers"},
		{[]any{"olives", "extra_cheese", "cheese"}, "olives, extra cheese and cheese"},
		{[]string{"olives", "cheese"}, "olives and cheese"},
		{[]any{}, ""},
		{"olives", "olives"},
		{[]any{1, 2}, []any{1, 2}},
	} {
		assert.Equal(t, tc.want, toppingsSlot.Shown(tc.v))
	}
}
