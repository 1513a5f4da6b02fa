package vm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/internal/irtest"
	"github.com/soni-dev/soni/internal/jsonval"
	"github.com/soni-dev/soni/ir"
)

// bookFlight is the reference flow of the speed targets.
var bookFlight = irtest.BookFlight

func searchFlights(_ context.Context, req ActionRequest) (map[string]any, error) {
	price := int64(100 + 10*len(req.Inputs["origin"].(string)) + len(req.Inputs["destination"].(string)))
	return map[string]any{"price": price}, nil
}

func TestBookFlight(t *testing.T) {
	m := newMachine(t, bookFlight(), Options{Actions: ActionFunc(searchFlights)})
	st := m.NewState("s1")
	turns := []struct {
		cmds    []Command
		replies []string
		events  []string
		pending string
	}{
		{[]Command{start("book_flight")}, []string{"Welcome", "Where from?"}, []string{"flow_started book_flight"}, "origin"},
		{[]Command{setSlot("origin", " Paris ")}, []string{"Where to?"}, []string{"slot_set book_flight/origin"}, "destination"},
		{[]Command{setSlot("destination", "Berlin")}, []string{"What date?"}, []string{"slot_set book_flight/destination"}, "date"},
		{[]Command{setSlot("date", "2026-03-01")}, []string{"Found a flight from Paris to Berlin on 2026-03-01 for 156"},
			[]string{"slot_set book_flight/date", "action_executed book_flight/search_flights", "slot_set book_flight/price", "flow_completed book_flight"}, ""},
	}
	for i, tc := range turns {
		res := do(t, m, st, tc.cmds...)
		assert.Equal(t, tc.replies, res.Replies, "turn %d", i)
		assert.Equal(t, tc.events, eventTypes(res), "turn %d", i)
		if tc.pending == "" {
			assert.Nil(t, res.Pending, "turn %d", i)
		} else if assert.NotNil(t, res.Pending, "turn %d", i) {
			assert.Equal(t, tc.pending, res.Pending.Slot)
			assert.Equal(t, PendingCollect, res.Pending.Kind)
		}
		assert.Equal(t, uint64(i+1), res.State.Revision)
		st = res.State
	}
	assert.Empty(t, st.Stack, "the flow completed, its slots went with it")
	// The last turn's slot_set event carries old and new values.
	res := do(t, m, st)
	assert.Equal(t, []string{"How can I help?"}, res.Replies, "idle message with no active flow")
}

func TestSlotSetEventCarriesOldAndNew(t *testing.T) {
	p := program([]*ir.Slot{anySlot("name")}, nil, flow("f", nil, collect("ask", "name", "Name?"), say("hi", "Hi {name}")))
	m := newMachine(t, p, Options{})
	st := m.NewState("s")
	res := do(t, m, st, setSlot("name", "Ana"))
	require.Len(t, userEvents(res), 1)
	assert.Equal(t, Event{Type: EventSlotSet, Slot: "name", Old: nil, New: "Ana"}, userEvents(res)[0])
	res = do(t, m, res.State, correct("name", "Eva"))
	require.Len(t, userEvents(res), 1)
	assert.Equal(t, Event{Type: EventSlotSet, Slot: "name", Old: "Ana", New: "Eva"}, userEvents(res)[0])
	assert.Equal(t, []string{"How can I help?"}, res.Replies)
}

func TestIdleAndCancelWithEmptyStack(t *testing.T) {
	m := newMachine(t, program(nil, nil, flow("f", nil, say("a", "A"))), Options{})
	tests := []struct {
		name string
		cmds []Command
		want []string
	}{
		{"no commands", nil, []string{"How can I help?"}},
		{"fallback", []Command{fallback}, []string{"How can I help?"}},
		{"cancel with empty stack", []Command{cancel}, []string{"How can I help?"}},
		{"affirm with nothing pending", []Command{affirm}, []string{"How can I help?"}},
		{"flow that only says", []Command{start("f")}, []string{"A"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := do(t, m, m.NewState("s"), tc.cmds...)
			assert.Equal(t, tc.want, res.Replies)
			assert.Empty(t, res.State.Stack)
		})
	}
}

func TestNoUnderstanderIsFallback(t *testing.T) {
	p := program(nil, nil, flow("f", nil, collect("ask", "x", "X?")))
	m := newMachine(t, p, Options{})
	st := do(t, m, m.NewState("s"), start("f")).State
	res, err := m.Turn(context.Background(), st, Input{Text: "blah"})
	require.NoError(t, err)
	assert.Equal(t, []string{"Sorry, I didn't understand that.", "X?"}, res.Replies)
	assert.Equal(t, []Command{{Kind: CmdFallback}}, res.Commands)
}

type understandFunc func(ctx context.Context, msg string, v View) ([]Command, error)

func (f understandFunc) Understand(ctx context.Context, msg string, v View) ([]Command, error) {
	return f(ctx, msg, v)
}

func TestUnderstanderSeesView(t *testing.T) {
	p := program(nil, nil, flow("f", nil, collect("ask", "x", "X?"), say("done", "got {x}")))
	var seen View
	u := understandFunc(func(_ context.Context, msg string, v View) ([]Command, error) {
		seen = v
		if msg == "boom" {
			return nil, errors.New("model down")
		}
		if v.Pending != nil {
			return []Command{setSlot(v.Pending.Slot, msg)}, nil
		}
		return []Command{start("f")}, nil
	})
	m := newMachine(t, p, Options{Understander: u})
	res, err := m.Turn(context.Background(), m.NewState("s"), Input{Text: "go"})
	require.NoError(t, err)
	assert.Equal(t, []string{"X?"}, res.Replies)
	st := res.State
	_, err = m.Turn(context.Background(), st, Input{Text: "boom"})
	require.ErrorContains(t, err, "model down")
	assert.Equal(t, []string{"f"}, seen.Stack)
	require.NotNil(t, seen.Pending)
	res, err = m.Turn(context.Background(), st, Input{Text: "forty"})
	require.NoError(t, err)
	assert.Equal(t, []string{"got forty"}, res.Replies)
}

func TestCollect(t *testing.T) {
	slots := []*ir.Slot{anySlot("name")}
	tests := []struct {
		name  string
		steps []*sb
		turns [][]Command
		want  [][]string
	}{
		{
			name:  "filled slot is skipped",
			steps: []*sb{set("pre", "name", "Ana"), collect("ask", "name", "Name?"), say("hi", "Hi {name}")},
			turns: [][]Command{{start("f")}},
			want:  [][]string{{"Hi Ana"}},
		},
		{
			name:  "force asks even when filled",
			steps: []*sb{set("pre", "name", "Ana"), collect("ask", "name", "Name?").With(func(n *ir.Node) { n.Force = true }), say("hi", "Hi {name}")},
			turns: [][]Command{{start("f")}, {setSlot("name", "Eva")}},
			want:  [][]string{{"Name?"}, {"Hi Eva"}},
		},
		{
			name: "set null clears and the next collect asks again",
			steps: []*sb{collect("ask", "name", "Name?"), say("hi", "Hi {name}"), set("clear", "name", nil),
				collect("again", "name", "Name again?"), say("bye", "Bye {name}")},
			turns: [][]Command{{start("f")}, {setSlot("name", "Ana")}, {setSlot("name", "Eva")}},
			want:  [][]string{{"Name?"}, {"Hi Ana", "Name again?"}, {"Bye Eva"}},
		},
		{
			name:  "answer for another slot keeps the question",
			steps: []*sb{collect("ask", "name", "Name?"), collect("ask2", "city", "City?"), say("hi", "{name} from {city}")},
			turns: [][]Command{{start("f")}, {setSlot("city", "Rome")}, {setSlot("name", "Ana")}},
			want:  [][]string{{"Name?"}, {"Name?"}, {"Ana from Rome"}},
		},
		{
			name:  "fallback re-asks",
			steps: []*sb{collect("ask", "name", "Name?"), say("hi", "Hi {name}")},
			turns: [][]Command{{start("f")}, {fallback}, {}},
			want:  [][]string{{"Name?"}, {"Sorry, I didn't understand that.", "Name?"}, {"Name?"}},
		},
		{
			name:  "start_flow with slots fills them",
			steps: []*sb{collect("ask", "name", "Name?"), say("hi", "Hi {name}")},
			turns: [][]Command{{start("f", SlotValue{Slot: "name", Value: "Ana"})}},
			want:  [][]string{{"Hi Ana"}},
		},
		{
			name: "a slot set to a blank text is asked for",
			steps: []*sb{set("pre", "name", "", "city", "{nobody}"), collect("ask", "name", "Name?"), collect("ask2", "city", "City?"),
				say("hi", "{name} from {city}")},
			turns: [][]Command{{start("f")}, {setSlot("name", "Ana")}, {setSlot("city", "Rome")}},
			want:  [][]string{{"Name?"}, {"City?"}, {"Ana from Rome"}},
		},
		{
			name:  "a blank answer fills nothing",
			steps: []*sb{collect("ask", "name", "Name?"), say("hi", "Hi {name}")},
			turns: [][]Command{{start("f")}, {setSlot("name", "   ")}, {setSlot("name", "Ana")}},
			want:  [][]string{{"Name?"}, {"Sorry, I couldn't use that answer.", "Name?"}, {"Hi Ana"}},
		},
		{
			name: "the email validator takes the address inside the answer",
			steps: []*sb{collect("ask", "name", "Email?").With(func(n *ir.Node) { n.Validator = &ir.Validator{Builtin: "email"} }),
				say("hi", "Mail to {name}")},
			turns: [][]Command{{start("f")}, {setSlot("name", "two: a@b.co and c@d.co")}, {setSlot("name", "no address")},
				{setSlot("name", "my email is Ana.G@example.com, thanks")}},
			want: [][]string{{"Email?"}, {"Sorry, I couldn't use that answer.", "Email?"}, {"Sorry, I couldn't use that answer.", "Email?"},
				{"Mail to Ana.G@example.com"}},
		},
		{
			name:  "starting the flow on top again does nothing",
			steps: []*sb{say("a", "Hello"), collect("ask", "name", "Name?"), say("hi", "Hi {name}")},
			turns: [][]Command{{start("f")}, {start("f")}, {setSlot("name", "Ana")}},
			want:  [][]string{{"Hello", "Name?"}, {"Name?"}, {"Hi Ana"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newMachine(t, program(nil, nil, flow("f", slots, tc.steps...)), Options{})
			st := m.NewState("s")
			for i, cmds := range tc.turns {
				res := do(t, m, st, cmds...)
				assert.Equal(t, tc.want[i], res.Replies, "turn %d", i)
				st = res.State
			}
		})
	}
}

func TestInvalidValueIsNeverStored(t *testing.T) {
	age := &ir.Slot{Name: "age", Type: ir.TypeAny, Validation: ex("value != 'bad'")}
	withMsg := &ir.Slot{Name: "age", Type: ir.TypeAny, Validation: ex("value != 'bad'"), InvalidMessage: tpl("Age must be good, {who}.")}
	tests := []struct {
		name    string
		slot    *ir.Slot
		collect *sb
		value   any
		want    []string
	}{
		{"slot validation, default message", age, collect("ask", "age", "Age?"), "bad", []string{"Sorry, I couldn't use that answer.", "Age?"}},
		{"slot invalid_message", withMsg, collect("ask", "age", "Age?"), "bad", []string{"Age must be good, Bo.", "Age?"}},
		{"validation_error_message wins", withMsg, collect("ask", "age", "Age?").With(func(n *ir.Node) { n.ErrorMessage = tpl("No way.") }), "bad", []string{"No way.", "Age?"}},
		{"builtin not_empty", age, collect("ask", "age", "Age?").With(func(n *ir.Node) { n.Validator = &ir.Validator{Builtin: "not_empty"} }), "  ", []string{"Sorry, I couldn't use that answer.", "Age?"}},
		{"builtin email", age, collect("ask", "age", "Age?").With(func(n *ir.Node) { n.Validator = &ir.Validator{Builtin: "email"} }), "nope", []string{"Sorry, I couldn't use that answer.", "Age?"}},
		{"builtin positive", age, collect("ask", "age", "Age?").With(func(n *ir.Node) { n.Validator = &ir.Validator{Builtin: "positive"} }), -3, []string{"Sorry, I couldn't use that answer.", "Age?"}},
		{"expression validator sees other slots", age, collect("ask", "age", "Age?").With(func(n *ir.Node) { n.Validator = &ir.Validator{Expr: ex("value != who")} }), "Bo", []string{"Sorry, I couldn't use that answer.", "Age?"}},
		{"expression validator AND", age, collect("ask", "age", "Age?").With(func(n *ir.Node) { n.Validator = &ir.Validator{Expr: ex("value > 0 AND value < 130")} }), 200, []string{"Sorry, I couldn't use that answer.", "Age?"}},
		{"expression error is false", age, collect("ask", "age", "Age?").With(func(n *ir.Node) { n.Validator = &ir.Validator{Expr: ex("value > 0")} }), "ten", []string{"Sorry, I couldn't use that answer.", "Age?"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := program(nil, nil, flow("f", []*ir.Slot{tc.slot, anySlot("who")}, set("who", "who", "Bo"), tc.collect, say("ok", "ok {age}")))
			m := newMachine(t, p, Options{})
			st := do(t, m, m.NewState("s"), start("f")).State
			res := do(t, m, st, setSlot("age", tc.value))
			assert.Equal(t, tc.want, res.Replies)
			assert.NotContains(t, res.State.Stack[0].Slots, "age")
			for _, e := range res.Events {
				assert.NotEqual(t, EventSlotSet, e.Type)
			}
			require.NotNil(t, res.Pending)
			assert.Equal(t, 1, res.Pending.Attempts)
		})
	}
	t.Run("valid value passes the same checks", func(t *testing.T) {
		p := program(nil, nil, flow("f", []*ir.Slot{age}, collect("ask", "age", "Age?").With(func(n *ir.Node) {
			n.Validator = &ir.Validator{Expr: ex("value > 0 AND NOT (value > 130) OR value == 999")}
		}), say("ok", "ok {age}")))
		m := newMachine(t, p, Options{})
		st := do(t, m, m.NewState("s"), start("f")).State
		assert.Equal(t, []string{"ok 42"}, do(t, m, st, setSlot("age", 42)).Replies)
	})
}

func TestMaxAttempts(t *testing.T) {
	mk := func(onInvalid string) *Machine {
		c := collect("ask", "x", "X?").With(func(n *ir.Node) {
			n.Validator = &ir.Validator{Builtin: "email"}
			n.MaxAttempts = 2
		})
		c.OnInvalid = onInvalid
		return newMachine(t, program(nil, nil, flow("f", nil, c, say("ok", "ok"), say("giveup", "Let's stop here."))), Options{})
	}
	t.Run("on_invalid", func(t *testing.T) {
		m := mk("giveup")
		st := do(t, m, m.NewState("s"), start("f")).State
		res := do(t, m, st, setSlot("x", "a"))
		assert.Equal(t, []string{"Sorry, I couldn't use that answer.", "X?"}, res.Replies)
		res = do(t, m, res.State, setSlot("x", "b"))
		assert.Equal(t, []string{"Sorry, I couldn't use that answer.", "Let's stop here."}, res.Replies)
		assert.Empty(t, res.State.Stack)
		assert.Equal(t, []string{"flow_completed f"}, eventTypes(res))
	})
	t.Run("no on_invalid cancels", func(t *testing.T) {
		m := mk("")
		st := do(t, m, m.NewState("s"), start("f")).State
		st = do(t, m, st, setSlot("x", "a")).State
		res := do(t, m, st, setSlot("x", "b"))
		assert.Equal(t, []string{"Sorry, I couldn't use that answer.", "Okay, I've cancelled that."}, res.Replies)
		assert.Equal(t, []string{"flow_cancelled f"}, eventTypes(res))
	})
}

func TestSetStep(t *testing.T) {
	slots := []*ir.Slot{anySlot("a"), anySlot("b"), anySlot("c")}
	tests := []struct {
		name  string
		steps []*sb
		want  string
	}{
		{"literal and template", []*sb{set("s", "a", "x", "b", "{a}-y"), say("out", "{a} {b}")}, "x x-y"},
		{"later entries see earlier ones", []*sb{set("s", "a", int64(2), "b", "=a * 3", "c", "=b + a"), say("out", "{a} {b} {c}")}, "2 6 8"},
		{"condition false skips", []*sb{set("s", "a", "no").Cond("1 > 2"), say("out", "[{a}]")}, "[]"},
		{"condition true assigns", []*sb{set("s", "a", "yes").Cond("1 < 2 AND NOT false"), say("out", "[{a}]")}, "[yes]"},
		{"expression error assigns nothing", []*sb{set("s", "a", "=b > 1"), say("out", "[{a}]")}, "[]"},
		{"slots map", []*sb{set("s", "a", int64(4), "b", "=slots.a + 1"), say("out", "{b}")}, "5"},
		{"clear", []*sb{set("s", "a", "x"), set("s2", "a", nil), say("out", "[{a}]")}, "[]"},
		{"float prints shortest", []*sb{set("s", "a", "=10 / 4"), say("out", "{a}")}, "2.5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newMachine(t, program(nil, nil, flow("f", slots, tc.steps...)), Options{})
			res := do(t, m, m.NewState("s"), start("f"))
			assert.Equal(t, []string{tc.want}, res.Replies)
		})
	}
}

func TestExpressionErrorTraced(t *testing.T) {
	m := newMachine(t, program(nil, nil, flow("f", []*ir.Slot{anySlot("age")}, set("s", "x", "y").Cond("age > 18"), say("out", "done"))), Options{})
	res := do(t, m, m.NewState("s"), start("f"))
	assert.Equal(t, []string{"done"}, res.Replies)
	found := false
	for _, l := range res.Trace {
		if strings.Contains(l, "f.s: expression error, treated as false") {
			found = true
		}
	}
	assert.True(t, found, "trace: %q", res.Trace)
}

func TestMatchPattern(t *testing.T) {
	tests := []struct {
		pattern string
		value   any
		want    bool
	}{
		{"default", nil, true},
		{">5", int64(6), true},
		{">5", int64(5), false},
		{">=5", 5.0, true},
		{"<5", 4.5, true},
		{"<= 5", int64(6), false},
		// A string that holds a plain number (an untyped slot filled by a
		// collect) compares as that number.
		{">5", "6", true},
		{">=18", " 25 ", true},
		{"<18", "25", false},
		{"<=0", "-3", true},
		{">1", "1.5", true},
		{"==5", "5.0", true},
		{"5", "5.0", true},
		{"!=5", "5", false},
		{"<1", ".5", true},
		// Anything else in the text keeps it text.
		{">5", "6 apples", false},
		{">5", "1e3", false},
		{">5", "Inf", false},
		{">5", "0x10", false},
		{"==5", "five", false},
		{"!=5", "6 apples", true},
		{">5", nil, false},
		{">x", int64(6), false},
		{"==gold", "gold", true},
		{"==5", 5.0, true},
		{"==5.0", int64(5), true},
		{"!=gold", "silver", true},
		{"!=gold", "gold", false},
		{"true", true, true},
		{"false", true, false},
		{"false", false, true},
		{"gold", "gold", true},
		{"gold", "Gold", false},
		{"12.5", 12.5, true},
		{"1200", 1200.0, true},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s/%v", tc.pattern, tc.value), func(t *testing.T) {
			assert.Equal(t, tc.want, matchPattern(tc.pattern, tc.value))
		})
	}
}

func TestBranch(t *testing.T) {
	steps := func(b *sb) []*sb {
		return []*sb{b, say("none", "none").To(ir.EndStep), say("big", "big").To(ir.EndStep), say("small", "small").To(ir.EndStep)}
	}
	tests := []struct {
		name  string
		b     *sb
		value any
		want  []string
	}{
		{"first match wins", branch("b", "n", ">10", "big", ">5", "small", "default", "none"), int64(20), []string{"big"}},
		{"order matters", branch("b", "n", ">5", "small", ">10", "big"), int64(20), []string{"small"}},
		{"default", branch("b", "n", ">10", "big", "default", "none"), int64(1), []string{"none"}},
		{"no match continues", branch("b", "n", ">10", "big"), int64(1), []string{"none"}},
		{"evaluate", casesOf(step("b", ir.KindBranch).With(func(n *ir.Node) { n.Evaluate = ex("n > 3 OR n < -3") }), "true", "big", "false", "small"), int64(-4), []string{"big"}},
		{"evaluate error is false", casesOf(step("b", ir.KindBranch).With(func(n *ir.Node) { n.Evaluate = ex("n > 3") }), "true", "big", "false", "small"), "x", []string{"small"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newMachine(t, program(nil, nil, flow("f", []*ir.Slot{anySlot("n")}, steps(tc.b)...)), Options{})
			res := do(t, m, m.NewState("s"), start("f", SlotValue{Slot: "n", Value: tc.value}))
			assert.Equal(t, tc.want, res.Replies)
		})
	}
}

func casesOf(s *sb, pairs ...string) *sb {
	for i := 0; i+1 < len(pairs); i += 2 {
		s.Cases = append(s.Cases, [2]string{pairs[i], pairs[i+1]})
	}
	return s
}

func TestWhileIterates(t *testing.T) {
	p := program(nil, nil, flow("f", []*ir.Slot{anySlot("n")},
		set("init", "n", int64(0)),
		while("loop", "n < 3", "tick", "done"),
		say("tick", "tick {n}"),
		set("inc", "n", "=n + 1").To("loop"),
		say("done", "done at {n}"),
	))
	m := newMachine(t, p, Options{})
	res := do(t, m, m.NewState("s"), start("f"))
	assert.Equal(t, []string{"tick 0", "tick 1", "tick 2", "done at 3"}, res.Replies)
}

func TestLinkReplacesAndDoesNotStack(t *testing.T) {
	p := program(nil, nil,
		flow("a", []*ir.Slot{anySlot("x")}, set("s", "x", "from a"), link("go", "b"), say("never", "never")),
		flow("b", []*ir.Slot{anySlot("y")}, say("hi", "in b [{x}]"), collect("ask", "y", "Y?"), say("bye", "b done {y}")),
		flow("main", nil, collect("ask", "z", "Z?"), say("end", "main done")),
	)
	m := newMachine(t, p, Options{})
	res := do(t, m, m.NewState("s"), start("a"))
	assert.Equal(t, []string{"in b []", "Y?"}, res.Replies, "a's flow slots are not visible in b")
	assert.Equal(t, []string{"b.ask"}, stackOf(res.State))
	assert.Equal(t, []string{"flow_started a", "slot_set a/x", "flow_completed a", "flow_started b"}, eventTypes(res))
	res = do(t, m, res.State, setSlot("y", "1"))
	assert.Equal(t, []string{"b done 1"}, res.Replies)
	assert.Empty(t, res.State.Stack)

	// Linked from a digression: control returns to the flow below.
	st := do(t, m, m.NewState("s"), start("main")).State
	res = do(t, m, st, start("a"))
	assert.Equal(t, []string{"in b []", "Y?"}, res.Replies)
	assert.Equal(t, []string{"main.ask", "b.ask"}, stackOf(res.State))
	res = do(t, m, res.State, setSlot("y", "1"))
	assert.Equal(t, []string{"b done 1", "Z?"}, res.Replies)
}

func TestCallReturnsToStepAfter(t *testing.T) {
	p := program(nil, nil,
		flow("main", []*ir.Slot{anySlot("x")}, set("s", "x", "mine"), call("c", "sub"), say("after", "back [{x}]")),
		flow("sub", []*ir.Slot{anySlot("x")}, say("in", "sub sees [{x}]"), collect("ask", "x", "X?"), say("out", "sub got {x}")),
	)
	m := newMachine(t, p, Options{})
	res := do(t, m, m.NewState("s"), start("main"))
	assert.Equal(t, []string{"sub sees []", "X?"}, res.Replies, "a called flow has fresh flow slots")
	assert.Equal(t, []string{"main.c", "sub.ask"}, stackOf(res.State))
	assert.True(t, res.State.Stack[0].AfterCall)
	res = do(t, m, res.State, setSlot("x", "theirs"))
	assert.Equal(t, []string{"sub got theirs", "back [mine]"}, res.Replies)
	assert.Equal(t, []string{"slot_set sub/x", "flow_completed sub", "flow_completed main"}, eventTypes(res))

	t.Run("cancelling a called flow cancels its caller", func(t *testing.T) {
		st := do(t, m, m.NewState("s"), start("main")).State
		res := do(t, m, st, cancel)
		assert.Equal(t, []string{"Okay, I've cancelled that."}, res.Replies, "the caller must not go on after an unfinished call")
		assert.Empty(t, res.State.Stack)
		assert.Equal(t, []string{"flow_cancelled sub", "flow_cancelled main"}, eventTypes(res))
	})

	t.Run("call as the last step ends the caller too", func(t *testing.T) {
		p := program(nil, nil, flow("main", nil, say("a", "a"), call("c", "sub")), flow("sub", nil, say("s", "s")))
		m := newMachine(t, p, Options{})
		res := do(t, m, m.NewState("s"), start("main"))
		assert.Equal(t, []string{"a", "s"}, res.Replies)
		assert.Empty(t, res.State.Stack)
	})
}

func TestDigressionReasksInSameTurn(t *testing.T) {
	p := program([]*ir.Slot{anySlot("balance")}, nil,
		flow("transfer", []*ir.Slot{anySlot("amount")}, collect("ask", "amount", "How much? (balance {balance})"), say("done", "Sent {amount}")),
		flow("check", nil, set("s", "balance", int64(1234)), say("say", "Your balance is {balance}.")),
		flow("ask_name", []*ir.Slot{anySlot("n")}, collect("ask", "n", "Name?"), say("hi", "Hi {n}")),
	)
	m := newMachine(t, p, Options{})
	st := do(t, m, m.NewState("s"), start("transfer")).State
	res := do(t, m, st, start("check"))
	assert.Equal(t, []string{"Your balance is 1234.", "How much? (balance 1234)"}, res.Replies, "re-rendered prompt")
	assert.Equal(t, []string{"transfer.ask"}, stackOf(res.State))
	require.NotNil(t, res.Pending)
	assert.Equal(t, "transfer", res.Pending.Flow)

	// A digression that waits itself: the interrupted flow asks after it ends.
	res = do(t, m, res.State, start("ask_name"))
	assert.Equal(t, []string{"Name?"}, res.Replies)
	assert.Equal(t, []string{"transfer.ask", "ask_name.ask"}, stackOf(res.State))
	res = do(t, m, res.State, setSlot("n", "Ana"))
	assert.Equal(t, []string{"Hi Ana", "How much? (balance 1234)"}, res.Replies)
	res = do(t, m, res.State, setSlot("amount", int64(5)))
	assert.Equal(t, []string{"Sent 5"}, res.Replies)

	// Cancelling the digression returns to the interrupted question.
	st = do(t, m, m.NewState("s"), start("transfer")).State
	st = do(t, m, st, start("ask_name")).State
	res = do(t, m, st, cancel)
	assert.Equal(t, []string{"Okay, I've cancelled that.", "How much? (balance )"}, res.Replies)
	assert.Equal(t, []string{"flow_cancelled ask_name"}, eventTypes(res))
}

func TestConfirm(t *testing.T) {
	mk := func(c *sb) *Machine {
		return newMachine(t, program(nil, nil, flow("f", []*ir.Slot{anySlot("amount"), anySlot("to")},
			collect("ask", "amount", "How much?"),
			c,
			say("next", "Sending {amount} to {to}.").To(ir.EndStep),
			say("yes", "Confirmed {amount}.").To(ir.EndStep),
			say("no", "Not sent.").To(ir.EndStep),
		)), Options{})
	}
	plain := func() *sb { return confirm("conf", "amount", "") }
	custom := func() *sb { return confirm("conf", "amount", "Send {amount} to {to}?") }
	routed := func() *sb { c := confirm("conf", "amount", ""); c.OnConfirm, c.OnDeny = "yes", "no"; return c }
	tests := []struct {
		name   string
		c      func() *sb
		answer []Command
		want   []string
		events []string
	}{
		{"affirm goes to next", plain, []Command{affirm}, []string{"Sending 50 to ."}, []string{"flow_completed f"}},
		{"deny without on_deny cancels", plain, []Command{deny}, []string{"Okay, I've cancelled that."}, []string{"flow_cancelled f"}},
		{"on_confirm", routed, []Command{affirm}, []string{"Confirmed 50."}, []string{"flow_completed f"}},
		{"on_deny", routed, []Command{deny}, []string{"Not sent."}, []string{"flow_completed f"}},
		{"anything else re-asks", plain, []Command{fallback}, []string{"Sorry, I didn't understand that.", "Please confirm amount: 50."}, nil},
		{"correction re-asks with the new value", plain, []Command{correct("amount", int64(70))}, []string{"Please confirm amount: 70."}, []string{"slot_set f/amount"}},
		{"correction of another slot re-asks", custom, []Command{correct("to", "Ana")}, []string{"Send 50 to Ana?"}, []string{"slot_set f/to"}},
		{"affirm after a correction in the same turn does not confirm unseen", plain, []Command{correct("amount", int64(70)), affirm}, []string{"Please confirm amount: 70."}, []string{"slot_set f/amount"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := mk(tc.c())
			st := do(t, m, m.NewState("s"), start("f")).State
			res := do(t, m, st, setSlot("amount", int64(50)))
			require.NotNil(t, res.Pending)
			assert.Equal(t, PendingConfirm, res.Pending.Kind)
			assert.Contains(t, []string{"Please confirm amount: 50.", "Send 50 to ?"}, res.Replies[0])
			res = do(t, m, res.State, tc.answer...)
			assert.Equal(t, tc.want, res.Replies)
			assert.Equal(t, tc.events, eventTypes(res))
		})
	}
}

func TestFlowSlotsClearedWhenInstanceEnds(t *testing.T) {
	p := program([]*ir.Slot{anySlot("user")}, nil,
		flow("f", []*ir.Slot{anySlot("x")}, collect("ask", "x", "X?"), set("s", "user", "{x}!"), say("done", "x={x}")))
	m := newMachine(t, p, Options{})
	st := do(t, m, m.NewState("s"), start("f")).State
	res := do(t, m, st, setSlot("x", "1"))
	assert.Equal(t, []string{"x=1"}, res.Replies)
	assert.Equal(t, map[string]any{"user": "1!"}, res.State.Slots, "conversation slots stay")
	res = do(t, m, res.State, start("f"))
	assert.Equal(t, []string{"X?"}, res.Replies, "the new instance starts with x unset")

	st = res.State
	res = do(t, m, st, cancel)
	assert.Empty(t, res.State.Stack)
	res = do(t, m, res.State, start("f"))
	assert.Equal(t, []string{"X?"}, res.Replies)
}

func TestSetSlotErrors(t *testing.T) {
	p := program([]*ir.Slot{anySlot("c")}, nil, flow("f", []*ir.Slot{anySlot("x")}, collect("ask", "x", "X?")))
	m := newMachine(t, p, Options{})
	st := m.NewState("s")
	_, err := m.Turn(context.Background(), st, Input{Commands: []Command{setSlot("x", "1")}})
	assert.EqualError(t, err, `set_slot: "x" is not a conversation slot and no flow is active`)
	_, err = m.Turn(context.Background(), st, Input{Commands: []Command{start("nope")}})
	assert.EqualError(t, err, `start_flow: unknown flow "nope"`)
	_, err = m.Turn(context.Background(), st, Input{Commands: []Command{{Kind: "dance"}}})
	assert.EqualError(t, err, `unknown command "dance"`)
	_, err = m.Turn(context.Background(), nil, Input{})
	assert.Error(t, err)
	st = do(t, m, st, start("f")).State
	_, err = m.Turn(context.Background(), st, Input{Commands: []Command{setSlot("y", "1")}})
	assert.EqualError(t, err, `set_slot: flow "f" has no slot "y"`)
	res := do(t, m, m.NewState("s"), setSlot("c", "conv"))
	assert.Equal(t, map[string]any{"c": "conv"}, res.State.Slots, "conversation slots can be set with no flow")
}

func TestActions(t *testing.T) {
	decl := []*ir.Action{
		{Name: "lookup", Inputs: []string{"who", "missing"}, Outputs: []string{"balance"}},
		{Name: "slow", Run: &ir.Run{Timeout: "20ms"}},
		{Name: "strict", Inputs: []string{"missing"}, Required: []string{"missing"}},
	}
	mk := func(a *sb, runner ActionRunner, timeout time.Duration) *Machine {
		return newMachine(t, program(nil, decl, flow("f", []*ir.Slot{anySlot("who"), anySlot("missing"), anySlot("balance")},
			set("s", "who", "Ana"), a, say("ok", "balance {balance}").To(ir.EndStep), say("err", "handled"))), Options{Actions: runner, ActionTimeout: timeout})
	}
	onError := func(a *sb) *sb { a.OnError = "err"; return a }
	reg := &Registry{}
	reg.Register("lookup", func(_ context.Context, req ActionRequest) (map[string]any, error) {
		if _, ok := req.Inputs["missing"]; !ok || req.Inputs["who"] != "Ana" || req.Session != "s" || req.Decl == nil {
			return nil, fmt.Errorf("bad request %v", req)
		}
		return map[string]any{"balance": 12.5}, nil
	})
	reg.Register("undeclared", func(_ context.Context, req ActionRequest) (map[string]any, error) {
		return map[string]any{"balance": req.Inputs["who"]}, nil
	})
	reg.Register("fails", func(context.Context, ActionRequest) (map[string]any, error) { return nil, errors.New("backend down") })
	reg.Register("panics", func(context.Context, ActionRequest) (map[string]any, error) { panic("boom") })
	reg.Register("nooutput", func(context.Context, ActionRequest) (map[string]any, error) { return map[string]any{}, nil })
	reg.Register("slow", func(ctx context.Context, _ ActionRequest) (map[string]any, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	reg.Register("strict", func(context.Context, ActionRequest) (map[string]any, error) { return map[string]any{}, nil })
	tests := []struct {
		name    string
		a       *sb
		runner  ActionRunner
		replies []string
		events  []string
		errText string
	}{
		{"declared inputs", action("a", "lookup", "balance", "balance"), reg, []string{"balance 12.5"},
			[]string{"flow_started f", "slot_set f/who", "action_executed f/lookup", "slot_set f/balance", "flow_completed f"}, ""},
		{"undeclared gets visible slots", action("a", "undeclared", "balance", "balance"), reg, []string{"balance Ana"},
			[]string{"flow_started f", "slot_set f/who", "action_executed f/undeclared", "slot_set f/balance", "flow_completed f"}, ""},
		{"error ends the flow", action("a", "fails", "balance", "balance"), reg, []string{"Sorry, something went wrong while trying to do that."},
			[]string{"flow_started f", "slot_set f/who", "action_failed f/fails", "flow_cancelled f"}, "backend down"},
		{"error jumps to on_error", onError(action("a", "fails")), reg, []string{"handled"},
			[]string{"flow_started f", "slot_set f/who", "action_failed f/fails", "flow_completed f"}, "backend down"},
		{"panic is a failure", onError(action("a", "panics")), reg, []string{"handled"},
			[]string{"flow_started f", "slot_set f/who", "action_failed f/panics", "flow_completed f"}, `action "panics" panicked: boom`},
		{"missing output leaves its slot unset", action("a", "nooutput", "balance", "balance"), reg, []string{"balance "},
			[]string{"flow_started f", "slot_set f/who", "action_executed f/nooutput", "flow_completed f"}, `action nooutput returned no output balance: slot balance is left as it was`},
		// The declared run.timeout is the runner's (package actions); the
		// VM's own bound is Options.ActionTimeout, set for this case.
		{"timeout is a failure", onError(action("a", "slow")), reg, []string{"handled"},
			[]string{"flow_started f", "slot_set f/who", "action_failed f/slow", "flow_completed f"}, `action "slow" timed out after 20ms`},
		{"required input unset", onError(action("a", "strict")), reg, []string{"handled"},
			[]string{"flow_started f", "slot_set f/who", "action_failed f/strict", "flow_completed f"}, `action "strict" needs slot "missing", which is not set`},
		{"no runner", onError(action("a", "lookup")), nil, []string{"handled"},
			[]string{"flow_started f", "slot_set f/who", "action_failed f/lookup", "flow_completed f"}, `no runner for action "lookup"`},
		{"unregistered", onError(action("a", "ghost")), reg, []string{"handled"},
			[]string{"flow_started f", "slot_set f/who", "action_failed f/ghost", "flow_completed f"}, `no action "ghost" is registered`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var timeout time.Duration
			if tc.name == "timeout is a failure" {
				timeout = 20 * time.Millisecond
			}
			m := mk(tc.a, tc.runner, timeout)
			res := do(t, m, m.NewState("s"), start("f"))
			assert.Equal(t, tc.replies, res.Replies)
			assert.Equal(t, tc.events, eventTypes(res))
			for _, e := range res.Events {
				if e.Type == EventActionFailed {
					assert.Contains(t, e.Error, tc.errText)
					assert.Equal(t, "a", e.Step)
				}
			}
			if tc.errText != "" {
				assert.Contains(t, strings.Join(res.Trace, "\n"), tc.errText)
			}
		})
	}
}

func TestActionTimeoutOption(t *testing.T) {
	p := program(nil, nil, flow("f", nil, action("a", "hang"), say("ok", "ok")))
	release := make(chan struct{})
	defer close(release)
	runner := ActionFunc(func(context.Context, ActionRequest) (map[string]any, error) {
		<-release // ignores its context
		return map[string]any{}, nil
	})
	m := newMachine(t, p, Options{Actions: runner, ActionTimeout: 10 * time.Millisecond})
	res := do(t, m, m.NewState("s"), start("f"))
	assert.Equal(t, []string{"Sorry, something went wrong while trying to do that."}, res.Replies)
}

func TestTurnContextDeadlineDuringAction(t *testing.T) {
	p := program(nil, nil, flow("f", nil, say("hi", "hi"), action("a", "slow"), say("ok", "ok")))
	m := newMachine(t, p, Options{Actions: ActionFunc(func(ctx context.Context, _ ActionRequest) (map[string]any, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})})
	st := m.NewState("s")
	before := snapshot(t, st)
	ctx, cancelCtx := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancelCtx()
	_, err := m.Turn(ctx, st, Input{Commands: []Command{start("f")}})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	var re *RuntimeError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, "a", re.Step)
	after := snapshot(t, st)
	assert.Equal(t, before, after, "the input state is untouched")
}

func TestContextCancelled(t *testing.T) {
	p := program(nil, nil, flow("f", nil, say("hi", "hi")))
	m := newMachine(t, p, Options{})
	ctx, cancelCtx := context.WithCancel(context.Background())
	cancelCtx()
	_, err := m.Turn(ctx, m.NewState("s"), Input{Commands: []Command{start("f")}})
	assert.ErrorIs(t, err, context.Canceled)
}

func TestGuards(t *testing.T) {
	loop := program(nil, nil, flow("spin", []*ir.Slot{anySlot("n")}, say("a", "hello"), set("b", "n", "=1").To("a")))
	loop.Settings.MaxStepsPerTurn = 51
	rec := program(nil, nil, flow("rec", nil, say("a", "down"), call("again", "rec")))
	tests := []struct {
		name string
		p    *ir.Program
		flow string
		step string
		line int
		msg  string
	}{
		{"infinite jump loop", loop, "spin", "b", 12, "max_steps_per_turn (51)"},
		{"recursive call", rec, "rec", "again", 12, "max_stack_depth (32)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newMachine(t, tc.p, Options{})
			st := m.NewState("s")
			st.Revision = 1 // not a new conversation: no pattern_session_start before the flow
			st.Slots["keep"] = "me"
			before := snapshot(t, st)
			res, err := m.Turn(context.Background(), st, Input{Commands: []Command{start(tc.flow)}})
			require.Error(t, err)
			assert.Nil(t, res)
			var re *RuntimeError
			require.ErrorAs(t, err, &re)
			assert.Equal(t, tc.flow, re.Flow)
			assert.Equal(t, tc.step, re.Step)
			assert.Equal(t, tc.line, re.Pos.Line)
			assert.Contains(t, err.Error(), fmt.Sprintf("flows.yaml:%d:7: flow %q step %q: ", tc.line, tc.flow, tc.step))
			assert.Contains(t, err.Error(), tc.msg)
			after := snapshot(t, st)
			assert.Equal(t, string(before), string(after), "input state intact")
			assert.Empty(t, st.Stack)
		})
	}
}

// snapshot is st as JSON, to compare a state before and after a turn.
func snapshot(t *testing.T, st *State) string {
	t.Helper()
	b, err := json.Marshal(st)
	require.NoError(t, err)
	return string(b)
}

func TestTurnDoesNotModifyInput(t *testing.T) {
	m := newMachine(t, bookFlight(), Options{Actions: ActionFunc(searchFlights)})
	st := do(t, m, m.NewState("s"), start("book_flight")).State
	st = do(t, m, st, setSlot("origin", "Paris")).State
	before := snapshot(t, st)
	clone := st.Clone()
	for _, cmds := range [][]Command{{setSlot("destination", "Rome")}, {cancel}, {correct("origin", "Lyon")}, {start("book_flight")}} {
		do(t, m, st, cmds...)
	}
	after := snapshot(t, st)
	assert.Equal(t, string(before), string(after))
	assert.Equal(t, clone, st)
}

func TestHistory(t *testing.T) {
	p := program(nil, nil, flow("f", nil, collect("ask", "x", "X?"), say("done", "got it")))
	p.Settings.HistorySize = 3
	m := newMachine(t, p, Options{})
	st := m.NewState("s")
	res, err := m.Turn(context.Background(), st, Input{Text: "start", Commands: []Command{start("f")}})
	require.NoError(t, err)
	assert.Equal(t, []Message{{RoleUser, "start"}, {RoleBot, "X?"}}, res.State.History)
	big := strings.Repeat("é", 1<<19) // 1 MiB
	done := make(chan *Result)
	go func() {
		res, err := m.Turn(context.Background(), res.State, Input{Text: big, Commands: []Command{setSlot("x", "ok")}})
		assert.NoError(t, err)
		done <- res
	}()
	res = <-done // a hang fails by the test run's timeout, not by a clock
	require.Len(t, res.State.History, 3)
	assert.Equal(t, Message{RoleBot, "X?"}, res.State.History[0])
	assert.Len(t, res.State.History[1].Text, maxHistoryText)
	assert.Equal(t, Message{RoleBot, "got it"}, res.State.History[2])
	assert.Less(t, len(snapshot(t, res.State)), 10000)
}

func TestConcurrentTurns(t *testing.T) {
	m := newMachine(t, bookFlight(), Options{Actions: ActionFunc(searchFlights)})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := m.NewState(fmt.Sprint("s", g))
			for _, c := range []Command{start("book_flight"), setSlot("origin", "A"), setSlot("destination", "B"), setSlot("date", "C")} {
				res, err := m.Turn(context.Background(), st, Input{Commands: []Command{c}})
				if !assert.NoError(t, err) {
					return
				}
				st = res.State
			}
			assert.Empty(t, st.Stack)
		}()
	}
	wg.Wait()
}

func TestNewRejects(t *testing.T) {
	good := func() *ir.Program { return program(nil, nil, flow("f", nil, say("a", "A"))) }
	tests := []struct {
		name string
		edit func(p *ir.Program)
		want string
	}{
		{"ir version", func(p *ir.Program) { p.IRVersion = 99 }, "IR version 99"},
		{"bad expression", func(p *ir.Program) { p.Flows[0].Nodes[0] = set("s", "x", "=1 +").N }, `expression "1 +"`},
		{"bad template", func(p *ir.Program) { p.Flows[0].Nodes[0].Message = tpl("{oops") }, "unclosed"},
		{"edge outside flow", func(p *ir.Program) { p.Flows[0].Nodes[0].Next = 7 }, "edge outside the flow"},
		{"nil node", func(p *ir.Program) { p.Flows[0].Nodes[0] = nil }, "nil node"},
		{"unknown validator", func(p *ir.Program) {
			p.Flows[0].Nodes[0] = collect("c", "x", "X?").With(func(n *ir.Node) { n.Validator = &ir.Validator{Builtin: "shiny"} }).N
		}, `unknown validator "shiny"`},
		{"bad initial", func(p *ir.Program) {
			p.Slots = []*ir.Slot{{Name: "n", Type: ir.TypeInteger, Initial: "x"}}
		}, `slot "n": initial value`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := good()
			tc.edit(p)
			_, err := New(p, Options{})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	_, err := New(nil, Options{})
	assert.Error(t, err)
}

func TestInitialValues(t *testing.T) {
	p := program([]*ir.Slot{{Name: "n", Type: ir.TypeInteger, Initial: uint64(3)}, {Name: "f", Type: ir.TypeNumber, Initial: int64(2)}}, nil,
		flow("f", nil, say("a", "{n} {f}")))
	m := newMachine(t, p, Options{})
	st := m.NewState("s")
	assert.Equal(t, map[string]any{"n": int64(3), "f": 2.0}, st.Slots)
	assert.Equal(t, []string{"3 2"}, do(t, m, st, start("f")).Replies)
}

func TestCorrectionMustPassCollectValidator(t *testing.T) {
	p := program(nil, nil, flow("f", []*ir.Slot{anySlot("amount")},
		collect("ask", "amount", "How much?").With(func(n *ir.Node) {
			n.Validator = &ir.Validator{Expr: ex("value <= 100")}
			n.ErrorMessage = tpl("At most 100.")
		}),
		confirm("conf", "amount", ""),
		say("done", "Sent {amount}."),
	))
	m := newMachine(t, p, Options{})
	st := do(t, m, m.NewState("s"), start("f")).State
	st = do(t, m, st, setSlot("amount", int64(50))).State
	res := do(t, m, st, correct("amount", int64(500)))
	assert.Equal(t, []string{"At most 100.", "Please confirm amount: 50."}, res.Replies)
	assert.Equal(t, int64(50), res.State.Stack[0].Slots["amount"])
	assert.Empty(t, res.Events)
	res = do(t, m, res.State, affirm)
	assert.Equal(t, []string{"Sent 50."}, res.Replies)
}

func TestTypedSlots(t *testing.T) {
	lo, hi := 1.0, 10.0
	p := program(nil, []*ir.Action{{Name: "quote", Outputs: []string{"n", "x"}}}, flow("f", []*ir.Slot{
		{Name: "qty", Type: ir.TypeInteger, Min: &lo, Max: &hi},
		{Name: "class", Type: ir.TypeCategorical, Values: []ir.Value{{Value: "business", Synonyms: []string{"biz"}}, {Value: "economy"}}},
		{Name: "n", Type: ir.TypeInteger},
	},
		collect("ask_qty", "qty", "How many?"),
		collect("ask_class", "class", "Which class?"),
		say("done", "{qty} x {class}"),
	), flow("g", []*ir.Slot{{Name: "n", Type: ir.TypeInteger}}, action("a", "quote", "n", "n"), say("done", "n={n}")))
	out := map[string]any{}
	m := newMachine(t, p, Options{Actions: ActionFunc(func(context.Context, ActionRequest) (map[string]any, error) { return out, nil })})
	st := do(t, m, m.NewState("s"), start("f")).State
	for _, bad := range []any{"lots", "11 please", int64(0)} {
		res := do(t, m, st, setSlot("qty", bad))
		assert.Equal(t, []string{"Please give a whole number between 1 and 10.", "How many?"}, res.Replies, "value %v", bad)
		assert.Empty(t, res.State.Stack[0].Slots)
	}
	res := do(t, m, st, setSlot("qty", "3 tickets"))
	assert.Equal(t, int64(3), res.State.Stack[0].Slots["qty"])
	res = do(t, m, res.State, setSlot("class", "Biz"))
	assert.Equal(t, []string{"3 x business"}, res.Replies)

	out["n"] = 7.0
	res = do(t, m, m.NewState("s"), start("g"))
	assert.Equal(t, []string{"n=7"}, res.Replies)
	require.Len(t, userEvents(res), 4)
	assert.Equal(t, int64(7), userEvents(res)[2].New, "action outputs are converted to the slot's type")
	out["n"] = "many"
	res = do(t, m, m.NewState("s"), start("g"))
	assert.Equal(t, []string{"Sorry, something went wrong while trying to do that."}, res.Replies, "a bad output is a failure")
}

func TestTurnRejectsStateThatDoesNotFit(t *testing.T) {
	m := newMachine(t, program(nil, nil, flow("f", nil, collect("ask", "x", "X?"), call("c", "f"))), Options{})
	tests := []struct {
		name string
		st   *State
		want string
	}{
		{"unknown flow", &State{Stack: []Frame{{Flow: "g", Step: "ask"}}}, `flow "g"`},
		{"unknown step", &State{Stack: []Frame{{Flow: "f", Step: "nope"}}}, `step "nope" of flow "f"`},
		{"after call on a collect", &State{Stack: []Frame{{Flow: "f", Step: "ask", AfterCall: true}}}, "not a call"},
		{"pending with empty stack", &State{Pending: &Pending{Kind: PendingCollect, Flow: "f", Step: "ask", Slot: "x"}}, "no active flow"},
		{"pending elsewhere", &State{Stack: []Frame{{Flow: "f", Step: "c", AfterCall: true}}, Pending: &Pending{Kind: PendingCollect, Flow: "f", Step: "ask", Slot: "x"}}, "not where the top flow waits"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := m.Turn(context.Background(), tc.st, Input{Commands: []Command{fallback}})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// TestSlotsNamedLikeBuiltins: a slot named like an expr built-in function
// (count, date, max) is the slot in expressions, typed or not.
func TestSlotsNamedLikeBuiltins(t *testing.T) {
	p := program(nil, nil, flow("f", []*ir.Slot{anySlot("count"), anySlot("date"), anySlot("max")},
		set("s", "count", int64(5), "date", "2027-01-02"),
		set("t", "max", "=count * 2"),
		say("out", "{count} {date} {max}"),
	))
	m := newMachine(t, p, Options{})
	res := do(t, m, m.NewState("s"), start("f"))
	assert.Equal(t, []string{"5 2027-01-02 10"}, res.Replies)
}

func TestNormalizeAny(t *testing.T) {
	tests := []struct {
		in   any
		want any
	}{
		{int(3), int64(3)},
		{uint8(7), int64(7)},
		{float32(0.1), 0.1},
		{float32(2.5), 2.5},
		{json.Number("42"), int64(42)},
		{json.Number("1e3"), 1000.0},
		{json.Number("12.5"), 12.5},
		{json.Number("1e999"), "1e999"},
		{"x", "x"},
		{nil, nil},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%T/%v", tc.in, tc.in), func(t *testing.T) {
			assert.Equal(t, tc.want, jsonval.Normalize(tc.in))
		})
	}
}

// An action of an embedding program that returns a json.Number for an
// untyped slot stores a number, which expressions compare and templates
// print as one.
func TestActionJSONNumberOutput(t *testing.T) {
	p := program(nil, nil, flow("f", []*ir.Slot{anySlot("price"), anySlot("big")},
		action("get", "price", "price", "price"),
		set("s", "big", "=price > 100"),
		say("tell", "{price} {big}"),
	))
	m := newMachine(t, p, Options{Actions: ActionFunc(func(context.Context, ActionRequest) (map[string]any, error) {
		return map[string]any{"price": json.Number("1.5e3")}, nil
	})})
	res := do(t, m, m.NewState("s"), start("f"))
	assert.Equal(t, []string{"1500 true"}, res.Replies)
}

// TestMessageSettingsAreTemplates: idle, fallback and cancel messages are
// templates like action_error_message ({{ }} are literal braces, slots
// render), and built-in validators work on untyped (text) answers.
func TestMessageSettingsAreTemplates(t *testing.T) {
	p := program([]*ir.Slot{{Name: "name", Type: ir.TypeText, Initial: "Ana"}}, nil,
		flow("f", []*ir.Slot{anySlot("age")}, collect("ask", "age", "Age?")))
	p.Settings.IdleMessage = "Hi {name}, {{help}}?"
	p.Settings.FallbackMessage = "Pardon, {name}?"
	p.Settings.CancelMessage = "Stopped, {name}."
	m := newMachine(t, p, Options{})
	res := do(t, m, m.NewState("s"), Command{Kind: CmdFallback})
	assert.Equal(t, []string{"Hi Ana, {help}?"}, res.Replies)
	st := do(t, m, m.NewState("s"), start("f")).State
	assert.Equal(t, []string{"Pardon, Ana?", "Age?"}, do(t, m, st, Command{Kind: CmdFallback}).Replies)
	assert.Equal(t, []string{"Stopped, Ana."}, do(t, m, st, cancel).Replies)
}

// TestActionNonFiniteOutput: an action that returns NaN, an infinity or a
// JSON number too large for a float64 has a bad output. It is an action
// failure that takes on_error (or says the action error message), never a
// turn that fails at encode time after the action ran.
func TestActionNonFiniteOutput(t *testing.T) {
	cases := []struct {
		name string
		out  any
		want string
	}{
		{"+Inf", math.Inf(1), `output "price" for slot "price": +Inf is not a finite number`},
		{"-Inf", math.Inf(-1), `-Inf is not a finite number`},
		{"NaN", math.NaN(), `NaN is not a finite number`},
		{"1e400 as json.Number", json.Number("1e400"), `1e400 is not a finite number`},
		{"nested", map[string]any{"a": []any{1.0, math.Inf(1)}}, `field "a": item 1: +Inf is not a finite number`},
		{"float32", float32(math.Inf(1)), `+Inf is not a finite number`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, withOnError := range []bool{true, false} {
				get := action("get", "price", "price", "price")
				if withOnError {
					get.OnError = "oops"
				}
				p := program(nil, nil, flow("f", []*ir.Slot{anySlot("price")},
					get,
					say("tell", "price {price}").To("__end__"),
					say("oops", "no price"),
				))
				m := newMachine(t, p, Options{Actions: ActionFunc(func(context.Context, ActionRequest) (map[string]any, error) {
					return map[string]any{"price": tc.out}, nil
				})})
				res := do(t, m, m.NewState("s"), start("f"))
				if withOnError {
					assert.Equal(t, []string{"no price"}, res.Replies)
				} else {
					assert.Equal(t, []string{"Sorry, something went wrong while trying to do that."}, res.Replies)
				}
				var failed *Event
				for i := range res.Events {
					if res.Events[i].Type == EventActionFailed {
						failed = &res.Events[i]
					}
				}
				require.NotNil(t, failed, "no action_failed event: %v", res.Events)
				assert.Contains(t, failed.Error, tc.want)
				scopes := []map[string]any{res.State.Slots}
				for _, f := range res.State.Stack {
					scopes = append(scopes, f.Slots)
				}
				for _, slots := range scopes {
					_, err := jsonval.Size(slots, 64)
					require.NoError(t, err, "the state after the failure must be saveable")
				}
			}
		})
	}
}

// TestResultOutlivesTheNextTurns: a turn's result keeps its replies,
// events, trace and visited steps when later turns run, though the
// working state they were gathered in is reused.
func TestResultOutlivesTheNextTurns(t *testing.T) {
	m := newMachine(t, bookFlight(), Options{Actions: ActionFunc(searchFlights)})
	first := do(t, m, m.NewState("a"), start("book_flight"))
	check := func() {
		t.Helper()
		assert.Equal(t, []string{"Welcome", "Where from?"}, first.Replies)
		assert.Equal(t, []string{"flow_started book_flight"}, eventTypes(first))
		assert.Equal(t, []StepVisit{{Flow: "pattern_session_start", Step: "start"}, {Flow: "book_flight", Step: "welcome"}, {Flow: "book_flight", Step: "ask_origin"}}, first.Visited)
		assert.Len(t, first.ReplyEvents, 2)
		assert.NotEmpty(t, first.Trace)
		for _, line := range first.Trace {
			assert.NotEmpty(t, line)
		}
	}
	check()
	for i := range 20 {
		res := do(t, m, m.NewState(fmt.Sprintf("b%d", i)), start("book_flight"))
		do(t, m, res.State, setSlot("origin", fmt.Sprintf("City %d", i)))
	}
	check()
}
