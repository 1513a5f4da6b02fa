package vm

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/internal/irtest"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/lexicon"
)

// The IR builders of package irtest, under short names.
type sb = irtest.Step

var (
	step    = irtest.NewStep
	tpl     = irtest.Tpl
	ex      = irtest.Ex
	say     = irtest.Say
	collect = irtest.Collect
	confirm = irtest.Confirm
	set     = irtest.Set
	branch  = irtest.Branch
	while   = irtest.While
	action  = irtest.Action
	link    = irtest.Link
	call    = irtest.Call
	flow    = irtest.Flow
	anySlot = irtest.AnySlot
	program = irtest.Program
)

var testNow = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func fixedNow() time.Time { return testNow }

func newMachine(t testing.TB, p *ir.Program, opts Options) *Machine {
	t.Helper()
	if opts.Now == nil {
		opts.Now = fixedNow
	}
	if opts.Wording == nil {
		opts.Wording = lexicon.Wording{}
	}
	m, err := New(irtest.WithDefaultPatterns(p), opts)
	require.NoError(t, err)
	return m
}

// Shorthand commands.
func start(flow string, slots ...SlotValue) Command {
	return Command{Kind: CmdStartFlow, Flow: flow, Slots: slots}
}

func setSlot(slot string, v any) Command { return Command{Kind: CmdSetSlot, Slot: slot, Value: v} }

func correct(slot string, v any) Command { return Command{Kind: CmdCorrectSlot, Slot: slot, Value: v} }

var (
	affirm   = Command{Kind: CmdAffirm}
	deny     = Command{Kind: CmdDeny}
	cancel   = Command{Kind: CmdCancelFlow}
	fallback = Command{Kind: CmdFallback}
)

// do runs one turn with commands and returns its result.
func do(t testing.TB, m *Machine, st *State, cmds ...Command) *Result {
	t.Helper()
	if cmds == nil {
		cmds = []Command{}
	}
	res, err := m.Turn(context.Background(), st, Input{Commands: cmds})
	require.NoError(t, err)
	return res
}

// eventTypes lists the events of a result as "type flow[/slot|action]".
// eventTypes lists a turn's events as "type flow[/slot|/action]", leaving
// out the patterns' own flows and the slot_reset events of ended flows:
// the tests of the patterns use allEventTypes.
func eventTypes(res *Result) []string {
	var out []string
	for _, e := range allEventTypes(res) {
		if strings.HasPrefix(e, "slot_reset ") || strings.Contains(e, " pattern_") {
			continue
		}
		out = append(out, e)
	}
	return out
}

// userEvents returns a turn's events without the patterns' own flows and
// the slot_reset events of ended flows.
func userEvents(res *Result) []Event {
	var out []Event
	for _, e := range res.Events {
		if e.Type == EventSlotReset || strings.HasPrefix(e.Flow, "pattern_") {
			continue
		}
		out = append(out, e)
	}
	return out
}

// allEventTypes lists every event of a turn as "type flow[/slot|/action]".
func allEventTypes(res *Result) []string {
	var out []string
	for _, e := range res.Events {
		s := string(e.Type) + " " + e.Flow
		switch {
		case e.Slot != "":
			s += "/" + e.Slot
		case e.Action != "":
			s += "/" + e.Action
		}
		out = append(out, s)
	}
	return out
}

// stackOf lists the flows on a state's stack, bottom first.
func stackOf(st *State) []string {
	var out []string
	for _, f := range st.Stack {
		out = append(out, f.Flow+"."+f.Step)
	}
	return out
}
