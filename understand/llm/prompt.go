package llm

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"text/template"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/tmpl"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

//go:embed prompt.tmpl
var defaultPrompt string

// MaxMessage bounds the user's message put in the prompt, in bytes.
const MaxMessage = 2000

// PromptData is what a prompt template sees.
type PromptData struct {
	Flows   []PromptFlow
	Stack   []string
	Pending *PromptPending
	Slots   []PromptSlotValue
	History []vm.Message
	Message string
	// Today is the conversation's date, "Wednesday 2027-03-10".
	Today string
	// JSON is true when the answer is asked for as JSON
	// (response_format json_schema) instead of the line grammar.
	JSON bool
	// Lists is true when a slot of the prompt is a list slot, which
	// takes several values in one VALUE.
	Lists bool
}

// PromptFlow is a flow that can start, with its slots.
type PromptFlow struct {
	Name, Description string
	Triggers          []string
	Slots             []PromptSlot
}

// PromptSlot is a slot of a flow.
type PromptSlot struct {
	Name, Type, Description string
	Values                  []string
	// Constraints are its min, max, pattern and synonyms, for people:
	// "min 0.01, max 10000".
	Constraints string
}

// PromptPending is the question that waits.
type PromptPending struct {
	Kind, Slot, Prompt, Type string
	Values                   []string
}

// PromptSlotValue is a slot that holds a value.
type PromptSlotValue struct{ Name, Value string }

// ParsePrompt parses a prompt template (text/template with a join
// function); "" is the default prompt.
func ParsePrompt(src string) (*template.Template, error) {
	if src == "" {
		src = defaultPrompt
	}
	return template.New("prompt").Funcs(template.FuncMap{"join": strings.Join}).Option("missingkey=error").Parse(src)
}

// promptData builds the template's data from the program and the
// conversation: deterministic, sorted, the message cut to MaxMessage.
func promptData(v vm.View, msg string, maxHistory int) PromptData {
	prog := v.Program
	d := PromptData{Stack: v.Stack, Message: cut(msg, MaxMessage)}
	now := v.Now
	if now.IsZero() {
		now = values.Now()
	}
	d.Today = now.Format("Monday 2006-01-02")
	slotOf := func(s *ir.Slot) PromptSlot {
		ps := PromptSlot{Name: s.Name, Type: string(s.Type), Description: s.Description}
		var cons []string
		for _, val := range s.Values {
			ps.Values = append(ps.Values, val.Value)
			if len(val.Synonyms) > 0 {
				cons = append(cons, val.Value+" also said as "+strings.Join(val.Synonyms, ", "))
			}
		}
		if s.Min != nil {
			cons = append([]string{"min " + tmpl.Format(*s.Min)}, cons...)
		}
		if s.Max != nil {
			cons = append(cons, "max "+tmpl.Format(*s.Max))
		}
		if s.Pattern != "" {
			cons = append(cons, "pattern "+s.Pattern)
		}
		if s.MinItems > 0 {
			cons = append(cons, "at least "+items(s.MinItems))
		}
		if s.MaxItems > 0 {
			cons = append(cons, "at most "+items(s.MaxItems))
		}
		ps.Constraints = strings.Join(cons, "; ")
		if s.Type == ir.TypeList {
			d.Lists = true
		}
		return ps
	}
	for _, f := range prog.Flows {
		if len(f.Triggers) == 0 {
			continue // only what a message can start
		}
		if v.CanStart != nil && !v.CanStart(f.Name) {
			continue // its guard (if:) does not hold: absent for now
		}
		pf := PromptFlow{Name: f.Name, Description: f.Description, Triggers: f.Triggers}
		seen := map[string]bool{}
		for _, n := range f.Nodes {
			if n.Kind != ir.KindCollect || seen[n.Slot] {
				continue
			}
			seen[n.Slot] = true
			if s := prog.ResolveSlot(f.Name, n.Slot); s != nil {
				pf.Slots = append(pf.Slots, slotOf(s))
			}
		}
		// The slots of the flows it calls: a message that starts it may
		// give them too (language.md, slots across calls).
		if s := calledSlots(prog, f.Name); len(s) > 0 {
			for _, def := range s {
				if !seen[def.Name] {
					seen[def.Name] = true
					pf.Slots = append(pf.Slots, slotOf(def))
				}
			}
		}
		d.Flows = append(d.Flows, pf)
	}
	if p := v.Pending; p != nil {
		pp := &PromptPending{Kind: string(p.Kind), Slot: p.Slot, Prompt: p.Prompt}
		if s := prog.ResolveSlot(p.Flow, p.Slot); s != nil {
			pp.Type = string(s.Type)
			if s.Type == ir.TypeList {
				d.Lists = true
			}
			for _, val := range s.Values {
				pp.Values = append(pp.Values, val.Value)
			}
		}
		d.Pending = pp
	}
	var names []string
	for _, s := range prog.Slots {
		names = append(names, s.Name)
	}
	if n := len(v.Stack); n > 0 {
		if f := prog.Flow(v.Stack[n-1]); f != nil {
			for _, s := range f.Slots {
				names = append(names, s.Name)
			}
		}
		// A pattern on top also sees the slots of the flow it
		// interrupted, which a correction may name.
		if f := prog.Flow(ir.Interrupted(v.Stack)); f != nil {
			for _, s := range f.Slots {
				names = append(names, s.Name)
			}
		}
	}
	slices.Sort(names)
	for _, n := range slices.Compact(names) {
		if val, ok := v.Slot(n); ok && val != nil {
			d.Slots = append(d.Slots, PromptSlotValue{Name: n, Value: tmpl.Format(val)})
		}
	}
	if maxHistory > 0 && len(v.History) > 0 {
		h := v.History
		if len(h) > maxHistory {
			h = h[len(h)-maxHistory:]
		}
		d.History = h
	}
	return d
}

// RenderPrompt renders a prompt for a message in a conversation, asking
// for the answer in the given format.
func RenderPrompt(t *template.Template, v vm.View, msg string, maxHistory int, answer AnswerFormat) (string, error) {
	var b strings.Builder
	d := promptData(v, msg, maxHistory)
	d.JSON = answer == AnswerJSONSchema
	if err := t.Execute(&b, d); err != nil {
		return "", fmt.Errorf("render the prompt: %w", err)
	}
	return b.String(), nil
}

// items says a number of items: "1 item", "3 items".
func items(n int) string {
	if n == 1 {
		return "1 item"
	}
	return fmt.Sprintf("%d items", n)
}

// cut shortens s to at most n bytes, on a rune boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && (s[n]&0xC0) == 0x80 {
		n--
	}
	return s[:n]
}
