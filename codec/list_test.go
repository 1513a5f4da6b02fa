package codec

import (
	"slices"
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
	m := newMachine(t, listProgram(), vm.Options{})
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

// listProgram has a conversation list slot of two declared values.
func listProgram() *ir.Program {
	return program([]*ir.Slot{{Name: "toppings", Type: ir.TypeList, Values: []ir.Value{{Value: "olives"}, {Value: "pepperoni"}}}}, nil,
		flow("order", nil, collect("ask", "toppings", "Which?")))
}

// FuzzListSlotDecode: whatever the bytes, decoding a checkpoint of a
// program with a list slot never panics, a decoded list holds only the
// slot's declared values, and it encodes to bytes that decode the same.
func FuzzListSlotDecode(f *testing.F) {
	m := newMachine(f, listProgram(), vm.Options{})
	st := m.NewState("s")
	st.Slots["toppings"] = []any{"olives", "pepperoni"}
	b, err := m.Encode(st)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	for _, v := range []string{`[]`, `["olives", "olives"]`, `[["olives"]]`, `{"a": "olives"}`, `[null]`, `"pepperoni"`} {
		f.Add([]byte(strings.Replace(string(b), `["olives", "pepperoni"]`, v, 1)))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := m.Decode(b)
		if err != nil {
			return
		}
		if v, ok := st.Slots["toppings"]; ok {
			items, isList := v.([]any)
			if !isList {
				t.Fatalf("toppings decoded as %T", v)
			}
			for _, it := range items {
				if !slices.Contains([]any{"olives", "pepperoni"}, it) {
					t.Fatalf("toppings holds %#v", it)
				}
			}
		}
		out, err := m.Encode(st)
		if err != nil {
			t.Fatalf("decoded state does not encode: %v", err)
		}
		again, err := m.Decode(out)
		if err != nil {
			t.Fatalf("re-encoded state does not decode: %v", err)
		}
		if out2, _ := m.Encode(again); string(out2) != string(out) {
			t.Fatalf("not stable:\n%s\n%s", out, out2)
		}
	})
}
