package understand

import (
	"context"
	"slices"
	"strings"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/payload"
	"github.com/soni-dev/soni/vm"
)

// WithPayloads returns an understanding layer that reads a button's
// payload that came back as the user's message (package payload) before
// next sees it, so that payloads work wherever a message arrives: the
// REST channel, the API, chat and conversation tests. Any other message
// goes to next (nil: none). The soni Engine puts it in front of every
// understanding layer.
func WithPayloads(next vm.Understander) vm.Understander { return payloadUnderstander{next: next} }

// payloadUnderstander is the layer of WithPayloads.
type payloadUnderstander struct {
	next vm.Understander
}

// Understand turns a payload into commands, or asks next.
func (u payloadUnderstander) Understand(ctx context.Context, msg string, v vm.View) ([]vm.Command, error) {
	p, err := payload.Parse(msg)
	if err != nil {
		payloadNote(v, err.Error()+"; read as not understood")
		v.Answer(vm.Understanding{Layer: "payload", Sure: true, Reason: "a malformed payload"})
		return []vm.Command{{Kind: vm.CmdFallback}}, nil
	}
	if p.Kind == payload.None {
		if u.next == nil {
			return nil, nil
		}
		return u.next.Understand(ctx, msg, v)
	}
	cmds, reason := payloadCommands(p, v)
	if cmds == nil && p.Kind == payload.Intent && u.next != nil {
		// An intent that names no flow and sets no slot: the intent's
		// name is what the user meant ("/greet" is "greet").
		payloadNote(v, "payload "+msg+": no flow is named or triggered by intent "+p.Name+"; understood as the text "+strings.ReplaceAll(p.Name, "_", " "))
		return u.next.Understand(ctx, strings.ReplaceAll(p.Name, "_", " "), v)
	}
	if cmds == nil {
		cmds = []vm.Command{{Kind: vm.CmdFallback}}
	}
	v.Answer(vm.Understanding{Layer: "payload", Sure: true, Reason: reason})
	return cmds, nil
}

func payloadNote(v vm.View, s string) {
	if v.Note != nil {
		v.Note(s)
	}
}

// payloadCommands turns a payload into commands against the conversation
// v shows; nil when nothing of it applies.
func payloadCommands(p payload.Payload, v vm.View) ([]vm.Command, string) {
	switch p.Kind {
	case payload.Command:
		switch p.Name {
		case "start":
			return []vm.Command{{Kind: vm.CmdStartFlow, Flow: p.Flow}}, "the payload /start " + p.Flow
		case "set":
			return payloadSlotCommands(p.Slots, v), "the payload /set"
		case "cancel":
			return []vm.Command{{Kind: vm.CmdCancelFlow}}, "the payload /cancel"
		case "yes":
			return []vm.Command{{Kind: vm.CmdAffirm}}, "the payload /yes"
		case "no":
			return []vm.Command{{Kind: vm.CmdDeny}}, "the payload /no"
		}
	case payload.SetSlots:
		return payloadSlotCommands(p.Slots, v), "a /SetSlots payload"
	case payload.Intent:
		if f := payloadIntentFlow(v.Program, p.Name); f != nil {
			c := vm.Command{Kind: vm.CmdStartFlow, Flow: f.Name}
			var rest []payload.Slot
			for _, s := range p.Slots {
				if v.Program.ResolveSlot(f.Name, s.Name) != nil {
					c.Slots = append(c.Slots, vm.SlotValue{Slot: s.Name, Value: s.Value})
				} else {
					rest = append(rest, s)
				}
			}
			return append([]vm.Command{c}, payloadSlotCommands(rest, v)...), "the intent payload /" + p.Name
		}
		return payloadSlotCommands(p.Slots, v), "the intent payload /" + p.Name
	}
	return nil, ""
}

// intentFlow returns the flow an intent payload starts: the flow of that
// name, else the first (by name) that lists the intent's name as a
// trigger phrase; nil for none, or for a pattern.
func payloadIntentFlow(prog *ir.Program, intent string) *ir.Flow {
	if f := prog.Flow(intent); f != nil && !ir.IsPattern(f.Name) {
		return f
	}
	for _, f := range prog.Flows {
		if !ir.IsPattern(f.Name) && slices.Contains(f.Triggers, intent) {
			return f
		}
	}
	return nil
}

// slotCommands sets the slots that the conversation can hold now: a
// conversation slot, or a slot of a flow on the stack (a pattern's own,
// or the flow it interrupted). Others are left out, with a note.
func payloadSlotCommands(slots []payload.Slot, v vm.View) []vm.Command {
	var out []vm.Command
	for _, s := range slots {
		if !payloadSlotInScope(v, s.Name) {
			payloadNote(v, "payload slot "+s.Name+" is no slot of the active flows: left out")
			continue
		}
		out = append(out, vm.Command{Kind: vm.CmdSetSlot, Slot: s.Name, Value: s.Value})
	}
	return out
}

func payloadSlotInScope(v vm.View, name string) bool {
	if v.Program.Slot(name) != nil {
		return true
	}
	for i := len(v.Stack) - 1; i >= 0; i-- {
		f := v.Stack[i]
		if ir.IsPatternSlot(f, name) {
			return false // read-only
		}
		if fl := v.Program.Flow(f); fl != nil && fl.Slot(name) != nil {
			return true
		}
	}
	return false
}
