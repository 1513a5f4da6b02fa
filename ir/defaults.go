package ir

import (
	"sort"

	"github.com/soni-dev/soni/diag"
)

// DefaultsFile is the file name the default patterns' positions carry.
const DefaultsFile = "<soni default patterns>"

// The responses the default patterns say (Rasa's names where Rasa has
// one). A project that defines a response of one of these names changes
// what the default pattern says without overriding the pattern.
const (
	ResponseAskRephrase         = "utter_ask_rephrase"
	ResponseCannotHandle        = "utter_cannot_handle"
	ResponseCanDoSomethingElse  = "utter_can_do_something_else"
	ResponseClarification       = "utter_clarification_options_rasa"
	ResponseCorrected           = "utter_corrected_previous_input"
	ResponseFlowCancelled       = "utter_flow_cancelled_rasa"
	ResponseContinueInterrupted = "utter_flow_continue_interrupted"
	ResponseChitchat            = "utter_free_chitchat_response"
	// The answers of the default pattern_chitchat to each kind of small
	// talk (SmallTalkKinds); utter_free_chitchat_response answers the
	// rest.
	ResponseGreet         = "utter_greet"
	ResponseYouAreWelcome = "utter_you_are_welcome"
	ResponseGoodbye       = "utter_goodbye"
	ResponseTakeYourTime  = "utter_take_your_time"
	ResponseAcknowledge   = "utter_acknowledge"
	ResponseHelp          = "utter_help"
	ResponseHumanHandoff  = "utter_human_handoff_not_available"
	ResponseInternalError = "utter_internal_error_rasa"
	ResponseSkipQuestion  = "utter_skip_question_answer"
	// The default messages of an invalid value of a categorical, boolean
	// or numeric slot go by these names (their text is soni's default
	// invalid message); a project may define them.
	ResponseCategoricalRejection = "utter_categorical_slot_rejection"
	ResponseBooleanRejection     = "utter_boolean_slot_rejection"
	ResponseFloatRejection       = "utter_float_slot_rejection"
	defaultClarify               = "Did you mean {options}?"
	defaultHelp                  = "Here is what I can do:\n{flow_list}"
	defaultCannotHandle          = "Sorry, I can't help with that right now."
	defaultChitchat              = "I'm only a virtual assistant, but I'm happy to help with what I can do."
	defaultHandoff               = "Sorry, I can't put you through to a person here, but I'm happy to help with what I can do."
	defaultChitchatEs            = "Solo soy un asistente virtual, pero te ayudo con gusto en lo que puedo hacer."
	defaultHandoffEs             = "Lo siento, aquí no puedo pasarte con una persona, pero te ayudo con gusto en lo que puedo hacer."
	defaultSkipQuestion          = "Sorry, I need an answer to this question to go on."
	defaultPatternDescriptionEnd = " (soni's default)"
)

// DefaultResponses lists the names of the responses the default patterns
// say, sorted.
var DefaultResponses = []string{
	ResponseAskRephrase, ResponseCanDoSomethingElse, ResponseCannotHandle, ResponseClarification,
	ResponseCorrected, ResponseFlowCancelled, ResponseContinueInterrupted,
	ResponseChitchat, ResponseHelp, ResponseHumanHandoff, ResponseInternalError,
	ResponseSkipQuestion, ResponseBooleanRejection, ResponseCategoricalRejection, ResponseFloatRejection,
	ResponseAcknowledge, ResponseGoodbye, ResponseGreet, ResponseTakeYourTime, ResponseYouAreWelcome,
}

// smallTalkResponses are the default pattern_chitchat's answers, per kind
// of small talk: the response, and its variations as {condition on
// question_pending ("" for none), English text, Spanish text}.
var smallTalkResponses = []struct {
	kind, name string
	vars       [][3]string
}{
	{SmallTalkGreet, ResponseGreet, [][3]string{
		{"true", "Hello!", "¡Hola!"},
		{"", "Hello! How can I help you?", "¡Hola! ¿En qué puedo ayudarte?"}}},
	{SmallTalkThanks, ResponseYouAreWelcome, [][3]string{{"", "You're welcome!", "¡De nada!"}}},
	{SmallTalkGoodbye, ResponseGoodbye, [][3]string{
		{"true", "Goodbye! We can finish this whenever you come back.", "¡Adiós! Podemos terminar esto cuando vuelvas."},
		{"", "Goodbye! Have a nice day.", "¡Adiós! Que tengas un buen día."}}},
	{SmallTalkWait, ResponseTakeYourTime, [][3]string{{"", "Of course, take your time.", "Claro, tómate tu tiempo."}}},
	{SmallTalkAck, ResponseAcknowledge, [][3]string{{"", "Great!", "¡Genial!"}}},
}

// WithDefaults returns the program with soni's default flow for every
// pattern it does not define, and the default patterns' responses it does
// not define; both are marked Builtin. The message settings configure the
// defaults: fallback_message is utter_ask_rephrase, cancel_message
// utter_flow_cancelled_rasa, action_error_message
// utter_internal_error_rasa, chitchat_message utter_free_chitchat_response,
// clarify_message utter_clarification_options_rasa, and handoff either
// the flow pattern_human_handoff links to or its message. Without
// chitchat_message, pattern_chitchat answers each kind of small talk with
// its own response (utter_greet, utter_you_are_welcome...). p is not
// changed; the result shares p's flows and responses.
func WithDefaults(p *Program) *Program {
	s := p.Settings
	d := DefaultSettings()
	text := func(v, def string) string {
		if v == "" {
			return def
		}
		return v
	}
	out := *p
	out.Flows = append([]*Flow(nil), p.Flows...)
	out.Responses = append([]*Response(nil), p.Responses...)
	line := 0
	pos := func() diag.Pos {
		line++
		return diag.Pos{File: DefaultsFile, Line: line, Col: 1}
	}
	addResp := func(name, src string) {
		if p.Response(name) != nil {
			return
		}
		v := &Variation{Pos: pos()}
		if src != "" {
			v.Text = &Template{Src: src, Pos: v.Pos}
		}
		out.Responses = append(out.Responses, &Response{Name: name, Variations: []*Variation{v}, Builtin: true, Pos: v.Pos})
	}
	addVariations := func(name string, vars [][3]string) {
		if p.Response(name) != nil {
			return
		}
		r := &Response{Name: name, Builtin: true}
		for _, x := range vars {
			v := &Variation{Pos: pos()}
			v.Text = &Template{Src: x[1], Pos: v.Pos}
			v.Translation = map[string]*Template{"es": {Src: x[2], Pos: v.Pos}}
			if x[0] != "" {
				v.Condition = []SlotCondition{{Slot: "question_pending", Value: x[0] == "true"}}
			}
			r.Variations = append(r.Variations, v)
		}
		r.Pos = r.Variations[0].Pos
		out.Responses = append(out.Responses, r)
	}
	handoffFlow := s.Handoff != "" && p.Flow(s.Handoff) != nil
	handoffMsg := ""
	if s.Handoff != "" && !handoffFlow {
		handoffMsg = s.Handoff
	}
	addResp(ResponseAskRephrase, text(s.FallbackMessage, d.FallbackMessage))
	addResp(ResponseCanDoSomethingElse, "What else can I help you with?")
	addResp(ResponseCannotHandle, defaultCannotHandle)
	addResp(ResponseClarification, text(s.ClarifyMessage, defaultClarify))
	addResp(ResponseCorrected, "Okay, I've updated the {corrected_slot_label} to {new_value}.")
	addResp(ResponseFlowCancelled, text(s.CancelMessage, d.CancelMessage))
	addResp(ResponseContinueInterrupted, "Let's continue with the {previous_flow_name}.")
	if s.ChitchatMessage == "" {
		addVariations(ResponseChitchat, [][3]string{{"", defaultChitchat, defaultChitchatEs}})
	} else {
		addResp(ResponseChitchat, s.ChitchatMessage)
	}
	for _, st := range smallTalkResponses {
		addVariations(st.name, st.vars)
	}
	addResp(ResponseHelp, defaultHelp)
	if handoffMsg == "" {
		addVariations(ResponseHumanHandoff, [][3]string{{"", defaultHandoff, defaultHandoffEs}})
	} else {
		addResp(ResponseHumanHandoff, handoffMsg)
	}
	addResp(ResponseInternalError, text(s.ActionErrorMessage, d.ActionErrorMessage))
	addResp(ResponseSkipQuestion, defaultSkipQuestion)
	addResp(ResponseCategoricalRejection, "")
	addResp(ResponseBooleanRejection, "")
	addResp(ResponseFloatRejection, "")
	sort.Slice(out.Responses, func(i, j int) bool { return out.Responses[i].Name < out.Responses[j].Name })

	say := func(id, resp string) *Node {
		return &Node{ID: id, Kind: KindSay, Pos: pos(), Message: &Template{Response: resp}}
	}
	act := func(id, action string) *Node {
		return &Node{ID: id, Kind: KindAction, Pos: pos(), Action: action}
	}
	link := func(id, target string) *Node {
		return &Node{ID: id, Kind: KindLink, Pos: pos(), Target: target}
	}
	add := func(name, desc string, nodes ...*Node) {
		if p.Flow(name) != nil {
			return
		}
		for i, n := range nodes {
			// A node made with Next End ends the flow; any other goes on
			// to the next node.
			if n.Next != End {
				n.Next = i + 1
			}
			if i == len(nodes)-1 {
				n.Next = End
			}
			if n.Message != nil {
				n.Message.Pos = n.Pos
			}
		}
		f := &Flow{Name: name, Description: desc + defaultPatternDescriptionEnd, Nodes: nodes, Builtin: true, Pos: pos()}
		f.Slots = append(f.Slots, &Slot{Name: ContextSlot, Type: TypeAny, Pos: f.Pos})
		for _, ps := range PatternSlots[name] {
			f.Slots = append(f.Slots, &Slot{Name: ps.Name, Type: ps.Type, Pos: f.Pos})
		}
		sort.Slice(f.Slots, func(i, j int) bool { return f.Slots[i].Name < f.Slots[j].Name })
		out.Flows = append(out.Flows, f)
	}
	add(PatternCancelFlow, "Says that a flow is cancelled, and cancels it",
		say("inform", ResponseFlowCancelled), act("cancel", ActionCancelFlow))
	ended := func(n *Node) *Node {
		n.Next = End
		return n
	}
	branch := func(id, expr string, target int) *Node {
		n := &Node{ID: id, Kind: KindBranch, Pos: pos(), Evaluate: &Expr{Src: expr}, Cases: []Case{{Pattern: "true", Target: target}}}
		n.Evaluate.Pos = n.Pos
		return n
	}
	// pattern_cannot_handle: a flow that cannot start says so; a message
	// not understood gets the fallback message when a question waits for
	// its answer, and nothing otherwise (the idle message follows when no
	// flow is active).
	add(PatternCannotHandle, "Says that a message was not understood, or that what it asks cannot be done now",
		branch("not_supported", `reason == "cannot_handle_not_supported"`, 3),
		branch("pending", "!question_pending", End),
		ended(say("rephrase", ResponseAskRephrase)), say("not_now", ResponseCannotHandle))
	// pattern_chitchat: chitchat_message is one answer to all small talk;
	// without it, each kind of small talk gets its own answer, and small
	// talk of no known kind a neutral one.
	if s.ChitchatMessage != "" {
		add(PatternChitchat, "Answers small talk", say("answer", ResponseChitchat))
	} else {
		kinds := &Node{ID: "kind", Kind: KindBranch, Pos: pos(), Slot: "small_talk"}
		nodes := []*Node{kinds}
		for _, st := range smallTalkResponses {
			kinds.Cases = append(kinds.Cases, Case{Pattern: st.kind, Target: len(nodes)})
			nodes = append(nodes, ended(say(st.kind, st.name)))
		}
		kinds.Cases = append(kinds.Cases, Case{Pattern: "default", Target: len(nodes)})
		nodes = append(nodes, say("other", ResponseChitchat))
		add(PatternChitchat, "Answers small talk: a greeting, thanks, a goodbye, a request for a moment, an acknowledgement", nodes...)
	}
	add(PatternClarification, "Asks which of several flows the user meant",
		act("offer", ActionClarifyFlows), say("ask", ResponseClarification))
	// soni's defaults say nothing here, as soni always did; the responses
	// they leave unsaid have Rasa-like texts for the overrides that say
	// them (utter_can_do_something_else in a pattern_completed override).
	add(PatternCompleted, "Runs when the user's flows are done", act("listen", ActionListen))
	add(PatternContinueInterrupted, "Runs when a flow interrupted by another one continues", act("listen", ActionListen))
	add(PatternCorrection, "Applies a correction of a slot's value", act("correct", ActionCorrectFlowSlot))
	add(PatternHelp, "Tells the user what the bot can do",
		branch("nothing", "len(flow_names) == 0", End), say("list", ResponseHelp))
	switch {
	case handoffFlow:
		add(PatternHumanHandoff, "Hands the conversation to a person", link("handoff", s.Handoff))
	case handoffMsg != "":
		add(PatternHumanHandoff, "Says how to reach a person", say("inform", ResponseHumanHandoff))
	default:
		add(PatternHumanHandoff, "Says that no person can take the conversation here", say("inform", ResponseHumanHandoff))
	}
	add(PatternInternalError, "Says that something went wrong", say("inform", ResponseInternalError))
	add(PatternRepeatBotMessages, "Says the bot's last messages again", act("repeat", ActionRepeatBotMessages))
	add(PatternSessionStart, "Starts a conversation", act("start", ActionSessionStart))
	add(PatternSkipQuestion, "Answers a request to skip a question", say("explain", ResponseSkipQuestion))
	sort.Slice(out.Flows, func(i, j int) bool { return out.Flows[i].Name < out.Flows[j].Name })
	return &out
}
