package understand

import (
	"strings"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/payload"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// Answers that name a button of the question (docs/understanding.md,
// "Buttons"). A question asked with buttons ("Done" and "Facing a
// problem", each with a /SetSlots payload) is often answered by typing
// instead of clicking: "done" is the button titled Done, and "I'm having
// a problem with it" names only the words of "Facing a problem". The
// button's payload then answers, as a click would.

// questionButtons are the buttons of the pending collect's question: of
// every variation of the response its step asks with.
func (r *Rules) questionButtons(p *vm.Pending) []ir.Button {
	if p == nil || p.Kind != vm.PendingCollect || r.prog == nil {
		return nil
	}
	f := r.prog.Flow(p.Flow)
	if f == nil {
		return nil
	}
	i := f.Index(p.Step)
	if i < 0 || i >= len(f.Nodes) || f.Nodes[i].Message == nil || f.Nodes[i].Message.Response == "" {
		return nil
	}
	resp := r.prog.Response(f.Nodes[i].Message.Response)
	if resp == nil {
		return nil
	}
	var out []ir.Button
	seen := map[string]bool{}
	for _, va := range resp.Variations {
		for _, b := range va.Buttons {
			if key := values.Normalize(b.Title); key != "" && !seen[key] {
				seen[key] = true
				out = append(out, b)
			}
		}
	}
	return out
}

// buttonCommands are the commands of a button's payload, as its click
// gives them; nil for a payload that gives none.
func buttonCommands(b ir.Button, v vm.View) []vm.Command {
	p, err := payload.Parse(b.Payload)
	if err != nil || p.Kind == payload.None {
		return nil
	}
	cmds, _ := payloadCommands(p, v)
	return cmds
}

// contentStems are the stems of a text's words that are no stop words.
func contentStems(norm string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(norm) {
		if !stopWords[w] {
			out[stem(w)] = true
		}
	}
	return out
}

func (r *Rules) ruleButtonTitle(in *message) (Reading, bool) {
	if !in.complete {
		return Reading{}, false
	}
	for _, b := range r.questionButtons(in.p) {
		if values.Normalize(b.Title) == in.norm {
			if cmds := buttonCommands(b, in.v); cmds != nil {
				return Reading{Commands: cmds, Sure: true, Reason: "the title of the question's button " + b.Title}, true
			}
		}
	}
	return Reading{}, false
}

func (r *Rules) ruleButtonWords(in *message) (Reading, bool) {
	if in.p == nil || in.p.Kind != vm.PendingCollect || !in.complete || isQuestion(in.trimmed, in.norm) || !fieldsUnder(in.norm, 9) {
		return Reading{}, false
	}
	// A categorical slot's values have their own words (answer reads
	// them), and a negated word names the button it does not mean ("not
	// urgent").
	if def := r.slotDef(in.p.Flow, in.p.Slot); def == nil || def.Type == ir.TypeCategorical || def.Type == ir.TypeList {
		return Reading{}, false
	}
	for _, w := range strings.Fields(in.norm) {
		if negations[w] || negatedCopulas[w] {
			return Reading{}, false
		}
	}
	buttons := r.questionButtons(in.p)
	if len(buttons) < 2 {
		return Reading{}, false
	}
	said := contentStems(in.norm)
	var picked []ir.Button
	for _, b := range buttons {
		for w := range contentStems(values.Normalize(b.Title)) {
			if said[w] {
				picked = append(picked, b)
				break
			}
		}
	}
	if len(picked) != 1 {
		return Reading{}, false
	}
	cmds := buttonCommands(picked[0], in.v)
	if cmds == nil {
		return Reading{}, false
	}
	return Reading{Commands: cmds, Reason: "the words of the question's button " + picked[0].Title}, true
}
