package llm

import (
	"fmt"
	"slices"

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
	started := -1 // index in cmds of the start_flow the set lines join
	for _, r := range raws {
		switch r.Kind {
		case "start_flow":
			if prog.Flow(r.Flow) == nil {
				drop(r, "unknown flow %q", r.Flow)
				continue
			}
			add(vm.Command{Kind: vm.CmdStartFlow, Flow: r.Flow})
			started = len(cmds) - 1
		case "set_slot", "correct_slot":
			flow := top
			if started >= 0 {
				flow = cmds[started].Flow
			}
			def := visible(prog, flow, r.Slot)
			if def == nil {
				drop(r, "slot %q is not one flow %q can see", r.Slot, flow)
				continue
			}
			val, err := values.Convert(def, r.Value)
			if err != nil && started < 0 && v.Pending != nil && v.Pending.Slot == r.Slot {
				// The slot the question is about, and a wrong value: as
				// with a typed answer ("abc" for an amount, "actually
				// 50000" at its confirmation), the VM refuses it with the
				// slot's invalid message; the slot keeps its value.
				notes = append(notes, fmt.Sprintf("line %d (%s): value %q does not fit slot %q (%s): %v; given to the VM, which refuses it", r.Line, r.Kind, r.Value, r.Slot, def.Type, err))
				add(vm.Command{Kind: vm.CommandKind(r.Kind), Slot: r.Slot, Value: r.Value})
				continue
			}
			if err != nil {
				drop(r, "value %q does not fit slot %q (%s): %v", r.Value, r.Slot, def.Type, err)
				continue
			}
			if started >= 0 && r.Kind == "set_slot" {
				st := &cmds[started]
				dup := false
				for _, sv := range st.Slots {
					dup = dup || sv.Slot == r.Slot
				}
				if !dup {
					st.Slots = append(st.Slots, vm.SlotValue{Slot: r.Slot, Value: val})
				}
				continue
			}
			kind := vm.CmdSetSlot
			if r.Kind == "correct_slot" {
				kind = vm.CmdCorrectSlot
			}
			add(vm.Command{Kind: kind, Slot: r.Slot, Value: val})
		case "cancel_flow":
			add(vm.Command{Kind: vm.CmdCancelFlow})
		case "affirm", "deny":
			if v.Pending == nil || v.Pending.Kind != vm.PendingConfirm {
				drop(r, "no confirmation is pending")
				continue
			}
			k := vm.CmdAffirm
			if r.Kind == "deny" {
				k = vm.CmdDeny
			}
			add(vm.Command{Kind: k})
		case "fallback":
			// Said only when nothing else is: see below.
		case "chitchat":
			add(vm.Command{Kind: vm.CmdChitchat})
		case "human_handoff":
			add(vm.Command{Kind: vm.CmdHandoff})
		case "clarify":
			var flows []string
			for _, f := range r.Flows {
				if prog.Flow(f) == nil {
					drop(r, "unknown flow %q in the choices", f)
					continue
				}
				if !slices.Contains(flows, f) {
					flows = append(flows, f)
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

// visible returns the definition of a slot the flow can see, or nil.
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
