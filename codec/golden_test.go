package codec

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/internal/irtest"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/vm"
)

// update reports whether golden files should be rewritten
// (SONI_UPDATE=1 go test ./...).
func update() bool { return os.Getenv("SONI_UPDATE") != "" }

// checkGolden compares got with testdata/name, or rewrites the file when
// SONI_UPDATE is set.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if update() {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run SONI_UPDATE=1 go test ./vm to create it")
	assert.Equal(t, string(want), string(got), "golden %s differs; SONI_UPDATE=1 rewrites it", path)
}

// TestTranscriptGolden pins whole conversations: per turn the commands,
// replies, events, trace and the checkpoint written after the turn.
func TestTranscriptGolden(t *testing.T) {
	transfer := program([]*ir.Slot{{Name: "balance", Type: ir.TypeAny, Initial: int64(100)}}, nil,
		flow("transfer", []*ir.Slot{irtest.AnySlot("amount"), irtest.AnySlot("to")},
			collect("ask_to", "to", "Who should receive the money?"),
			collect("ask_amount", "amount", "How much?").With(func(n *ir.Node) {
				n.Validator = &ir.Validator{Expr: irtest.Ex("value > 0 AND value <= balance")}
				n.ErrorMessage = tpl("You can send at most {balance}.")
			}),
			confirm("confirm", "amount", "Send {amount} to {to}?"),
			irtest.Set("pay", "balance", "=balance - amount"),
			say("done", "Sent {amount} to {to}. Balance: {balance}."),
		),
		flow("check_balance", nil, say("tell", "Your balance is {balance}.")),
	)
	transfer.Settings.HistorySize = 4
	toppings := &ir.Slot{Name: "toppings", Type: ir.TypeList, MaxItems: 3, Values: []ir.Value{
		{Value: "pepperoni", Synonyms: []string{"salami"}}, {Value: "olives"}, {Value: "extra_cheese", Label: "extra cheese"},
	}}
	pizza := program(nil, nil,
		flow("order_pizza", []*ir.Slot{toppings},
			collect("ask_toppings", "toppings", "Which toppings?"),
			confirm("confirm", "toppings", "A pizza with {toppings}?"),
			say("done", "Ordered: {toppings}."),
		),
	)
	tests := []struct {
		name  string
		p     *ir.Program
		opts  vm.Options
		turns [][]vm.Command
	}{
		{"book_flight", irtest.BookFlight(), vm.Options{Actions: vm.ActionFunc(searchFlights)}, benchTurns},
		{"transfer", transfer, vm.Options{}, [][]vm.Command{
			{start("transfer")},
			{setSlot("to", "Ana")},
			{setSlot("amount", int64(500))},
			{start("check_balance")},
			{setSlot("amount", int64(50))},
			{correct("amount", int64(60))},
			{{Kind: vm.CmdAffirm}},
		}},
		// A list slot's value is a JSON list of its values in the
		// checkpoint, and a message shows it as a sentence.
		{"list_slot", pizza, vm.Options{}, [][]vm.Command{
			{start("order_pizza")},
			{setSlot("toppings", "salami, olives, olives and more olives")},
			{correct("toppings", []any{"olives", "extra_cheese"})},
			{{Kind: vm.CmdAffirm}},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newMachine(t, tc.p, tc.opts)
			st := m.NewState(tc.name)
			var out strings.Builder
			for i, cmds := range tc.turns {
				res, err := m.Turn(context.Background(), st, vm.Input{Text: fmt.Sprintf("message %d", i+1), Commands: cmds})
				require.NoError(t, err)
				fmt.Fprintf(&out, "=== turn %d\n", i+1)
				for _, part := range []struct {
					name string
					v    any
				}{{"commands", res.Commands}, {"replies", res.Replies}, {"events", res.Events}, {"pending", res.Pending}} {
					j, err := json.Marshal(part.v)
					require.NoError(t, err)
					fmt.Fprintf(&out, "%s: %s\n", part.name, j)
				}
				fmt.Fprintf(&out, "trace:\n  %s\n", strings.Join(res.Trace, "\n  "))
				b, err := m.Encode(res.State)
				require.NoError(t, err)
				fmt.Fprintf(&out, "checkpoint:\n%s", b)
				st, err = m.Decode(b)
				require.NoError(t, err)
			}
			checkGolden(t, tc.name+".golden", []byte(out.String()))
		})
	}
}
