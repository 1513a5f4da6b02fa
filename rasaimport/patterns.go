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
	call := func(id, action string) *ymap {
		m := &ymap{flow: true}
		m.add("step", id)
		m.add("type", "action")
		m.add("call", action)
		return m
	}
	// branch goes to then when cond holds, else to jump ("" goes on).
	branch := func(id, cond, then, jump string) *ymap {
		m := &ymap{}
		m.add("step", id)
		m.add("type", "branch")
		m.add("evaluate", cond)
		m.add("cases", &ymap{flow: true, entries: []yentry{{key: "true", val: then}}})
		if jump != "" {
			m.add("jump_to", jump)
		}
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

	add(ir.PatternCancelFlow, "Cancels the flow, says so, and asks what else when no flow is left (Rasa's default)",
		call("cancel", "action_cancel_flow"), say("inform", "utter_flow_cancelled_rasa"),
		branch("nothing_left", "nothing_left", "anything_else", "__end__"), say("anything_else", "utter_can_do_something_else"))
	add(ir.PatternCorrection, "Applies a correction and says so (Rasa's default)",
		call("correct", "action_correct_flow_slot"), branch("reset_only", "is_reset_only", "__end__", ""),
		say("inform", "utter_corrected_previous_input"))

	if fl := im.flows[ir.PatternCancelFlow]; fl != nil {
		// The project's own cancel pattern: Rasa runs pattern_completed
		// after it when no flow is left; the import links to it there
		// (flowBuilder.build).
		im.rep.add(fl.at, "flow", StatusApproximated, flowPath(fl.file), "nothing, unless the project's pattern_completed should not follow a cancellation",
			"the project's %s: when a cancellation leaves no flow, Rasa then runs %s (the project's, or Rasa's default, which asks what else: \"utter_can_do_something_else\"); the import ends the flow with a link to it when nothing_left", ir.PatternCancelFlow, ir.PatternCompleted)
	}
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
