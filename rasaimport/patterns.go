package rasaimport

import (
	"strings"

	"github.com/soni-dev/soni/ir"
)

// Rasa's default patterns and soni's differ where a conversation ends:
// Rasa asks "what else" (utter_can_do_something_else) when the last flow
// completes and when a cancellation leaves no flow, and says
// utter_corrected_previous_input after a correction; soni's defaults say
// nothing there. A Rasa project's tests check Rasa's behaviour, so the
// import writes Rasa-shaped overrides of those patterns that the project
// does not override itself, in flows/patterns_rasa.yaml. They say soni's
// built-in responses of Rasa's names, which the project may define.

// patternsFile is where the Rasa-shaped pattern overrides go.
const patternsFile = "flows/patterns_rasa.yaml"

// rasaPatterns returns the Rasa-shaped overrides of the default patterns
// the project does not define, or nil.
func (im *importer) rasaPatterns() *ymap {
	if !im.f.patterns {
		return nil
	}
	flows := &ymap{}
	var written []string
	say := func(id, response string) *ymap {
		m := &ymap{flow: true}
		m.add("step", id)
		m.add("type", "say")
		m.add("response", response)
		return m
	}
	add := func(name, desc string, steps ...*ymap) {
		if im.flows[name] != nil {
			return
		}
		f := &ymap{}
		f.add("description", desc)
		seq := &yseq{}
		for _, s := range steps {
			seq.add(s)
		}
		f.add("steps", seq)
		e := flows.add(name, f)
		e.comments = []string{"Rasa's default " + name + ", which the project's tests expect (soni's default differs)."}
		written = append(written, name)
	}

	add(ir.PatternCompleted, "Asks what else the user needs once the last flow is done (Rasa's default)",
		say("anything_else", "utter_can_do_something_else"))

	cancel := &ymap{flow: true}
	cancel.add("step", "cancel")
	cancel.add("type", "action")
	cancel.add("call", "action_cancel_flow")
	left := &ymap{}
	left.add("step", "nothing_left")
	left.add("type", "branch")
	left.add("evaluate", "nothing_left")
	left.add("cases", &ymap{flow: true, entries: []yentry{{key: "true", val: "anything_else"}}})
	left.add("jump_to", "__end__")
	add(ir.PatternCancelFlow, "Cancels the flow, says so, and asks what else when no flow is left (Rasa's default)",
		cancel, say("inform", "utter_flow_cancelled_rasa"), left, say("anything_else", "utter_can_do_something_else"))

	correct := &ymap{flow: true}
	correct.add("step", "correct")
	correct.add("type", "action")
	correct.add("call", "action_correct_flow_slot")
	reset := &ymap{}
	reset.add("step", "reset_only")
	reset.add("type", "branch")
	reset.add("evaluate", "is_reset_only")
	reset.add("cases", &ymap{flow: true, entries: []yentry{{key: "true", val: "__end__"}}})
	add(ir.PatternCorrection, "Applies a correction and says so (Rasa's default)",
		correct, reset, say("inform", "utter_corrected_previous_input"))

	if len(flows.entries) == 0 {
		return nil
	}
	im.rep.add(loc{File: "config.yml"}, "flow", StatusApproximated, patternsFile, "nothing; remove an override to get soni's default, or write your own",
		"Rasa's default %s differ from soni's (Rasa asks what else after the last flow, also after a cancellation, and confirms a correction): the import writes Rasa's as overrides", strings.Join(written, ", "))
	doc := &ymap{}
	doc.add("version", "1.0")
	doc.add("flows", flows)
	return doc
}
