package actions

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/soni-dev/soni/internal/text"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// A Rasa action server sets slots with SlotSet events, and Rasa stores
// the value as it comes, whatever the slot's type: a text in a bool slot
// stays a text, and a flow condition reads it for its truth (a non-empty
// text is true). soni's slots hold their type's values only, so a value
// that does not convert would fail the action and cancel the flow, which
// Rasa never does. rasaOutputs does what Rasa does as far as a typed slot
// allows, and warns: a boolean slot takes the value's truth, as Rasa's
// conditions read it; a slot of another type keeps the value it had.

// rasaOutputs fits the slot events of a Rasa answer to the slots' types
// (see above), warning through req.Warn for each value it changed or
// left out.
func (r *Runner) rasaOutputs(req vm.ActionRequest, outs map[string]any) {
	for _, name := range slices.Sorted(maps.Keys(outs)) {
		raw := outs[name]
		s := r.rasaSlot(name)
		if s == nil || raw == nil {
			continue
		}
		if _, err := values.Convert(s, raw); err == nil {
			continue
		}
		shown := text.Clip(fmt.Sprint(raw), 60)
		warn := func(format string, args ...any) {
			if req.Warn != nil {
				req.Warn(fmt.Sprintf(format, args...))
			}
		}
		if s.Type == ir.TypeBoolean {
			v := rasaTruth(raw)
			outs[name] = v
			warn("action %q set the boolean slot %q to %q, which is no boolean: soni stores %t, the truth Rasa's conditions read in it", req.Action, name, shown, v)
			continue
		}
		delete(outs, name)
		warn("action %q set the %s slot %q to %q, which it cannot hold: the slot keeps its value (Rasa would store the text as it is)", req.Action, s.Type, name, shown)
	}
}

// rasaSlot finds the slot a Rasa action's SlotSet names: a conversation
// slot, else the first flow slot of that name (Rasa's slots are global).
func (r *Runner) rasaSlot(name string) *ir.Slot {
	if r.prog == nil {
		return nil
	}
	for _, s := range r.prog.Slots {
		if s.Name == name {
			return s
		}
	}
	for _, f := range r.prog.Flows {
		for _, s := range f.Slots {
			if s.Name == name {
				return s
			}
		}
	}
	return nil
}

// rasaTruth is the truth Rasa reads in a value set into a boolean slot:
// "true" and "false" (any case) and numbers as Rasa's slots convert them
// (1 is true), and any other text by Python's truth, as a flow condition
// reads it (true unless empty).
func rasaTruth(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case float64:
		return x == 1
	case string:
		t := strings.ToLower(strings.TrimSpace(x))
		switch t {
		case "true":
			return true
		case "false":
			return false
		}
		if f, err := strconv.ParseFloat(t, 64); err == nil {
			return f == 1
		}
		return x != ""
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	}
	return v != nil
}
