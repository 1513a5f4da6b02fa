package vm

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/values"
)

// TestListInvalid: the default invalid message of a list slot says what
// was wrong with the answer, names the items by the slot's label, and
// never shows the slot's name.
func TestListInvalid(t *testing.T) {
	toppings := &ir.Slot{Name: "toppings", Type: ir.TypeList, Label: "toppings", MinItems: 2, MaxItems: 3,
		Values: []ir.Value{{Value: "olives"}, {Value: "extra_cheese", Label: "extra cheese"}}}
	guests := &ir.Slot{Name: "guests", Type: ir.TypeList, MaxItems: 1}
	pair := &ir.Slot{Name: "pair", Type: ir.TypeList, MaxItems: 2}
	described := &ir.Slot{Name: "guests", Type: ir.TypeList, Description: "the names of the guests"}
	convert := func(s *ir.Slot, raw any) error {
		_, err := values.Convert(s, raw)
		require.Error(t, err)
		return err
	}
	for _, tc := range []struct {
		slot *ir.Slot
		err  error
		want string
	}{
		{toppings, convert(toppings, "olives, olives and more olives"), "Please choose at least 2 toppings."},
		{toppings, convert(toppings, []any{"olives", "a", "b", "c"}), "Please choose one or more of: olives, extra cheese."},
		{toppings, errors.New("value fails the validation"), "Please choose one or more of: olives, extra cheese."},
		{pair, convert(pair, "Ana, Bob and Carla"), "Please give at most 2 items."},
		{guests, convert(guests, "Ana and Bob"), "Please give just one."},
		{described, convert(described, " , "), "Sorry, I couldn't use that. I need: the names of the guests."},
		{&ir.Slot{Name: "guests", Type: ir.TypeList}, convert(&ir.Slot{Name: "guests", Type: ir.TypeList}, nil), "Please give one or more items, separated by commas."},
	} {
		assert.Equal(t, tc.want, listInvalid(tc.slot, tc.err))
	}
}
