package vm

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/ir"
)

// TestHelpSaysWhatTheFlowsDo: help lists the descriptions of the flows a
// message can start (a flow with no trigger is left out, and a flow with
// no description is named), then asks the pending question again.
func TestHelpSaysWhatTheFlowsDo(t *testing.T) {
	ask := flow("ask_name", []*ir.Slot{anySlot("x")}, collect("q", "x", "What is your name?"))
	ask.Triggers = []string{"ask me"}
	pay := flow("pay_bill", nil, say("p", "paid"))
	pay.Description = "Pay a bill."
	pay.Triggers = []string{"pay a bill"}
	hidden := flow("internal", nil, say("i", "internal"))
	hidden.Description = "Never offered"
	m := newMachine(t, program(nil, nil, ask, hidden, pay), Options{})

	res := do(t, m, m.NewState("s"), Command{Kind: CmdHelp})
	assert.Equal(t, []string{"Here is what I can do:\n- ask name\n- Pay a bill"}, res.Replies)
	assert.Nil(t, res.Pending)

	res = do(t, m, m.NewState("s"), start("ask_name"))
	res = do(t, m, res.State, Command{Kind: CmdHelp})
	assert.Equal(t, []string{"Here is what I can do:\n- ask name\n- Pay a bill", "What is your name?"}, res.Replies)
	require.NotNil(t, res.Pending)
	assert.Equal(t, "x", res.Pending.Slot)

	// With nothing a message can start, help says the idle message.
	m = newMachine(t, program(nil, nil, hidden), Options{})
	res = do(t, m, m.NewState("s"), Command{Kind: CmdHelp})
	assert.Equal(t, []string{"How can I help?"}, res.Replies)
}

// clockReader is an understander that reads the message as a date
// against the view's clock, and says it answered.
type clockReader struct{ seen time.Time }

func (c *clockReader) Understand(_ context.Context, msg string, v View) ([]Command, error) {
	c.seen = v.Now
	v.Answer(Understanding{Layer: "rules", Sure: true, Reason: "a test"})
	return []Command{setSlot("day", msg)}, nil
}

// TestInputNowIsTheTurnsClock: Input.Now is when the message was sent:
// the understanding layer sees it, relative dates are read against it
// (also in set_slot's conversion), and the state is stamped with it; the
// zero time means Options.Now. The layer that answered is in the result
// and the trace.
func TestInputNowIsTheTurnsClock(t *testing.T) {
	day := &ir.Slot{Name: "day", Type: ir.TypeDate}
	f := flow("trip", []*ir.Slot{day}, collect("q", "day", "When?"), say("s", "Going on {day}."))
	u := &clockReader{}
	m := newMachine(t, program(nil, nil, f), Options{Understander: u})
	res := do(t, m, m.NewState("s"), start("trip"))

	sent := time.Date(2027, 3, 10, 9, 0, 0, 0, time.UTC) // a Wednesday
	res2, err := m.Turn(context.Background(), res.State, Input{Text: "next friday", Now: sent})
	require.NoError(t, err)
	assert.Equal(t, sent, u.seen)
	assert.Equal(t, []string{"Going on 2027-03-19."}, res2.Replies)
	assert.Equal(t, sent, res2.State.Updated)
	require.NotNil(t, res2.Understood)
	assert.Equal(t, Understanding{Layer: "rules", Sure: true, Reason: "a test"}, *res2.Understood)
	assert.Contains(t, res2.Trace, "understood by rules (sure): a test")

	res3, err := m.Turn(context.Background(), res.State, Input{Text: "tomorrow"})
	require.NoError(t, err)
	assert.Equal(t, testNow, u.seen.UTC(), "no Input.Now: the machine's clock")
	assert.Equal(t, []string{"Going on 2026-01-03."}, res3.Replies)
}

// TestDateOrderSetting: the program's date_order reads an all-numeric
// date that reads both ways; without it the date is refused.
func TestDateOrderSetting(t *testing.T) {
	day := &ir.Slot{Name: "day", Type: ir.TypeDate}
	f := flow("trip", []*ir.Slot{day}, collect("q", "day", "When?"), say("s", "Going on {day}."))
	p := program(nil, nil, f)
	m := newMachine(t, p, Options{})
	res := do(t, m, m.NewState("s"), start("trip"))
	refused := do(t, m, res.State, setSlot("day", "12/04/2026"))
	require.NotNil(t, refused.Pending)
	assert.Contains(t, refused.Replies[0], "could be day/month/year or month/day/year")

	p.Settings.DateOrder = "mdy"
	m = newMachine(t, p, Options{})
	assert.Equal(t, "mdy", string(m.View(nil).DateOrder))
	res = do(t, m, m.NewState("s"), start("trip"))
	res = do(t, m, res.State, setSlot("day", "12/04/2026"))
	assert.Equal(t, []string{"Going on 2026-12-04."}, res.Replies)
}
