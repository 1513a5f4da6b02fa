package codec

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/internal/irtest"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/vm"
)

// machine is a VM with its codec, for tests that run turns and write and
// read their checkpoints.
type machine struct {
	*vm.Machine
	*Codec
}

// The IR builders of package irtest, under short names.
var (
	tpl     = irtest.Tpl
	say     = irtest.Say
	collect = irtest.Collect
	confirm = irtest.Confirm
	action  = irtest.Action
	call    = irtest.Call
	flow    = irtest.Flow
	program = irtest.Program
)

var testNow = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func newMachine(t testing.TB, p *ir.Program, opts vm.Options) machine {
	t.Helper()
	if opts.Now == nil {
		opts.Now = func() time.Time { return testNow }
	}
	m, err := vm.New(irtest.WithDefaultPatterns(p), opts)
	require.NoError(t, err)
	return machine{m, New(m)}
}

// Shorthand commands.
func start(flow string) vm.Command { return vm.Command{Kind: vm.CmdStartFlow, Flow: flow} }

func setSlot(slot string, v any) vm.Command {
	return vm.Command{Kind: vm.CmdSetSlot, Slot: slot, Value: v}
}

func correct(slot string, v any) vm.Command {
	return vm.Command{Kind: vm.CmdCorrectSlot, Slot: slot, Value: v}
}

var fallback = vm.Command{Kind: vm.CmdFallback}

// do runs one turn with commands and returns its result.
func do(t testing.TB, m machine, st *vm.State, cmds ...vm.Command) *vm.Result {
	t.Helper()
	if cmds == nil {
		cmds = []vm.Command{}
	}
	res, err := m.Turn(context.Background(), st, vm.Input{Commands: cmds})
	require.NoError(t, err)
	return res
}

// stackOf lists the flows on a state's stack, bottom first.
func stackOf(st *vm.State) []string {
	var out []string
	for _, f := range st.Stack {
		out = append(out, f.Flow+"."+f.Step)
	}
	return out
}

// searchFlights is book_flight's action: a price from the places' names.
func searchFlights(_ context.Context, req vm.ActionRequest) (map[string]any, error) {
	price := int64(100 + 10*len(req.Inputs["origin"].(string)) + len(req.Inputs["destination"].(string)))
	return map[string]any{"price": price}, nil
}
