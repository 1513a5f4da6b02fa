package llm

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/vm"
)

// listMachine is testdata/lists' program: a pizza's toppings, a list
// slot of declared values with at most 3 items.
func listMachine(t *testing.T) *vm.Machine {
	t.Helper()
	r := compiler.Compile(filepath.Join("..", "..", "testdata", "lists"), compiler.Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	m, err := vm.New(r.Program, vm.Options{})
	require.NoError(t, err)
	return m
}

// TestListSlotPrompt: the prompt describes a list slot (any of its
// values, its item bounds) and says how to write several values, at the
// opening and at the pending question.
func TestListSlotPrompt(t *testing.T) {
	m := listMachine(t)
	p, err := ParsePrompt("")
	require.NoError(t, err)
	today := time.Date(2027, 3, 10, 12, 0, 0, 0, time.UTC)
	st := m.NewState("s")
	at := func(st *vm.State) vm.View { v := m.View(st); v.Now = today; return v }
	idle, err := RenderPrompt(p, at(st), "a pizza with salami and olives", 6, AnswerText)
	require.NoError(t, err)
	assert.Contains(t, idle, "slot toppings (list: any of pepperoni, mushrooms, olives, onions, extra_cheese; pepperoni also said as salami;")
	assert.Contains(t, idle, "at least 1 item; at most 3 items)")
	assert.Contains(t, idle, `- A list slot takes every value the message gives, in one VALUE separated by commas: "pepperoni, mushrooms".`)
	res, err := m.Turn(context.Background(), st, vm.Input{Commands: []vm.Command{{Kind: vm.CmdStartFlow, Flow: "order_pizza"}}, Now: today})
	require.NoError(t, err)
	asking, err := RenderPrompt(p, at(res.State), "salami and olives", 6, AnswerText)
	require.NoError(t, err)
	assert.Contains(t, asking, "- it waits for: slot toppings (list: any of pepperoni, mushrooms, olives, onions, extra_cheese)")

	// A project with no list slot keeps its prompt as it was.
	bank, err := vm.New(banking(t), vm.Options{})
	require.NoError(t, err)
	plain, err := RenderPrompt(p, bank.View(bank.NewState("b")), "hi", 6, AnswerText)
	require.NoError(t, err)
	assert.NotContains(t, plain, "list slot")
}

// TestListSlotValues: the model's value for a list slot is read as an
// answer (values, synonyms, commas), in the line grammar and as JSON
// (a string or a list); several lines for one list slot make one list;
// a list the slot refuses is dropped, or at the slot's own question
// given to the VM, which asks again.
func TestListSlotValues(t *testing.T) {
	m := listMachine(t)
	idle := m.View(m.NewState("s"))
	want := []vm.Command{{Kind: vm.CmdStartFlow, Flow: "order_pizza", Slots: []vm.SlotValue{{Slot: "toppings", Value: []any{"pepperoni", "olives"}}}}}
	for _, answer := range []string{
		"start flow order_pizza\nset slot toppings \"salami, olives\"",
		"start flow order_pizza\nset slot toppings pepperoni\nset slot toppings olives\nset slot toppings salami",
	} {
		raws, _ := ParseCommands(answer)
		cmds, notes := Validate(raws, idle)
		assert.Equal(t, want, cmds, "%s: %v", answer, notes)
	}
	for _, answer := range []string{
		`{"commands": [{"kind": "start_flow", "flow": "order_pizza"}, {"kind": "set_slot", "slot": "toppings", "value": ["salami", "olives"]}]}`,
		`{"commands": [{"kind": "start_flow", "flow": "order_pizza"}, {"kind": "set_slot", "slot": "toppings", "value": "pepperoni and olives"}]}`,
	} {
		raws, _, err := ParseJSONCommands(answer)
		require.NoError(t, err)
		cmds, notes := Validate(raws, idle)
		assert.Equal(t, want, cmds, "%s: %v", answer, notes)
	}
	raws, _ := ParseCommands("start flow order_pizza\nset slot toppings olives\nset slot toppings \"onions, mushrooms, pepperoni\"")
	cmds, notes := Validate(raws, idle)
	assert.Equal(t, []vm.Command{{Kind: vm.CmdStartFlow, Flow: "order_pizza", Slots: []vm.SlotValue{{Slot: "toppings", Value: []any{"olives"}}}}}, cmds)
	assert.Contains(t, strings.Join(notes, "\n"), `slot "toppings" would get more than 3 items`)

	res, err := m.Turn(context.Background(), m.NewState("s"), vm.Input{Commands: []vm.Command{{Kind: vm.CmdStartFlow, Flow: "order_pizza"}}})
	require.NoError(t, err)
	raws, _ = ParseCommands("set slot toppings \"olives, onions, mushrooms and pepperoni\"")
	cmds, _ = Validate(raws, m.View(res.State))
	require.Equal(t, []vm.Command{{Kind: vm.CmdSetSlot, Slot: "toppings", Value: "olives, onions, mushrooms and pepperoni"}}, cmds)
	res, err = m.Turn(context.Background(), res.State, vm.Input{Commands: cmds})
	require.NoError(t, err)
	assert.Equal(t, []string{"Please choose at most 3 toppings.", "Which toppings would you like?"}, res.Replies)
	raws, _ = ParseCommands("set slot toppings mushrooms\nset slot toppings \"extra cheese\"")
	cmds, _ = Validate(raws, m.View(res.State))
	res, err = m.Turn(context.Background(), res.State, vm.Input{Commands: cmds})
	require.NoError(t, err)
	assert.Equal(t, []string{"A pizza with mushrooms and extra cheese."}, res.Replies)
}
