package llm

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/soni-dev/soni/internal/suggest"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// Validate turns the model's commands into VM commands, trusting none of
// them: unknown flows and slots, slots the flow cannot see, affirm and
// deny with no pending confirm, and values their slot's type refuses are
// dropped (except for the slot the pending question is about, whose wrong
// value the VM refuses with the slot's invalid message, as it does a
// typed answer); "start flow F" and the "set slot" lines for F's slots after it
// become one start_flow with slots; duplicates go. notes says what was
// dropped and why. Nothing valid is the fallback.
func Validate(raws []Raw, v vm.View) (cmds []vm.Command, notes []string) {
	prog := v.Program
	top := ""
	if n := len(v.Stack); n > 0 {
		top = v.Stack[n-1]
	}
	conv := v.Converter()
	drop := func(r Raw, why string, args ...any) {
		notes = append(notes, fmt.Sprintf("dropped line %d (%s): %s", r.Line, r.Kind, fmt.Sprintf(why, args...)))
	}
	seen := map[string]bool{}
	add := func(c vm.Command) {
		key := fmt.Sprintf("%s|%s|%s|%v|%v", c.Kind, c.Flow, c.Slot, c.Value, c.Flows)
		if seen[key] {
			return
		}
		seen[key] = true
		cmds = append(cmds, c)
	}
	flowName := func(r Raw, name string) (string, bool) {
		got, how := resolveFlow(prog, name)
		switch how {
		case "":
			drop(r, "unknown flow %q", name)
			return "", false
		case "repaired":
			notes = append(notes, fmt.Sprintf("line %d (%s): flow %q repaired to %q, the one flow that close", r.Line, r.Kind, name, got))
		}
		return got, true
	}
	// Order does not matter within one answer: the start comes first, and
	// the set slot lines of the flow it starts join it wherever they are.
	started := -1    // index in cmds of the start_flow the set lines join
	dropped := false // a start_flow was dropped: its set lines go with it
	for _, r := range raws {
		if r.Kind != "start_flow" {
			continue
		}
		name, ok := flowName(r, r.Flow)
		if !ok {
			dropped = true
			continue
		}
		add(vm.Command{Kind: vm.CmdStartFlow, Flow: name})
		if started < 0 {
			started = len(cmds) - 1
		}
	}
	for _, r := range raws {
		switch r.Kind {
		case "set_slot", "correct_slot":
			if placeholder(r.Value) {
				drop(r, "value %q is a placeholder: it means no value", r.Value)
				continue
			}
			flow := top
			joins := false
			if started >= 0 {
				if def := startable(prog, cmds[started].Flow, r.Slot); def != nil && (visible(prog, top, r.Slot) == nil || prog.Slot(r.Slot) == nil || r.Kind == "set_slot") {
					flow, joins = cmds[started].Flow, r.Kind == "set_slot"
				}
			} else if dropped && r.Kind == "set_slot" && (v.Pending == nil || v.Pending.Slot != r.Slot) {
				drop(r, "its flow was not started")
				continue
			}
			def := visible(prog, flow, r.Slot)
			if joins {
				def = startable(prog, flow, r.Slot)
			}
			under := false
			if def == nil && !joins && flow == top {
				// A pattern asks ("Do you want to update the amount to
				// 60?"), and the line names a slot of the flow it
				// interrupted ("sorry, I meant 70"): a new correction
				// of that flow, as the rules read it (language.md §17).
				if u := interrupted(v.Stack); u != "" {
					def, under = visible(prog, u, r.Slot), true
				}
			}
			if def == nil {
				drop(r, "slot %q is not one flow %q can see", r.Slot, flow)
				continue
			}
			val, err := conv.Convert(def, r.Value)
			if err != nil && !joins && v.Pending != nil && v.Pending.Slot == r.Slot {
				// The slot the question is about, and a wrong value: as
				// with a typed answer ("abc" for an amount, "actually
				// 50000" at its confirmation), the VM refuses it with the
				// slot's invalid message; the slot keeps its value.
				notes = append(notes, fmt.Sprintf("line %d (%s): value %q does not fit slot %q (%s): %v; given to the VM, which refuses it", r.Line, r.Kind, r.Value, r.Slot, def.Type, err))
				add(vm.Command{Kind: kindAt(r, v), Slot: r.Slot, Value: r.Value})
				continue
			}
			if err != nil {
				drop(r, "value %q does not fit slot %q (%s): %v", r.Value, r.Slot, def.Type, err)
				continue
			}
			if joins {
				st := &cmds[started]
				dup := false
				for i, sv := range st.Slots {
					if sv.Slot == r.Slot && def.Type == ir.TypeList {
						// "set slot toppings pepperoni", then "set slot
						// toppings mushrooms": one list of both.
						if merged, ok := mergeList(conv, def, sv.Value, val); ok {
							st.Slots[i].Value = merged
						} else {
							drop(r, "slot %q would get more than %d items", r.Slot, def.MaxItems)
						}
					}
					dup = dup || sv.Slot == r.Slot
				}
				if !dup {
					st.Slots = append(st.Slots, vm.SlotValue{Slot: r.Slot, Value: val})
				}
				continue
			}
			kind := kindAt(r, v)
			if under {
				kind = vm.CmdCorrectSlot
			}
			if def.Type == ir.TypeList {
				if i := slices.IndexFunc(cmds, func(c vm.Command) bool { return c.Kind == kind && c.Slot == r.Slot }); i >= 0 {
					if merged, ok := mergeList(conv, def, cmds[i].Value, val); ok {
						cmds[i].Value = merged
					} else {
						drop(r, "slot %q would get more than %d items", r.Slot, def.MaxItems)
					}
					continue
				}
			}
			add(vm.Command{Kind: kind, Slot: r.Slot, Value: val})
		case "cancel_flow":
			add(vm.Command{Kind: vm.CmdCancelFlow})
		case "affirm", "deny":
			p := v.Pending
			switch {
			case p != nil && p.Kind == vm.PendingConfirm:
				k := vm.CmdAffirm
				if r.Kind == "deny" {
					k = vm.CmdDeny
				}
				add(vm.Command{Kind: k})
			case p != nil && p.Kind == vm.PendingCollect && isBoolean(prog.ResolveSlot(p.Flow, p.Slot)):
				// A yes or no to a yes/no question sets it.
				add(vm.Command{Kind: vm.CmdSetSlot, Slot: p.Slot, Value: r.Kind == "affirm"})
			default:
				drop(r, "no confirmation or yes/no question is pending")
			}
		case "fallback", "start_flow":
			// fallback: said only when nothing else is (below); the starts
			// were read above.
		case "chitchat":
			add(vm.Command{Kind: vm.CmdChitchat})
		case "human_handoff":
			add(vm.Command{Kind: vm.CmdHandoff})
		case "help":
			add(vm.Command{Kind: vm.CmdHelp})
		case "repeat_bot_messages":
			add(vm.Command{Kind: vm.CmdRepeat})
		case "skip_question":
			if v.Pending == nil {
				drop(r, "no question is pending")
				continue
			}
			add(vm.Command{Kind: vm.CmdSkipQuestion})
		case "clarify":
			var flows []string
			for _, f := range r.Flows {
				name, ok := flowName(r, f)
				if !ok {
					continue
				}
				if !slices.Contains(flows, name) {
					flows = append(flows, name)
				}
			}
			if len(flows) < 2 {
				drop(r, "fewer than two known flows to choose from")
				continue
			}
			add(vm.Command{Kind: vm.CmdClarify, Flows: flows})
		}
	}
	if len(cmds) == 0 {
		return []vm.Command{{Kind: vm.CmdFallback}}, notes
	}
	return cmds, notes
}

// kindAt is the command a set or correct line is at this point of the
// conversation: "set slot" of a slot that already holds a value, at a
// confirmation, is a correction (language §11): models trained on Rasa's
// grammar only know set slot.
func kindAt(r Raw, v vm.View) vm.CommandKind {
	if r.Kind == "correct_slot" {
		return vm.CmdCorrectSlot
	}
	if p := v.Pending; p != nil && p.Kind == vm.PendingConfirm && v.Slot != nil {
		if old, ok := v.Slot(r.Slot); ok && old != nil {
			return vm.CmdCorrectSlot
		}
	}
	return vm.CmdSetSlot
}

// mergeList joins the items of two values of a list slot, each converted
// already, into one list converted again (so that max_items holds); ok is
// false when the joined list does not fit the slot.
func mergeList(conv values.Converter, def *ir.Slot, old, val any) (any, bool) {
	a, _ := old.([]any)
	b, _ := val.([]any)
	merged, err := conv.Convert(def, slices.Concat(a, b))
	return merged, err == nil
}

func isBoolean(s *ir.Slot) bool { return s != nil && s.Type == ir.TypeBoolean }

// placeholder reports whether a value is a model's way of saying "no
// value": None, null, undefined, "", ?, N/A, unknown.
func placeholder(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "none", "null", "nil", "undefined", "?", "??", "n/a", "na", "unknown", "<unknown>", "tbd", "-", `""`, "''", "<value>", "value":
		return true
	}
	return false
}

// resolveFlow finds the flow a model meant: its exact name, the name in
// another case (Transfer_Funds), or the one flow a letter away. how is
// "exact", "case", "repaired" or "" (none).
func resolveFlow(prog *ir.Program, name string) (string, string) {
	if prog.Flow(name) != nil {
		return name, "exact"
	}
	found, n := "", 0
	for _, f := range prog.Flows {
		if strings.EqualFold(f.Name, name) {
			return f.Name, "case"
		}
	}
	for _, f := range prog.Flows {
		if suggest.Levenshtein(strings.ToLower(f.Name), strings.ToLower(name)) == 1 {
			found = f.Name
			n++
		}
	}
	if n == 1 {
		return found, "repaired"
	}
	return "", ""
}

// visible returns the definition of a slot the flow can see, or nil.
// startable returns the definition of a slot a start_flow of flow may
// fill: one the flow sees, or one of a flow it calls (ir.Program.Callees).
func startable(prog *ir.Program, flow, name string) *ir.Slot {
	if s := visible(prog, flow, name); s != nil {
		return s
	}
	if callee := prog.Callees(flow)[name]; callee != "" {
		return prog.Flow(callee).Slot(name)
	}
	return nil
}

// calledSlots lists the slots the flows a flow calls collect and the flow
// itself lacks, by name.
func calledSlots(prog *ir.Program, flow string) []*ir.Slot {
	callees := prog.Callees(flow)
	var out []*ir.Slot
	for _, name := range slices.Sorted(maps.Keys(callees)) {
		f := prog.Flow(callees[name])
		for _, n := range f.Nodes {
			if n.Kind == ir.KindCollect && n.Slot == name {
				out = append(out, f.Slot(name))
				break
			}
		}
	}
	return out
}

// interrupted is the flow that the pattern on top of the stack
// interrupted: the topmost flow that is no pattern. It is "" when the top
// is no pattern, or nothing is under it.
func interrupted(stack []string) string {
	if n := len(stack); n == 0 || !ir.IsPattern(stack[n-1]) {
		return ""
	}
	for i := len(stack) - 1; i >= 0; i-- {
		if !ir.IsPattern(stack[i]) {
			return stack[i]
		}
	}
	return ""
}

func visible(prog *ir.Program, flow, name string) *ir.Slot {
	if s := prog.Slot(name); s != nil {
		return s
	}
	if flow == "" {
		return nil
	}
	if f := prog.Flow(flow); f != nil {
		return f.Slot(name)
	}
	return nil
}
