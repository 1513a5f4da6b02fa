package versions

import (
	"testing"

	"github.com/soni-dev/soni/internal/irtest"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func machine(t *testing.T, askID string, extraSlot bool, replaces ...string) *vm.Machine {
	t.Helper()
	slots := []*ir.Slot{irtest.AnySlot("to"), {Name: "amount", Type: ir.TypeNumber}}
	if extraSlot {
		slots = append(slots, &ir.Slot{Name: "note", Type: ir.TypeText})
	}
	ask := irtest.Collect(askID, "amount", "How much?").With(func(n *ir.Node) { n.Replaces = replaces })
	p := irtest.Program(nil, nil, irtest.Flow("transfer", slots, irtest.Collect("ask_to", "to", "Who to?"), ask, irtest.Say("done", "Sent.")))
	m, err := vm.New(irtest.WithDefaultPatterns(p), vm.Options{})
	require.NoError(t, err)
	return m
}

// pausedAt is a state of m waiting at the amount question.
func pausedAt(m *vm.Machine, step string) *vm.State {
	st := m.NewState("s")
	st.Stack = []vm.Frame{{Flow: "transfer", Step: step, Slots: map[string]any{"to": "Ana"}}}
	st.Pending = &vm.Pending{Kind: vm.PendingCollect, Flow: "transfer", Step: step, Slot: "amount"}
	return st
}

func TestDecide(t *testing.T) {
	v1 := machine(t, "ask_amount", false)
	renamed := machine(t, "ask_the_amount", false)
	withReplaces := machine(t, "ask_the_amount", false, "ask_amount")
	grown := machine(t, "ask_amount", true)
	idle := v1.NewState("s")
	for _, tc := range []struct {
		name    string
		policy  Policy
		st      *vm.State
		running *vm.Machine
		saved   *vm.Machine
		newer   bool
		want    Path
		reason  string
	}{
		{"same version", PolicyFinish, pausedAt(v1, "ask_amount"), v1, v1, false, Same, ""},
		{"idle moves", PolicyFinish, idle, renamed, v1, false, Move, ""},
		{"idle moves under restart", PolicyRestart, idle, renamed, v1, false, Move, ""},
		{"a rename with replaces moves", PolicyFinish, pausedAt(v1, "ask_amount"), withReplaces, v1, false, Move, ""},
		{"a rename finishes", PolicyFinish, pausedAt(v1, "ask_amount"), renamed, v1, false, Finish, `step "ask_amount" of flow "transfer" is gone`},
		{"a slot added finishes", PolicyFinish, pausedAt(v1, "ask_amount"), grown, v1, false, Finish, `flow "transfer" gained slot "note"`},
		{"a rename under upgrade", PolicyUpgrade, pausedAt(v1, "ask_amount"), renamed, v1, false, CodeChange, "version_policy is upgrade"},
		{"compatible under restart", PolicyRestart, pausedAt(v1, "ask_amount"), withReplaces, v1, false, CodeChange, "version_policy is restart"},
		{"version gone, incompatible", PolicyFinish, pausedAt(v1, "ask_amount"), renamed, nil, false, CodeChange, "is not in the store"},
		{"version gone, compatible", PolicyFinish, pausedAt(v1, "ask_amount"), grown, nil, false, Move, ""},
		{"newer version stays", PolicyFinish, pausedAt(renamed, "ask_the_amount"), v1, renamed, true, Stay, "newer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := Decide(tc.policy, tc.st, tc.running, tc.saved, tc.newer)
			assert.Equal(t, tc.want, d.Path)
			assert.Contains(t, d.Reason, tc.reason)
			switch d.Path {
			case Finish, Stay:
				assert.Same(t, tc.saved, d.Run)
			default:
				assert.Same(t, tc.running, d.Run)
			}
		})
	}
}

func TestParsePolicy(t *testing.T) {
	for in, want := range map[string]Policy{"": PolicyFinish, "finish": PolicyFinish, "upgrade": PolicyUpgrade, "restart": PolicyRestart} {
		got, err := ParsePolicy(in)
		require.NoError(t, err)
		assert.Equal(t, want, got)
	}
	_, err := ParsePolicy("rolling")
	assert.EqualError(t, err, `version_policy "rolling" is not one of finish, upgrade, restart`)
}
