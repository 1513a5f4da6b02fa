package understand

import (
	"slices"
	"strings"

	"github.com/soni-dev/soni/internal/text"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// message is what the rules compute once for a message, before any rule
// reads it: its text in the forms the rules compare, the pending
// question, the cancel parse and the best trigger match. The answer to
// the pending question is computed when a rule first asks for it.
type message struct {
	v vm.View
	// p is the pending question, or nil.
	p *vm.Pending
	// trimmed is the message without surrounding space.
	trimmed string
	textReading

	answered  bool
	answerCmd vm.Command
	answerOK  bool
}

// textReading is what the rules compute of a message's text alone, for
// their program: it depends on nothing else (not the conversation, the
// pending question or the time), so the rules keep it for the messages
// they read often (Rules.textOf). Its slices are shared: no rule may
// change them.
type textReading struct {
	// head is the message's first MaxScan bytes, and complete is false
	// when it was cut there.
	head     string
	complete bool
	// norm is head normalized (values.Normalize) with repeated letters
	// collapsed; "" for a message of only punctuation or symbols.
	norm string
	// plainCancel is a cancel word with polite words around it;
	// cancelObject holds the object of a cancel verb ("the transfer"),
	// and cancelThen the request after "stop that, ..." (cancelRequest).
	plainCancel, objectCancel bool
	cancelObject, cancelThen  []string
	// m is the best trigger match; exact is true when the message is a
	// trigger phrase exactly.
	m     triggerMatch
	exact bool
	// more holds what the rules work out of norm and head when a rule
	// first asks (memo.go).
	more *textMore
}

// newMessage computes a message's reading for the rules.
func (r *Rules) newMessage(msg string, v vm.View) *message {
	in := &message{v: v, p: v.Pending, trimmed: strings.TrimSpace(msg)}
	in.textReading = r.textOf(in.trimmed)
	if r.sure != nil {
		r.sure.text = in.textReading
	}
	return in
}

// readText computes the textReading of a message without surrounding
// space.
func (r *Rules) readText(trimmed string) textReading {
	t := textReading{complete: true, more: &textMore{}}
	if trimmed == "" {
		return t
	}
	t.head = trimmed
	if len(t.head) > MaxScan {
		t.head, t.complete = text.Cut(t.head, MaxScan), false
	}
	t.norm = values.Normalize(t.head)
	if t.norm == "" && t.complete {
		return t
	}
	t.norm = collapseRepeats(t.norm)
	if t.complete {
		t.plainCancel, t.cancelObject, t.cancelThen = cancelRequest(t.norm)
		t.objectCancel = t.cancelObject != nil
	}
	t.m = r.bestTrigger(t.norm, t.complete)
	t.exact = t.complete && r.exactTrigger(t.norm)
	return t
}

// symbols reports whether the message has no letter or digit to read:
// only punctuation, symbols or emoji.
func (in *message) symbols() bool { return in.norm == "" && in.complete }

// answerOf is the pending question's answer (Rules.answer), computed once.
func (r *Rules) answerOf(in *message) (vm.Command, bool) {
	if !in.answered {
		in.answered = true
		in.answerCmd, in.answerOK = r.answer(in.p, in.trimmed, in.head, in.norm, in.v)
	}
	return in.answerCmd, in.answerOK
}

// freeTextCollect reports whether a free-text question is pending.
func (r *Rules) freeTextCollect(in *message) bool {
	return in.p != nil && in.p.Kind == vm.PendingCollect && !typed(r.slotDef(in.p.Flow, in.p.Slot))
}

// rule is one rule of the table: its name (stable, snake_case: the
// trace, the turn log and soni eval show it), a one-line description
// (the package documentation lists it), and how it reads a message. read
// returns the reading and true when the rule answers the message.
type rule struct {
	name string
	doc  string
	read func(r *Rules, in *message) (Reading, bool)
}

// rules is the rule table, in the order the rules are tried: the first
// rule that answers a message reads it. The last one always answers.
var rules = []rule{
	{"empty", "an empty message is the fallback.", (*Rules).ruleEmpty},
	{"emoji_yes_no", "a thumbs up or down answers a pending yes/no question.", (*Rules).ruleEmojiYesNo},
	{"emoji", "a yes or no emoji with no yes/no question pending is small talk.", (*Rules).ruleEmoji},
	{"no_letters", "a message with no letter or digit is the fallback.", (*Rules).ruleNoLetters},
	{"cancel_word", "a cancel word, alone or with polite words around it, cancels the top flow or denies a pending confirm.", (*Rules).ruleCancelWord},
	{"cancel_named", "a cancel verb whose object names a flow on the stack cancels that flow (\"no, cancel the flight\").", (*Rules).ruleCancelNamed},
	{"negated_wish", "a negated wish for an active flow cancels it (\"I don't want to send money anymore\").", (*Rules).ruleNegatedWish},
	{"cancel_then_start", "a cancel, then a request for another flow, cancels and starts it (\"stop that, I want to see my transfers\").", (*Rules).ruleCancelThenStart},
	{"yes_no", "a yes or no word answers a pending yes/no question, before small talk.", (*Rules).ruleYesNo},
	{"button_title", "the title of a button of the pending question, typed, answers as its payload does.", (*Rules).ruleButtonTitle},
	{"option_position", "a position (\"the second one\", \"the last one\") picks that option of the pending question: of its buttons, the values it names, or the items it lists.", (*Rules).ruleOptionPosition},
	{"talk_flow", "small talk the project's own greeting, goodbye, help, handoff or bot flow answers starts that flow.", (*Rules).ruleTalkFlow},
	{"small_talk", "small talk, a request for help or for a person, unless the message is a trigger phrase or exactly the answer.", (*Rules).ruleSmallTalk},
	{"cancel_top_flow", "a cancel verb with the top flow's own trigger words cancels it (\"forget the flight\").", (*Rules).ruleCancelTopFlow},
	{"asks_other", "a question for another flow starts it (\"wait, what is my savings balance?\" at a confirmation).", (*Rules).ruleAsksOther},
	{"digression", "at a question, a message plainly about another flow starts that flow.", (*Rules).ruleDigression},
	{"request_at_free_text", "at a free-text question, a request for another flow starts it (\"also I need a hotel\").", (*Rules).ruleRequestAtFreeText},
	{"answer_over_trigger", "a valid answer to the pending question keeps answering, though it also matches a trigger.", (*Rules).ruleAnswerOverTrigger},
	{"greeting_then_request", "a greeting before a request starts the flow the request means.", (*Rules).ruleGreetingThenRequest},
	{"exact_trigger", "a trigger phrase, exactly, starts its flow.", (*Rules).ruleExactTrigger},
	{"trigger", "a message that matches a trigger phrase and says more starts its flow, filled.", (*Rules).ruleTrigger},
	{"cancel_object", "a cancel verb with an object cancels (\"cancel the transfer\"), unless it may be a free-text answer.", (*Rules).ruleCancelObject},
	{"value_then_number", "at a free-text question, the answer, then a value of the flow's number slot (\"a scarf worth 40\").", (*Rules).ruleValueThenNumber},
	{"unit_values", "at a free-text question, a number with a word of another of the flow's number slots sets that slot too (\"2 nights in Berlin\").", (*Rules).ruleUnitValues},
	{"date_range", "at a date question, a start and an end (\"from may 14th to the 17th\") set the asked slot and the flow's end date or count of nights.", (*Rules).ruleDateRange},
	{"answer", "the message answers the pending question.", (*Rules).ruleAnswer},
	{"option_words", "a pick (\"the free one\") with a word the pending question says of one of its categorical values only, in the clause that names it, answers with that value.", (*Rules).ruleOptionWords},
	{"button_words", "a short message that names words of one button of the pending question only answers as that button's payload does (\"I'm having a problem\" for \"Facing a problem\").", (*Rules).ruleButtonWords},
	{"meaning", "the message's words mean one flow, which starts, or several, which are offered (clarify).", (*Rules).ruleMeaning},
	{"invalid_answer", "the message as given, for the pending question, which the VM refuses.", (*Rules).ruleInvalidAnswer},
	{"fallback", "no other rule reads the message: the fallback.", (*Rules).ruleFallback},
}

// RuleNames returns the names of the rules of the table, in the order
// they are tried: soni eval lists its counts per rule in this order.
func RuleNames() []string {
	names := make([]string, len(rules))
	for i, ru := range rules {
		names[i] = ru.name
	}
	return names
}

// readRules walks the rule table: the first rule that answers reads the
// message, and the reading carries its name.
func (r *Rules) readRules(in *message) Reading {
	for _, ru := range rules[:len(rules)-1] {
		if rd, ok := ru.read(r, in); ok {
			rd.Rule = ru.name
			return rd
		}
	}
	// The last rule, fallback, answers every message (TestRuleTable).
	last := rules[len(rules)-1]
	rd, _ := last.read(r, in)
	rd.Rule = last.name
	return rd
}

func (r *Rules) ruleEmpty(in *message) (Reading, bool) {
	if in.trimmed != "" {
		return Reading{}, false
	}
	return unsure("the message is empty", vm.Command{Kind: vm.CmdFallback}), true
}

func (r *Rules) ruleEmojiYesNo(in *message) (Reading, bool) {
	if !in.symbols() {
		return Reading{}, false
	}
	yes, ok := values.YesNo(in.trimmed)
	if !ok {
		return Reading{}, false
	}
	return r.yesNoAnswer(in.p, yes, in.v)
}

func (r *Rules) ruleEmoji(in *message) (Reading, bool) {
	if !in.symbols() {
		return Reading{}, false
	}
	yes, ok := values.YesNo(in.trimmed)
	if !ok {
		return Reading{}, false
	}
	c := vm.Command{Kind: vm.CmdChitchat}
	if yes {
		c.SmallTalk = ir.SmallTalkAck // a thumbs up
	}
	return unsure("an emoji with no yes/no question pending", c), true
}

func (r *Rules) ruleNoLetters(in *message) (Reading, bool) {
	if !in.symbols() {
		return Reading{}, false
	}
	return unsure("nothing to read: no letter or digit", vm.Command{Kind: vm.CmdFallback}), true
}

func (r *Rules) ruleCancelWord(in *message) (Reading, bool) {
	if !in.plainCancel {
		return Reading{}, false
	}
	return sure("a cancel word", cancelCommand(in.p, in.norm)), true
}

func (r *Rules) ruleCancelNamed(in *message) (Reading, bool) {
	if !in.objectCancel || len(in.v.Stack) == 0 {
		return Reading{}, false
	}
	return r.cancelNamed(in.p, in.norm, in.cancelObject, in.v)
}

func (r *Rules) ruleNegatedWish(in *message) (Reading, bool) {
	if !in.complete {
		return Reading{}, false
	}
	return r.negatedWish(in.p, in.norm, in.head, in.v)
}

func (r *Rules) ruleCancelThenStart(in *message) (Reading, bool) {
	if in.cancelThen == nil || len(in.v.Stack) == 0 {
		return Reading{}, false
	}
	return r.cancelThenStart(in.cancelThen, in.head, in.v)
}

func (r *Rules) ruleYesNo(in *message) (Reading, bool) {
	if in.p == nil || in.exact || !r.yesNoPending(in.p) {
		return Reading{}, false
	}
	yes, ok := values.YesNo(in.head)
	if !ok || !exactYesNo(in.norm) {
		return Reading{}, false
	}
	return r.yesNoAnswer(in.p, yes, in.v)
}

// smallTalkIn is the small talk, help or request for a person a message
// is, unless the message is a flow's own trigger phrase ("hello" in a
// project whose greet flow says so) or exactly the answer to the
// pending question.
func (r *Rules) smallTalkIn(in *message) (vm.Command, bool) {
	if !in.complete || in.m.exact || in.exact {
		return vm.Command{}, false
	}
	// A greeting the project's greet flow answers is the flow's; a
	// request for help or a person is not, unless it is strongly one of
	// the flow's phrases. A phrase of another kind is not the flow's:
	// "thanks, that's helpful" is no help flow's "help".
	m := in.m
	c, ok := r.smallTalk(in.norm)
	if !ok || (m.flow != nil && m.smallTalk && m.talk == c.Kind && (c.Kind == vm.CmdChitchat || m.strong)) {
		return vm.Command{}, false
	}
	p := in.p
	if (p != nil && p.Kind == vm.PendingCollect && r.sureAnswerText(p, in.head, in.norm, in.v)) || r.nameAnswer(p, c, in.head) {
		return vm.Command{}, false
	}
	return c, true
}

func (r *Rules) ruleTalkFlow(in *message) (Reading, bool) {
	// "is this a real person?" asks who answers, not for a person: the
	// project's bot flow answers it (talkflows.go).
	if in.complete && botQuestion(in.norm) {
		if name := r.talkFlow(talkBot, in.v); name != "" && !onTop(in.v, name) {
			rd := unsure("a question whether the user talks to a bot, which the project's flow "+name+" answers", vm.Command{Kind: vm.CmdStartFlow, Flow: name})
			rd.Sure = in.p == nil
			return rd, true
		}
	}
	c, ok := r.smallTalkIn(in)
	if !ok {
		return Reading{}, false
	}
	// The project's own flow for a greeting, a goodbye or "what can you
	// do" answers it (talkflows.go).
	name := r.talkFlow(talkKind(c), in.v)
	if name == "" || onTop(in.v, name) {
		return Reading{}, false
	}
	rd := unsure("small talk the project's flow "+name+" answers", vm.Command{Kind: vm.CmdStartFlow, Flow: name})
	rd.Sure = in.p == nil
	return rd, true
}

func (r *Rules) ruleSmallTalk(in *message) (Reading, bool) {
	c, ok := r.smallTalkIn(in)
	if !ok {
		return Reading{}, false
	}
	if in.p == nil {
		// With nothing asked, a message that is only small talk is small
		// talk.
		return sure("small talk: "+string(c.Kind), c), true
	}
	return unsure("small talk: "+string(c.Kind), c), true
}

func (r *Rules) ruleCancelTopFlow(in *message) (Reading, bool) {
	// "forget the flight" while the flight is asked: the cancel verb's
	// object names the flow on top, whose trigger words it matches.
	m := in.m
	if !in.objectCancel || in.p == nil || m.flow == nil || m.exact || !onTop(in.v, m.flow.name) || !r.namesActiveFlow(in.cancelObject, in.v) {
		return Reading{}, false
	}
	return unsure("a cancel verb with the flow's own words", cancelCommand(in.p, in.norm)), true
}

func (r *Rules) ruleAsksOther(in *message) (Reading, bool) {
	if !in.complete || in.exact {
		return Reading{}, false
	}
	return r.asksOther(in.p, in.trimmed, in.norm, in.head, in.m, in.v)
}

func (r *Rules) ruleDigression(in *message) (Reading, bool) {
	// At a question, a message that is plainly about another flow
	// ("actually I lost my card", "wait, what's the status of my other
	// ticket?") is a digression, not the answer.
	p := in.p
	if p == nil || p.Kind != vm.PendingCollect || !in.complete || r.sureAnswerText(p, in.head, in.norm, in.v) {
		return Reading{}, false
	}
	fr := r.strongOther(in.norm, in.v)
	if fr == nil {
		return Reading{}, false
	}
	return unsure("the message is about flow "+fr.name+", not an answer", r.start(fr, in)), true
}

func (r *Rules) ruleRequestAtFreeText(in *message) (Reading, bool) {
	// Free text would take any words: "also I need a hotel", "actually I
	// want to check my other ticket" is a digression, not the answer.
	if !in.complete || !r.freeTextCollect(in) {
		return Reading{}, false
	}
	rest, ok := requestLead(in.norm)
	if !ok {
		return Reading{}, false
	}
	flows, why := r.byMeaning(rest, in.head, in.v)
	if len(flows) != 1 || onTop(in.v, flows[0]) {
		return Reading{}, false
	}
	return unsure(why+", asked for at a free-text question", r.start(r.byName[flows[0]], in)), true
}

func (r *Rules) ruleAnswerOverTrigger(in *message) (Reading, bool) {
	// A match for the flow already on top follows the same rules as a
	// digression: a valid answer keeps answering, and anything else is a
	// start_flow, which the VM ignores for the flow on top (language §8),
	// so the pending question is asked again. The trigger phrase is never
	// stored as the answer nor counted as an invalid one.
	m, p := in.m, in.p
	if m.flow == nil || p == nil || m.exact {
		return Reading{}, false
	}
	// A message that is a valid answer keeps answering: for a typed
	// question (a number, a category, a date...) unless it is exactly a
	// trigger phrase, for free text unless the match is strong.
	typedQuestion := p.Kind == vm.PendingConfirm || typed(r.slotDef(p.Flow, p.Slot))
	if !typedQuestion && m.strong {
		return Reading{}, false
	}
	cmd, ok := r.answerOf(in)
	if !ok {
		return Reading{}, false
	}
	if p.Kind == vm.PendingConfirm && (cmd.Kind == vm.CmdAffirm || cmd.Kind == vm.CmdDeny) && !exactYesNo(in.norm) && !slices.Contains(in.v.Stack, m.flow.name) {
		// "oh no, I just lost my card" at a transfer's confirmation: a
		// yes or no word that leads another flow's request is no answer.
		return Reading{}, false
	}
	return r.answerReading(p, cmd, in.head, in.norm, in.v, "the message answers the pending question (it also matches a trigger of "+m.flow.name+")"), true
}

func (r *Rules) ruleGreetingThenRequest(in *message) (Reading, bool) {
	// "hola, quiero mandar dinero a mi padre": a greeting before a
	// request; the request says which flow.
	m := in.m
	if m.flow == nil || !m.smallTalk || m.exact || !in.complete {
		return Reading{}, false
	}
	flows, why := r.byMeaning(in.norm, in.head, in.v)
	if len(flows) != 1 || flows[0] == m.flow.name {
		return Reading{}, false
	}
	return unsure(why+" after a greeting", r.start(r.byName[flows[0]], in)), true
}

func (r *Rules) ruleExactTrigger(in *message) (Reading, bool) {
	m, p := in.m, in.p
	if m.flow == nil || !(in.exact || m.exact) {
		return Reading{}, false
	}
	cmd := r.start(m.flow, in)
	if len(cmd.Slots) == 0 && p != nil && !onTop(in.v, m.flow.name) {
		// A message that names another flow while a question waits goes
		// to the model (issue 18 §1), even as the very words of a
		// trigger phrase.
		return unsure("an exact trigger phrase of "+m.flow.name+" while a question of "+p.Flow+" waits", cmd), true
	}
	if len(cmd.Slots) == 0 {
		return sure("an exact trigger phrase of "+m.flow.name, cmd), true
	}
	return unsure("a trigger phrase of "+m.flow.name+" with values", cmd), true
}

func (r *Rules) ruleTrigger(in *message) (Reading, bool) {
	if in.m.flow == nil {
		return Reading{}, false
	}
	if !in.m.strong && in.complete {
		// A weak match whose other words mean another flow: "help, slow
		// internet" is the flow about slow internet, not the help
		// flow whose phrase is "help you".
		if flows, why := r.byMeaning(in.norm, in.head, in.v); len(flows) == 1 && flows[0] != in.m.flow.name {
			return unsure(why+", more than a trigger phrase of "+in.m.flow.name, r.start(r.byName[flows[0]], in)), true
		}
	}
	return unsure("the message matches a trigger phrase of "+in.m.flow.name+" and says more", r.start(in.m.flow, in)), true
}

func (r *Rules) ruleCancelObject(in *message) (Reading, bool) {
	// After the triggers, so that a flow whose phrase is "cancel my card"
	// still starts. At a free-text question, "cancel my subscription"
	// may be the answer itself: there the form cancels only when its
	// object is a pronoun or names a flow on the stack.
	if !in.objectCancel || (r.freeTextCollect(in) && !r.namesActiveFlow(in.cancelObject, in.v)) {
		return Reading{}, false
	}
	return unsure("a cancel verb with an object", cancelCommand(in.p, in.norm)), true
}

// collectComplete reports whether a collect is pending and the message
// was read whole.
func collectComplete(in *message) bool {
	return in.p != nil && in.p.Kind == vm.PendingCollect && in.complete
}

func (r *Rules) ruleValueThenNumber(in *message) (Reading, bool) {
	if !collectComplete(in) {
		return Reading{}, false
	}
	cmds, ok := r.valueThenNumber(in.p, in.head, in.norm, in.v)
	if !ok {
		return Reading{}, false
	}
	return Reading{Commands: cmds, Reason: "a free-text answer, then a value of " + cmds[1].Slot}, true
}

func (r *Rules) ruleUnitValues(in *message) (Reading, bool) {
	if !collectComplete(in) {
		return Reading{}, false
	}
	cmds, ok := r.unitValues(in.p, in.head, in.v)
	if !ok {
		return Reading{}, false
	}
	return Reading{Commands: cmds, Reason: "a free-text answer with a value of " + cmds[1].Slot}, true
}

func (r *Rules) ruleDateRange(in *message) (Reading, bool) {
	if !collectComplete(in) {
		return Reading{}, false
	}
	cmds, ok := r.dateRange(in.p, in.head, in.v)
	if !ok {
		return Reading{}, false
	}
	return Reading{Commands: cmds, Reason: "a start and an end: " + cmds[0].Slot + " and " + cmds[1].Slot}, true
}

func (r *Rules) ruleAnswer(in *message) (Reading, bool) {
	if in.p == nil {
		return Reading{}, false
	}
	cmd, ok := r.answerOf(in)
	if !ok {
		return Reading{}, false
	}
	return r.answerReading(in.p, cmd, in.head, in.norm, in.v, "the message answers the pending question"), true
}

func (r *Rules) ruleMeaning(in *message) (Reading, bool) {
	if !in.complete {
		return Reading{}, false
	}
	flows, why := r.byMeaning(in.norm, in.head, in.v)
	if in.p != nil && (len(flows) > 1 || (len(flows) == 1 && len(in.v.Stack) > 0 && in.v.Stack[len(in.v.Stack)-1] == flows[0])) {
		// While a question waits, only one other flow interrupts it:
		// never a choice between two, never the flow that asks.
		return Reading{}, false
	}
	switch {
	case len(flows) == 1:
		return unsure(why, r.start(r.byName[flows[0]], in)), true
	case len(flows) > 1:
		return unsure(why, vm.Command{Kind: vm.CmdClarify, Flows: flows}), true
	}
	return Reading{}, false
}

func (r *Rules) ruleInvalidAnswer(in *message) (Reading, bool) {
	if in.p == nil {
		return Reading{}, false
	}
	cmd, _ := r.answerOf(in)
	if cmd.Kind == vm.CmdFallback {
		return Reading{}, false
	}
	return unsure("the message is no valid answer to the pending question", cmd), true
}

func (r *Rules) ruleFallback(*message) (Reading, bool) {
	return unsure("no rule reads the message", vm.Command{Kind: vm.CmdFallback}), true
}

// start is the start of a flow, with the slots the message fills.
func (r *Rules) start(fr *flowRules, in *message) vm.Command {
	return vm.Command{Kind: vm.CmdStartFlow, Flow: fr.name, Slots: r.fill(fr, in.head, in.v)}
}
