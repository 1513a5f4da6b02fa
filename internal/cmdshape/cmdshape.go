// Package cmdshape reads commands written in the test files' shapes from
// generic JSON or YAML values: "affirm", {"start_flow": "NAME"},
// {"set_slot": {"SLOT": VALUE}}... soni serve's API and soni eval's
// files use it.
package cmdshape

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/soni-dev/soni/internal/jsonval"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/vm"
)

// Parse reads commands in the shapes of the test files: "cancel_flow", "affirm", "deny", {"start_flow": NAME},
// {"start_flow": {"flow": NAME, "slots": {SLOT: VALUE}}}, {"set_slot":
// {SLOT: VALUE}}, {"correct_slot": {SLOT: VALUE}}, {"chitchat": KIND}
// (small talk of a kind: greet, thanks, goodbye, wait, ack). Flows and
// slots must exist in the program.
func Parse(prog *ir.Program, raw []any) ([]vm.Command, error) {
	out := []vm.Command{}
	for i, item := range raw {
		switch x := item.(type) {
		case string:
			switch k := vm.CommandKind(x); k {
			case vm.CmdCancelFlow, vm.CmdAffirm, vm.CmdDeny, vm.CmdFallback, vm.CmdChitchat, vm.CmdHandoff, vm.CmdHelp, vm.CmdRepeat, vm.CmdSkipQuestion:
				out = append(out, vm.Command{Kind: k})
			default:
				return nil, fmt.Errorf("command %d: %q is not a command without a value: use cancel_flow, affirm, deny, fallback, chitchat, human_handoff, help, repeat_bot_messages or skip_question, or an object such as {\"start_flow\": \"NAME\"}", i+1, x)
			}
		case map[string]any:
			if len(x) != 1 {
				return nil, fmt.Errorf("command %d: an object command has exactly one key (start_flow, set_slot or correct_slot), not %d", i+1, len(x))
			}
			for k, arg := range x {
				cmds, err := objectCommand(prog, vm.CommandKind(k), arg)
				if err != nil {
					return nil, fmt.Errorf("command %d: %w", i+1, err)
				}
				out = append(out, cmds...)
			}
		default:
			return nil, fmt.Errorf("command %d is a JSON %s: write a command name or an object", i+1, jsonval.Kind(item))
		}
	}
	return out, nil
}

func objectCommand(prog *ir.Program, kind vm.CommandKind, arg any) ([]vm.Command, error) {
	switch kind {
	case vm.CmdStartFlow:
		var name string
		var slots map[string]any
		switch a := arg.(type) {
		case string:
			name = a
		case map[string]any:
			for k := range a {
				if k != "flow" && k != "slots" {
					return nil, fmt.Errorf("start_flow has an unknown key %q: use flow and slots", k)
				}
			}
			name, _ = a["flow"].(string)
			if s, ok := a["slots"]; ok {
				if slots, ok = s.(map[string]any); !ok {
					return nil, fmt.Errorf("start_flow.slots must be an object of slot values")
				}
			}
		}
		f := prog.Flow(name)
		if f == nil || f.Builtin {
			return nil, fmt.Errorf("start_flow: unknown flow %q", name)
		}
		cmd := vm.Command{Kind: vm.CmdStartFlow, Flow: name}
		for _, k := range slices.Sorted(maps.Keys(slots)) {
			if prog.ResolveSlot(name, k) == nil {
				return nil, fmt.Errorf("start_flow: flow %q has no slot %q", name, k)
			}
			cmd.Slots = append(cmd.Slots, vm.SlotValue{Slot: k, Value: slots[k]})
		}
		return []vm.Command{cmd}, nil
	case vm.CmdSetSlot, vm.CmdCorrectSlot:
		m, ok := arg.(map[string]any)
		if !ok || len(m) == 0 {
			return nil, fmt.Errorf("%s takes an object of slot values, such as {\"%s\": {\"amount\": 50}}", kind, kind)
		}
		var cmds []vm.Command
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if !slotExists(prog, k) {
				return nil, fmt.Errorf("%s: unknown slot %q", kind, k)
			}
			cmds = append(cmds, vm.Command{Kind: kind, Slot: k, Value: m[k]})
		}
		return cmds, nil
	case vm.CmdChitchat:
		kind, ok := arg.(string)
		if !ok {
			return nil, fmt.Errorf("chitchat takes a kind of small talk (%s), not a JSON %s", strings.Join(ir.SmallTalkKinds, ", "), jsonval.Kind(arg))
		}
		if !ir.IsSmallTalkKind(kind) {
			return nil, fmt.Errorf("chitchat: unknown kind of small talk %q: use %s", kind, strings.Join(ir.SmallTalkKinds, ", "))
		}
		return []vm.Command{{Kind: vm.CmdChitchat, SmallTalk: kind}}, nil
	case vm.CmdClarify:
		list, ok := arg.([]any)
		if !ok {
			return nil, fmt.Errorf("clarify takes a list of flows, such as {\"clarify\": [\"a\", \"b\"]}")
		}
		cmd := vm.Command{Kind: vm.CmdClarify}
		for _, f := range list {
			name, _ := f.(string)
			if fl := prog.Flow(name); fl == nil || fl.Builtin {
				return nil, fmt.Errorf("clarify: unknown flow %v", f)
			}
			cmd.Flows = append(cmd.Flows, name)
		}
		return []vm.Command{cmd}, nil
	}
	return nil, fmt.Errorf("unknown command %q: use start_flow, set_slot, correct_slot, clarify or chitchat, or a command without a value: cancel_flow, affirm, deny, fallback, chitchat, human_handoff, help, repeat_bot_messages or skip_question", kind)
}

func slotExists(prog *ir.Program, name string) bool {
	if prog.Slot(name) != nil {
		return true
	}
	for _, f := range prog.Flows {
		if !f.Builtin && f.Slot(name) != nil {
			return true
		}
	}
	return false
}

// Format writes VM commands in the test files' shapes: the inverse of
// Parse.
func Format(cmds []vm.Command) []any {
	out := make([]any, 0, len(cmds))
	for _, c := range cmds {
		switch c.Kind {
		case vm.CmdStartFlow:
			if len(c.Slots) == 0 {
				out = append(out, map[string]any{"start_flow": c.Flow})
				continue
			}
			slots := map[string]any{}
			for _, s := range c.Slots {
				slots[s.Slot] = s.Value
			}
			out = append(out, map[string]any{"start_flow": map[string]any{"flow": c.Flow, "slots": slots}})
		case vm.CmdSetSlot, vm.CmdCorrectSlot:
			out = append(out, map[string]any{string(c.Kind): map[string]any{c.Slot: c.Value}})
		case vm.CmdChitchat:
			if c.SmallTalk == "" {
				out = append(out, string(c.Kind))
				continue
			}
			out = append(out, map[string]any{string(c.Kind): c.SmallTalk})
		default:
			out = append(out, string(c.Kind))
		}
	}
	return out
}
