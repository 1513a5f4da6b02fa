package vm

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
)

// sb builds one step of a test flow. Jump targets are step ids, resolved
// when the flow is built; "" means the default (the next step).
type sb struct {
	n                                                 *ir.Node
	jump, onInvalid, onError, onConfirm, onDeny, exit string
	body                                              string
	cases                                             [][2]string
}

func step(id string, kind ir.Kind) *sb { return &sb{n: &ir.Node{ID: id, Kind: kind}} }

func tpl(s string) *ir.Template { return &ir.Template{Src: s} }

func ex(s string) *ir.Expr { return &ir.Expr{Src: s} }

func say(id, msg string) *sb {
	s := step(id, ir.KindSay)
	s.n.Message = tpl(msg)
	return s
}

func collect(id, slot, msg string) *sb {
	s := step(id, ir.KindCollect)
	s.n.Slot, s.n.Message = slot, tpl(msg)
	return s
}

func confirm(id, slot, msg string) *sb {
	s := step(id, ir.KindConfirm)
	s.n.Slot = slot
	if msg != "" {
		s.n.Message = tpl(msg)
	}
	return s
}

// set builds a set step from slot/value pairs: a string starting with "="
// is an expression, a string with '{' a template, nil a clear, anything
// else a literal.
func set(id string, pairs ...any) *sb {
	s := step(id, ir.KindSet)
	for i := 0; i+1 < len(pairs); i += 2 {
		a := ir.Assign{Slot: pairs[i].(string)}
		switch v := pairs[i+1].(type) {
		case nil:
			a.Kind = ir.AssignClear
		case string:
			switch {
			case len(v) > 0 && v[0] == '=':
				a.Kind, a.Expr = ir.AssignExpr, ex(v[1:])
			case containsBrace(v):
				a.Kind, a.Template = ir.AssignTemplate, tpl(v)
			default:
				a.Kind, a.Value = ir.AssignLiteral, v
			}
		default:
			a.Kind, a.Value = ir.AssignLiteral, v
		}
		s.n.Assign = append(s.n.Assign, a)
	}
	return s
}

func containsBrace(s string) bool {
	for _, c := range s {
		if c == '{' {
			return true
		}
	}
	return false
}

func branch(id, slot string, cases ...string) *sb {
	s := step(id, ir.KindBranch)
	s.n.Slot = slot
	for i := 0; i+1 < len(cases); i += 2 {
		s.cases = append(s.cases, [2]string{cases[i], cases[i+1]})
	}
	return s
}

func while(id, cond, body, exit string) *sb {
	s := step(id, ir.KindWhile)
	s.n.Condition = ex(cond)
	s.body, s.exit = body, exit
	return s
}

func action(id, name string, outputs ...string) *sb {
	s := step(id, ir.KindAction)
	s.n.Action = name
	for i := 0; i+1 < len(outputs); i += 2 {
		s.n.MapOutputs = append(s.n.MapOutputs, ir.Mapping{Output: outputs[i], Slot: outputs[i+1]})
	}
	return s
}

func link(id, target string) *sb {
	s := step(id, ir.KindLink)
	s.n.Target = target
	return s
}

func call(id, target string) *sb {
	s := step(id, ir.KindCall)
	s.n.Target = target
	return s
}

func (s *sb) to(id string) *sb { s.jump = id; return s }

func (s *sb) cond(e string) *sb { s.n.Condition = ex(e); return s }

func (s *sb) with(f func(n *ir.Node)) *sb { f(s.n); return s }

// flow builds a flow, resolving step ids to node indexes. A node's
// position is flows.yaml, line 10*i+1 of its flow's block.
func flow(name string, slots []*ir.Slot, steps ...*sb) *ir.Flow {
	f := &ir.Flow{Name: name, Slots: slots, Pos: diag.Pos{File: "flows.yaml", Line: 1, Col: 3}}
	index := map[string]int{ir.EndStep: ir.End}
	for i, s := range steps {
		index[s.n.ID] = i
	}
	resolve := func(id string) int {
		i, ok := index[id]
		if !ok {
			panic(fmt.Sprintf("test flow %q: unknown step %q", name, id))
		}
		return i
	}
	ptr := func(id string) *int {
		if id == "" {
			return nil
		}
		i := resolve(id)
		return &i
	}
	for i, s := range steps {
		n := s.n
		n.Pos = diag.Pos{File: "flows.yaml", Line: 10*i + 2, Col: 7}
		n.Next = i + 1
		if i+1 == len(steps) {
			n.Next = ir.End
		}
		if s.jump != "" {
			n.Next = resolve(s.jump)
		}
		n.OnInvalid, n.OnError, n.OnConfirm, n.OnDeny = ptr(s.onInvalid), ptr(s.onError), ptr(s.onConfirm), ptr(s.onDeny)
		n.Body, n.Exit = ptr(s.body), ptr(s.exit)
		for _, c := range s.cases {
			n.Cases = append(n.Cases, ir.Case{Pattern: c[0], Target: resolve(c[1])})
		}
		f.Nodes = append(f.Nodes, n)
	}
	return f
}

func anySlot(name string) *ir.Slot { return &ir.Slot{Name: name, Type: ir.TypeAny} }

// program builds a program with default settings.
func program(slots []*ir.Slot, actions []*ir.Action, flows ...*ir.Flow) *ir.Program {
	return &ir.Program{IRVersion: ir.Version, Settings: ir.DefaultSettings(), Slots: slots, Actions: actions, Flows: flows}
}

var testNow = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func fixedNow() time.Time { return testNow }

func newMachine(t testing.TB, p *ir.Program, opts Options) *Machine {
	t.Helper()
	if opts.Now == nil {
		opts.Now = fixedNow
	}
	m, err := New(p, opts)
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
func eventTypes(res *Result) []string {
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
