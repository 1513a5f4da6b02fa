package rasaimport

import (
	"strings"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
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
// the project does not define, as a project file of the syntax model, or
// nil.
func (im *importer) rasaPatterns() *syntax.File {
	if !im.f.patterns {
		return nil
	}
	doc := &syntax.File{Version: syntax.S("1.0")}
	var written []string
	step := func(id, typ string) *syntax.Step {
		s := syntax.NewStep(nil, syntax.Pos{}, "")
		s.ID, s.Type, s.Kind = syntax.S(id), syntax.S(typ), ir.Kind(typ)
		return s
	}
	say := func(id, response string) *syntax.Step {
		s := step(id, "say")
		s.Response, s.OneLine = syntax.S(response), true
		return s
	}
	call := func(id, action string) *syntax.Step {
		s := step(id, "action")
		s.Action().Call, s.OneLine = syntax.S(action), true
		return s
	}
	// branch goes to then when cond holds, else to jump ("" goes on).
	branch := func(id, cond, then, jump string) *syntax.Step {
		s := step(id, "branch")
		s.Branch().Evaluate = syntax.S(cond)
		s.Cases = []*syntax.Case{{Pattern: syntax.S("true"), Target: syntax.S(then)}}
		if jump != "" {
			s.JumpTo = syntax.S(jump)
		}
		return s
	}
	add := func(name, desc string, steps ...*syntax.Step) {
		if im.flows[name] != nil {
			return
		}
		f := &syntax.Flow{Name: syntax.S(name), Description: syntax.S(desc), Steps: steps, Main: len(steps)}
		f.Comments.AddHead("", "Rasa's default "+name+", which the project's tests expect (soni's default differs).")
		doc.Flows = append(doc.Flows, f)
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
	if len(doc.Flows) == 0 {
		return nil
	}
	im.rep.add(loc{File: "config.yml"}, "flow", StatusApproximated, patternsFile, "nothing; remove an override to get soni's default, or write your own",
		"Rasa's default %s differ from soni's (Rasa asks what else after the last flow, also after a cancellation, and confirms a correction): the import writes Rasa's as overrides", strings.Join(written, ", "))
	return doc
}
