package understand

import (
	"strings"

	"github.com/soni-dev/soni/ir"
	lexdata "github.com/soni-dev/soni/lexicon"
	"github.com/soni-dev/soni/vm"
)

// A question is a digression (docs/understanding.md, "A question asks
// for another flow"): at any pending question or confirmation, a message
// that asks a question ("wait, what is my savings balance?" at "Block the
// card ending in 4821?") whose words mean one flow other than the one
// asking starts that flow. It is never a correction nor an answer of the
// question it interrupts.

// asksOther is the start_flow of the flow a question asks for, when it is
// not the flow asking.
func (r *Rules) asksOther(p *vm.Pending, trimmed, norm, head string, m triggerMatch, v vm.View) (Reading, bool) {
	if p == nil || !asksSomething(trimmed, norm) {
		return Reading{}, false
	}
	// "how about savings" at "Which account?" answers it: a value of the
	// question, read whole, is the answer. A value that does not convert
	// ("what is my savings balance?" as a card number) is none.
	if cmd, ok := r.answer(p, trimmed, head, norm, v); ok && (cmd.Kind == vm.CmdSetSlot || cmd.Kind == vm.CmdCorrectSlot) {
		if def := r.slotDef(p.Flow, cmd.Slot); def != nil {
			if _, err := v.Converter().Convert(def, cmd.Value); err == nil {
				return Reading{}, false
			}
		}
	}
	var fr *flowRules
	if m.flow != nil && !m.smallTalk {
		fr = m.flow
	} else if flows, _ := r.byMeaning(norm, head, v); len(flows) == 1 {
		fr = r.byName[flows[0]]
	}
	if fr == nil || fr.name == p.Flow || onTop(v, fr.name) || ir.IsPattern(fr.name) || fr.name == interrupted(p, v) {
		return Reading{}, false
	}
	return unsure("a question for flow "+fr.name+" while "+p.Flow+" asks", vm.Command{Kind: vm.CmdStartFlow, Flow: fr.name, Slots: r.fill(fr, head, v)}), true
}

// openQuestionWords start a question that asks for something, not a yes
// or no: "what is my balance", "how much do I have".
var openQuestionWords = lexdata.Set("open_question_words")

// asksSomething reports whether a message is a question: it ends with a
// question mark and starts with a question word (after fillers such as
// "wait"), or it starts with a word that asks what, how, when or where.
func asksSomething(trimmed, norm string) bool {
	if isQuestion(trimmed, norm) {
		return true
	}
	for w := range strings.FieldsSeq(norm) {
		if fillers[w] || correctionFillers[w] {
			continue
		}
		return openQuestionWords[w]
	}
	return false
}
