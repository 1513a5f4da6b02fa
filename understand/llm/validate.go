package llm

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/soni-dev/soni/internal/suggest"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/lexicon"
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
	return ValidateMessage(raws, v, "")
}

// ValidateMessage is Validate for the model's answer to the user's
// message msg. A placeholder value (none, null, unknown) means no value,
// unless msg is that word: "none" typed by a user at an optional text
// question is the answer, not a model's habit.
func ValidateMessage(raws []Raw, v vm.View, msg string) (cmds []vm.Command, notes []string) {
	said := values.Normalize(msg)
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
			if placeholder(r.Value) && (said == "" || values.Normalize(r.Value) != said) {
				drop(r, "value %q is a placeholder: it means no value", r.Value)
				continue
			}
			startedFlow := ""
			if started >= 0 {
				startedFlow = cmds[started].Flow
			}
			if name, value, ok := spacedSlot(prog, r, startedFlow, top, ir.Interrupted(v.Stack)); ok {
				notes = append(notes, fmt.Sprintf("line %d (%s): slot %q written in words, value %q", r.Line, r.Kind, name, value))
				r.Slot, r.Value = name, value
			}
			if name, how := resolveSlot(prog, r.Slot, startedFlow, top, ir.Interrupted(v.Stack)); how != "" && name != r.Slot {
				notes = append(notes, fmt.Sprintf("line %d (%s): slot %q %s %q", r.Line, r.Kind, r.Slot, how, name))
				r.Slot = name
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
				if u := ir.Interrupted(v.Stack); u != "" {
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
			// A flow named is cancelled where it is on the stack; one
			// that is not there, or is on top, is the flow on top.
			c := vm.Command{Kind: vm.CmdCancelFlow}
			if r.Flow != "" && below(v.Stack, r.Flow) {
				c.Flow = r.Flow
			}
			add(c)
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
	v = strings.ToLower(strings.TrimSpace(v))
	switch v {
	case "", "?", "??", "n/a", "<unknown>", "-", `""`, "''", "<value>":
		return true
	}
	return modelPlaceholders[v]
}

// modelPlaceholders are the words a model writes for no value (the
// lexicon's model_placeholders): none, null, unknown.
var modelPlaceholders = lexicon.Set("model_placeholders")

// resolveFlow finds the flow a model meant: its exact name, the name in
// another case (Transfer_Funds), or the one flow a letter away. how is
// "exact", "case", "repaired" or "" (none).
func resolveFlow(prog *ir.Program, name string) (string, string) {
	// soni's default patterns start from commands, never by name.
	if f := prog.Flow(name); f != nil && !f.Builtin {
		return name, "exact"
	}
	found, n := "", 0
	for _, f := range prog.Flows {
		if strings.EqualFold(f.Name, name) && !f.Builtin {
			return f.Name, "case"
		}
	}
	for _, f := range prog.Flows {
		if f.Builtin {
			continue
		}
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

// resolveSlot finds the slot a model meant in a set or correct line: the
// name as written when a flow in question (the flow the answer starts,
// the flow on top, the flow a pattern interrupted) can see it; else the
// one slot they can see whose name differs only in case (Recipient);
// else the one slot of the flow in question whose name is closest
// (transfer_amount for amount, recipent for recipient: see slotClose).
// how says which, for the trace: "" when the name stands or nothing is
// close, else the words that say what was repaired.
func resolveSlot(prog *ir.Program, name, started, top, under string) (string, string) {
	var flows []string
	for _, f := range []string{started, top, under} {
		if f != "" && !slices.Contains(flows, f) {
			flows = append(flows, f)
		}
	}
	if prog.Slot(name) != nil {
		return name, ""
	}
	for _, f := range flows {
		if startable(prog, f, name) != nil {
			return name, ""
		}
	}
	var names []string
	for _, s := range prog.Slots {
		names = append(names, s.Name)
	}
	for _, f := range flows {
		names = append(names, flowSlots(prog, f)...)
	}
	found := ""
	for _, n := range names {
		if strings.EqualFold(n, name) && n != found {
			if found != "" {
				return name, ""
			}
			found = n
		}
	}
	if found != "" {
		return found, "is, in its own case,"
	}
	// The flow in question: the one the answer starts, else the one on
	// top, else (a pattern on top) the one the pattern interrupted.
	in := started
	if in == "" {
		in = top
		if under != "" {
			in = under
		}
	}
	if in == "" {
		return name, ""
	}
	found = ""
	for _, n := range flowSlots(prog, in) {
		if n != found && slotClose(name, n) {
			if found != "" {
				return name, ""
			}
			found = n
		}
	}
	if found == "" {
		return name, ""
	}
	return found, fmt.Sprintf("repaired, the one slot of flow %q that close, to", in)
}

// spacedSlot reads a slot name written in words ("set slot account type
// savings"): when the first word is no slot a flow in question can see,
// it and the first words of the value, joined by underscores, that name
// one (in any case) are the slot, and the words after them its value.
// The shortest such name wins, and a value must be left.
func spacedSlot(prog *ir.Program, r Raw, started, top, under string) (slot, value string, ok bool) {
	known := func(name string) string {
		got, how := resolveSlot(prog, name, started, top, under)
		if how != "" && how != "is, in its own case," {
			return ""
		}
		if prog.Slot(got) != nil {
			return got
		}
		for _, f := range []string{started, top, under} {
			if f != "" && startable(prog, f, got) != nil {
				return got
			}
		}
		return ""
	}
	if known(r.Slot) != "" {
		return "", "", false
	}
	words := strings.Fields(r.Value)
	for k := 1; k < len(words); k++ {
		if !nameRE().MatchString(words[k-1]) {
			return "", "", false
		}
		if got := known(r.Slot + "_" + strings.Join(words[:k], "_")); got != "" {
			rest := words[k:]
			if len(rest) > 1 && strings.EqualFold(rest[0], "to") {
				// "set slot account type to savings"
				rest = rest[1:]
			}
			return got, strings.Trim(strings.Join(rest, " "), "\"'`“”‘’«»"), true
		}
	}
	return "", "", false
}

// flowSlots lists the slots a flow declares, collects, or may fill for a
// flow it calls, each once.
func flowSlots(prog *ir.Program, flow string) []string {
	f := prog.Flow(flow)
	if f == nil {
		return nil
	}
	var out []string
	add := func(n string) {
		if n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	for _, s := range f.Slots {
		add(s.Name)
	}
	for _, n := range f.Nodes {
		if n.Kind == ir.KindCollect {
			add(n.Slot)
		}
	}
	for _, s := range calledSlots(prog, flow) {
		add(s.Name)
	}
	return out
}

// slotClose reports whether a name a model wrote is close to a slot's
// name: the words of one (split at underscores, hyphens and case
// changes) run whole inside the other's (transfer_amount and amount,
// recipient and recipientName), or the two are at most two letters apart
// and both have five letters or more (recipent and recipient).
func slotClose(written, slot string) bool {
	a, b := nameWords(written), nameWords(slot)
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	if within(b, a) || within(a, b) {
		return true
	}
	w, s := strings.Join(a, ""), strings.Join(b, "")
	return len(w) >= 5 && len(s) >= 5 && suggest.Levenshtein(w, s) <= 2
}

// nameWords splits a slot name into lower-case words: at underscores,
// hyphens, and a lower-case letter followed by an upper-case one.
func nameWords(name string) []string {
	var words []string
	var cur strings.Builder
	prev := rune(0)
	flush := func() {
		if cur.Len() > 0 {
			words = append(words, cur.String())
			cur.Reset()
		}
	}
	for _, r := range name {
		switch {
		case r == '_' || r == '-' || r == ' ':
			flush()
		case r >= 'A' && r <= 'Z' && prev >= 'a' && prev <= 'z':
			flush()
			cur.WriteRune(r + 'a' - 'A')
		default:
			cur.WriteString(strings.ToLower(string(r)))
		}
		prev = r
	}
	flush()
	return words
}

// within reports whether the words of part run whole, in order, inside
// whole.
func within(part, whole []string) bool {
	for i := 0; i+len(part) <= len(whole); i++ {
		if slices.Equal(whole[i:i+len(part)], part) {
			return true
		}
	}
	return false
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

// below reports whether a flow is on the stack under the topmost flow
// that is no pattern.
func below(stack []string, flow string) bool {
	top := len(stack) - 1
	for top >= 0 && ir.IsPattern(stack[top]) {
		top--
	}
	for i := top - 1; i >= 0; i-- {
		if stack[i] == flow {
			return true
		}
	}
	return false
}
