package codec

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/vm"
)

// TestListSlotCheckpoint: a list slot's value is read back from a
// checkpoint as a list of strings; a checkpoint of the same program whose
// list holds an item the slot does not declare, or a value that is no
// list, is refused with the slot and the item named.
func TestListSlotCheckpoint(t *testing.T) {
	p := program([]*ir.Slot{{Name: "toppings", Type: ir.TypeList, Values: []ir.Value{{Value: "olives"}, {Value: "pepperoni"}}}}, nil,
		flow("order", nil, collect("ask", "toppings", "Which?")))
	m := newMachine(t, p, vm.Options{})
	st := m.NewState("s")
	st.Slots["toppings"] = []any{"olives", "pepperoni"}
	b, err := m.Encode(st)
	require.NoError(t, err)
	got, err := m.Decode(b)
	require.NoError(t, err)
	assert.Equal(t, []any{"olives", "pepperoni"}, got.Slots["toppings"])

	for _, tc := range []struct{ value, want string }{
		{`["olives", "ham"]`, `slot "toppings": wrong type: item "ham" is not one of the declared values`},
		{`"olives"`, `slot "toppings": wrong type: "olives" is not a list`},
		{`["olives", 3]`, `slot "toppings": wrong type: item "3" is not a string`},
	} {
		bad := strings.Replace(string(b), `["olives", "pepperoni"]`, tc.value, 1)
		require.NotEqual(t, string(b), bad)
		_, err := m.Decode([]byte(bad))
		require.Error(t, err, tc.value)
		assert.Contains(t, err.Error(), tc.want)
	}
}
