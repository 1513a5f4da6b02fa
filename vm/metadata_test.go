package vm

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/soni-dev/soni/ir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSessionMetadata: a turn's metadata is merged into the session's,
// the latest value winning, and shown in the trace.
func TestSessionMetadata(t *testing.T) {
	p := program(nil, nil, flow("f", nil, collect("ask", "x", "X?"), say("done", "ok")))
	m := newMachine(t, p, Options{})
	ctx := context.Background()

	res, err := m.Turn(ctx, m.NewState("s"), Input{Commands: []Command{start("f")}})
	require.NoError(t, err)
	assert.Nil(t, res.State.Metadata)

	res, err = m.Turn(ctx, res.State, Input{Commands: []Command{}, Metadata: map[string]any{"channel": "web", "user": map[string]any{"tier": "gold"}}})
	require.NoError(t, err)
	assert.Contains(t, res.Trace, `metadata: channel: web, user: tier: gold`)
	res, err = m.Turn(ctx, res.State, Input{Commands: []Command{}, Metadata: map[string]any{"channel": "ios"}})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"channel": "ios", "user": map[string]any{"tier": "gold"}}, res.State.Metadata)

	_, err = m.Turn(ctx, res.State, Input{Commands: []Command{}, Metadata: map[string]any{"score": math.NaN()}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "metadata")
	assert.Equal(t, "ios", res.State.Metadata["channel"], "a refused turn changes nothing")
}

// TestMetadataLimits: a message's metadata is refused, as ErrMetadata and
// with nothing changed, when it nests too deep or is too large, and so is
// one that would grow the session's merged metadata past its limit; a
// message within the limits that replaces keys does not grow it.
func TestMetadataLimits(t *testing.T) {
	p := program(nil, nil, flow("f", nil, collect("ask", "x", "X?")))
	m := newMachine(t, p, Options{})
	ctx := context.Background()
	deep := any("leaf")
	for range MaxMetadataDepth {
		deep = []any{deep}
	}
	chunk := strings.Repeat("x", MaxMetadataSize/2)
	tests := []struct {
		name string
		md   map[string]any
		want string
	}{
		{"too deep", map[string]any{"a": deep}, "nests deeper than 16 levels"},
		{"too large", map[string]any{"a": chunk, "b": chunk}, "over the limit of 16384 bytes a message"},
		{"not a number", map[string]any{"a": math.Inf(1)}, "+Inf is not a finite number"},
		{"not JSON", map[string]any{"a": make(chan int)}, "cannot be written as JSON"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := m.NewState("s")
			_, err := m.Turn(ctx, st, Input{Commands: []Command{}, Metadata: tc.md})
			require.ErrorIs(t, err, ErrMetadata)
			assert.Contains(t, err.Error(), tc.want)
			assert.Nil(t, st.Metadata)
		})
	}
	t.Run("session total", func(t *testing.T) {
		st := m.NewState("s")
		n := 0
		var err error
		for ; n < 100; n++ {
			var res *Result
			res, err = m.Turn(ctx, st, Input{Commands: []Command{}, Metadata: map[string]any{fmt.Sprint("k", n): chunk}})
			if err != nil {
				break
			}
			st = res.State
		}
		require.ErrorIs(t, err, ErrMetadata)
		assert.Contains(t, err.Error(), "the session's metadata would be")
		assert.Equal(t, 7, n, "eight chunks of 8 KiB and their keys are over 64 KiB")
		// Replacing a key keeps the session's metadata as large as it was.
		res, err := m.Turn(ctx, st, Input{Commands: []Command{}, Metadata: map[string]any{"k0": "small"}})
		require.NoError(t, err)
		assert.Len(t, res.State.Metadata, n)
		assert.Equal(t, "small", res.State.Metadata["k0"])
	})
}

// TestFlowEventsNameTheirStep: flow_started names the flow's first step,
// flow_completed and flow_cancelled the step the flow was at.
func TestFlowEventsNameTheirStep(t *testing.T) {
	p := program(nil, nil, flow("f", nil, say("hello", "hi"), collect("ask", "x", "X?"), say("done", "ok")))
	m := newMachine(t, p, Options{})
	res := do(t, m, m.NewState("s"), start("f"))
	evs := userEvents(res)
	require.NotEmpty(t, evs)
	assert.Equal(t, Event{Type: EventFlowStarted, Flow: "f", Step: "hello"}, evs[0])
	res = do(t, m, res.State, cancel)
	evs = userEvents(res)
	assert.Equal(t, Event{Type: EventFlowCancelled, Flow: "f", Step: "ask"}, evs[len(evs)-1])
	res = do(t, m, m.NewState("s"), start("f"), setSlot("x", "1"))
	evs = userEvents(res)
	assert.Equal(t, Event{Type: EventFlowCompleted, Flow: "f", Step: "done"}, evs[len(evs)-1])
	assert.Equal(t, []int{4, 4}, res.ReplyEvents, "both replies after pattern_session_start's two events, flow_started and the slot (commands apply first), before the completion")
}

// TestActionIdempotencyKeys: each action call carries
// SESSION/REVISION/FLOW.STEP, with #N for a step's later calls in the
// same turn, so that a remote action can deduplicate a repeated turn.
func TestActionIdempotencyKeys(t *testing.T) {
	p := program(nil, nil, flow("f", []*ir.Slot{{Name: "n", Type: ir.TypeInteger}},
		set("init", "n", int64(0)),
		action("act", "count"),
		set("inc", "n", "=n + 1"),
		branch("again", "n", "<2", "act"),
		say("done", "ok"),
	))
	var keys []string
	m := newMachine(t, p, Options{Actions: ActionFunc(func(_ context.Context, req ActionRequest) (map[string]any, error) {
		keys = append(keys, req.IdempotencyKey)
		return nil, nil
	})})
	res := do(t, m, m.NewState("s9"), start("f"))
	assert.Equal(t, []string{"s9/1/f.act", "s9/1/f.act#2"}, keys)
	keys = nil
	do(t, m, res.State, start("f"))
	assert.Equal(t, []string{"s9/2/f.act", "s9/2/f.act#2"}, keys)
}

// TestSessionExpiration: a conversation idle longer than
// session_expiration starts afresh on its next message, with an event;
// it keeps its conversation slots unless carry_over_slots is false.
func TestSessionExpiration(t *testing.T) {
	for _, drop := range []bool{false, true} {
		p := program([]*ir.Slot{{Name: "tier", Type: ir.TypeText}}, nil,
			flow("f", nil, collect("ask", "x", "X?"), say("done", "ok")))
		p.Settings = ir.DefaultSettings()
		p.Settings.SessionExpiration = "1h0m0s"
		p.Settings.DropSlotsOnExpiry = drop
		now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		m := newMachine(t, p, Options{Now: func() time.Time { return now }})
		res := do(t, m, m.NewState("s"), setSlot("tier", "gold"), start("f"))
		require.NotNil(t, res.Pending)
		now = now.Add(59 * time.Minute)
		res = do(t, m, res.State)
		require.NotNil(t, res.Pending, "59 minutes: still waiting")
		now = now.Add(61 * time.Minute)
		res = do(t, m, res.State)
		assert.Nil(t, res.Pending)
		assert.Empty(t, res.State.Stack)
		require.NotEmpty(t, res.Events)
		assert.Equal(t, EventSessionRestarted, res.Events[0].Type)
		assert.Contains(t, allEventTypes(res), "flow_started pattern_session_start", "the new conversation starts with pattern_session_start")
		assert.Contains(t, res.Trace, "session restarted: idle for 1h1m0s, over session_expiration 1h0m0s")
		if drop {
			assert.NotContains(t, res.State.Slots, "tier")
		} else {
			assert.Equal(t, "gold", res.State.Slots["tier"])
		}
	}
}

// TestChitchatHandoffClarify: small talk gets chitchat_message (and,
// without it, soni's default answers: chitchat_test.go) and the
// question again; a request for a person starts the handoff flow or says
// its message; clarify asks which flow, from their descriptions.
func TestChitchatHandoffClarify(t *testing.T) {
	agent := flow("agent", nil, say("hi", "Connecting you to an agent."))
	ask := flow("ask", nil, collect("q", "x", "X?"))
	ask.Description = "Answer a question"
	pay := flow("pay", nil, say("p", "paid"))
	pay.Description = "Pay a bill."
	p := program(nil, nil, agent, ask, pay)
	p.Settings = ir.DefaultSettings()
	p.Settings.ChitchatMessage = "Nice weather indeed."
	p.Settings.Handoff = "agent"
	m := newMachine(t, p, Options{})
	res := do(t, m, m.NewState("s"), start("ask"))
	res = do(t, m, res.State, Command{Kind: CmdChitchat})
	assert.Equal(t, []string{"Nice weather indeed.", "X?"}, res.Replies)
	res = do(t, m, res.State, Command{Kind: CmdHandoff})
	assert.Equal(t, []string{"Connecting you to an agent.", "X?"}, res.Replies)
	res = do(t, m, m.NewState("s2"), Command{Kind: CmdClarify, Flows: []string{"ask", "pay"}})
	assert.Equal(t, []string{"Did you mean Answer a question or Pay a bill?"}, res.Replies)

	p.Settings.Handoff = "Call us on 555 0100."
	p.Settings.ChitchatMessage = ""
	m = newMachine(t, p, Options{})
	res = do(t, m, m.NewState("s"), Command{Kind: CmdHandoff})
	assert.Equal(t, []string{"Call us on 555 0100."}, res.Replies)
	res = do(t, m, m.NewState("s"), Command{Kind: CmdChitchat})
	assert.Equal(t, []string{"I'm only a virtual assistant, but I'm happy to help with what I can do."}, res.Replies, "no chitchat_message, no kind: a neutral answer, not the fallback")
}

// TestClarifyIsAnsweredLikeACategoricalQuestion: the turn after "Did you
// mean A or B?" reads the message against the flows offered (name,
// description, triggers, position); a message that names none goes to
// the understanding layer as usual; the choices survive a checkpoint and
// last one turn.
func TestClarifyIsAnsweredLikeACategoricalQuestion(t *testing.T) {
	balance := flow("check_balance", nil, say("b", "Your balance is 10."))
	balance.Description = "Check an account's balance"
	transfer := flow("transfer_funds", nil, say("t", "Transferring."))
	transfer.Description = "Send money to someone."
	transfer.Triggers = []string{"send money"}
	p := program(nil, nil, balance, transfer)
	p.Settings = ir.DefaultSettings()
	var asked []string
	u := understandFunc(func(_ context.Context, msg string, v View) ([]Command, error) {
		asked = append(asked, msg)
		return []Command{{Kind: CmdClarify, Flows: []string{"check_balance", "transfer_funds"}}}, nil
	})
	m := newMachine(t, p, Options{Understander: u})
	tests := []struct {
		answer, reply string
	}{
		{"the balance one", "Your balance is 10."},
		{"send money", "Transferring."},
		{"transfer funds", "Transferring."},
		{"the second", "Transferring."},
		{"1", "Your balance is 10."},
		{"the last one", "Transferring."},
		{"Send money to someone", "Transferring."},
		{"hmm, I'm not sure", "Did you mean Check an account's balance or Send money to someone?"},
	}
	for _, tt := range tests {
		t.Run(tt.answer, func(t *testing.T) {
			res, err := m.Turn(context.Background(), m.NewState("s"), Input{Text: "money stuff"})
			require.NoError(t, err)
			assert.Equal(t, []string{"Did you mean Check an account's balance or Send money to someone?"}, res.Replies)
			assert.Equal(t, []string{"check_balance", "transfer_funds"}, res.State.Clarify)
			st := res.State
			asked = nil
			res, err = m.Turn(context.Background(), st, Input{Text: tt.answer})
			require.NoError(t, err)
			assert.Equal(t, []string{tt.reply}, res.Replies)
			if tt.reply == "Transferring." || tt.reply == "Your balance is 10." {
				assert.Empty(t, asked, "the answer is read without the understanding layer")
				assert.Empty(t, res.State.Clarify, "the choices last one turn")
			} else {
				assert.Equal(t, []string{tt.answer}, asked)
			}
		})
	}
	// A checkpoint naming a flow the program no longer has: the question is moot.
	res, err := m.Turn(context.Background(), m.NewState("s"), Input{Text: "x"})
	require.NoError(t, err)
	st := res.State.Clone()
	st.Clarify = []string{"check_balance", "gone"}
	require.NoError(t, m.Resume(st))
	assert.Nil(t, st.Clarify)
	st.Clarify = []string{"check_balance", "transfer_funds"}
	require.NoError(t, m.Resume(st))
	assert.Equal(t, []string{"check_balance", "transfer_funds"}, st.Clarify)
}
