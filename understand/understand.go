// Package understand is soni's built-in understanding layer: a small,
// deterministic set of rules that turns a user's message into VM commands
// without any network or model. It implements vm.Understander.
//
// # Rules
//
// The rules are a table (rules.go), tried in this order on what is
// computed once for a message (its normalized text, the pending
// question, the cancel parse, the best trigger match). The first rule
// that answers reads the message: it gives the commands, whether the
// rules are sure of them and why, and its name shows in soni chat
// --trace, the turn log and soni eval. docs/understanding.md describes
// each rule with its word lists and examples.
//
//   - empty: an empty message is the fallback.
//   - emoji_yes_no: a thumbs up or down answers a pending yes/no question.
//   - emoji: a yes or no emoji with no yes/no question pending is small
//     talk.
//   - no_letters: a message with no letter or digit is the fallback.
//   - cancel_word: a cancel word, alone or with polite words around it,
//     cancels the top flow or denies a pending confirm.
//   - cancel_named: a cancel verb whose object names a flow on the stack
//     cancels that flow ("no, cancel the flight").
//   - negated_wish: a negated wish for an active flow cancels it ("I don't
//     want to send money anymore").
//   - cancel_then_start: a cancel, then a request for another flow, cancels
//     and starts it ("stop that, I want to see my transfers").
//   - yes_no: a yes or no word answers a pending yes/no question, before
//     small talk.
//   - button_title: the title of a button of the pending question, typed,
//     answers as its payload does.
//   - option_position: a position ("the second one", "the last one") picks
//     that option of the pending question: of its buttons, the values it
//     names, or the items it lists.
//   - talk_flow: small talk the project's own greeting, goodbye, help,
//     handoff or bot flow answers starts that flow.
//   - small_talk: small talk, a request for help or for a person, unless the
//     message is a trigger phrase or exactly the answer.
//   - cancel_top_flow: a cancel verb with the top flow's own trigger words
//     cancels it ("forget the flight").
//   - asks_other: a question for another flow starts it ("wait, what is my
//     savings balance?" at a confirmation).
//   - digression: at a question, a message plainly about another flow starts
//     that flow.
//   - request_at_free_text: at a free-text question, a request for another
//     flow starts it ("also I need a hotel").
//   - answer_over_trigger: a valid answer to the pending question keeps
//     answering, though it also matches a trigger.
//   - greeting_then_request: a greeting before a request starts the flow the
//     request means.
//   - exact_trigger: a trigger phrase, exactly, starts its flow.
//   - trigger: a message that matches a trigger phrase and says more starts
//     its flow, filled.
//   - cancel_object: a cancel verb with an object cancels ("cancel the
//     transfer"), unless it may be a free-text answer.
//   - value_then_number: at a free-text question, the answer, then a value
//     of the flow's number slot ("a scarf worth 40").
//   - unit_values: at a free-text question, a number with a word of another
//     of the flow's number slots sets that slot too ("2 nights in Berlin").
//   - date_range: at a date question, a start and an end ("from may 14th to
//     the 17th") set the asked slot and the flow's end date or count of
//     nights.
//   - answer: the message answers the pending question.
//   - option_words: a pick ("the free one") with a word the pending
//     question says of one of its categorical values only, in the clause
//     that names it, answers with that value.
//   - button_words: a short message that names words of one button of the
//     pending question only answers as that button's payload does ("I'm
//     having a problem" for "Facing a problem").
//   - meaning: the message's words mean one flow, which starts, or several,
//     which are offered (clarify).
//   - invalid_answer: the message as given, for the pending question, which
//     the VM refuses.
//   - fallback: no other rule reads the message: the fallback.
package understand

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/soni-dev/soni/internal/text"

	"github.com/soni-dev/soni/ir"
	lexdata "github.com/soni-dev/soni/lexicon"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// MaxScan is how many bytes at the start of a message the rules read for
// cancel words, triggers, corrections and slot filling. A message longer
// than this can still be a collect answer (values.Convert reads it all),
// but it is never an exact trigger or cancel match. The cap keeps every
// turn's work bounded whatever the user sends.
const MaxScan = 4096

// Trigger thresholds. A trigger matches when the message is equal to it
// after normalization, when every content word of the trigger is in the
// message, or when the Jaccard index of the two content-word sets is at
// least matchJaccard. A match is strong (it interrupts a message that is
// also a valid answer to a pending question) when it is exact or its
// Jaccard index is at least strongJaccard.
const (
	matchJaccard  = 0.6
	strongJaccard = 0.8
)

// Rules is the built-in rule-based understander for one program. It is
// immutable after New and safe for concurrent use.
type Rules struct {
	prog   *ir.Program
	flows  []*flowRules
	byName map[string]*flowRules
	// mean reads what flows a message is about (meaning.go).
	mean *meaning
	// readAs holds the free-text slots that hold a number or a date, as
	// the rules read them (readas.go).
	readAs map[*ir.Slot]*ir.Slot
	// sure is the memo of the message being read: Read reads each message
	// with a copy of the Rules that has one of its own.
	sure *sureMemo
	// facts holds what the rules read out of the program's own text for
	// every message, worked out once (facts.go).
	facts *programFacts
}

var _ vm.Understander = (*Rules)(nil)

// flowRules is what the rules precompute for one flow.
type flowRules struct {
	name     string
	triggers []trigger
	// slots are the slots the flow collects: the conversation and flow
	// slots named by its collect steps, in step order, then its other flow
	// slots by name.
	slots []slotRef
	// collected holds the names of the slots its collect steps ask for.
	collected map[string]bool
	// roles are its collected free-text slots by role (slots.go); a role
	// two slots share is nil.
	roles map[role]*slotRef
	// role is each collected free-text slot's role.
	role map[string]role
	// callees are the categorical and pattern slots of the flows it
	// calls, which a message that starts it may fill too.
	callees []slotRef
	// asked are its askedCarriers, worked out when a message first
	// needs them (opening.go).
	asked struct {
		once     sync.Once
		carriers [][]string
	}
}

type trigger struct {
	norm string
	// fields are norm's words, in order.
	fields []string
	words  []string // sorted, distinct content words
	// allStop is true when the phrase has only stop words; words then
	// holds all of them and the message's words are compared in full.
	allStop bool
	// verb is the phrase's first content word, stemmed ("" when allStop).
	verb string
	// smallTalk is true when the phrase itself reads as small talk
	// (smallTalkOf), as a greet flow's "hello" does; talk is the kind of
	// command it reads as (chitchat, help, human_handoff...).
	smallTalk bool
	talk      vm.CommandKind
}

type slotRef struct {
	name string
	def  *ir.Slot
}

// New precomputes the normalized trigger phrases and collected slots of
// every flow of p. A nil program understands nothing: every message is a
// fallback (or a cancel).
func New(p *ir.Program) *Rules {
	r := &Rules{prog: p, byName: map[string]*flowRules{}, facts: newProgramFacts(p)}
	var extra map[string][]string
	if p != nil && p.Settings.Understanding != nil {
		extra = p.Settings.Understanding.Lexicon
	}
	r.mean = newMeaning(p, newLex(extra))
	if p == nil {
		return r
	}
	r.readAs = map[*ir.Slot]*ir.Slot{}
	for _, s := range p.Slots {
		if x := readAs(s); x != nil {
			r.readAs[s] = x
		}
	}
	// soni's default patterns (Builtin) start from commands, not from what
	// a message says: the rules read the project's flows only.
	for _, f := range p.Flows {
		if f == nil || f.Builtin {
			continue
		}
		for _, s := range f.Slots {
			if x := readAs(s); x != nil {
				r.readAs[s] = x
			}
		}
	}
	for _, x := range r.readAs {
		r.facts.addSlot(x)
	}
	for _, f := range p.Flows {
		if f == nil || f.Builtin {
			continue
		}
		fr := &flowRules{name: f.Name}
		for _, phrase := range f.Triggers {
			// A phrase made of a description speaks of what the flow
			// does, not of the flow and its users (projecttext.go).
			norm := aboutText(values.Normalize(withoutPlaceholders(phrase)))
			if norm == "" {
				continue
			}
			words, allStop := contentWords(aboutText(values.Normalize(withoutNames(withoutPlaceholders(phrase)))), nil)
			t := trigger{norm: norm, fields: strings.Fields(norm), words: words, allStop: allStop}
			var talk vm.Command
			talk, t.smallTalk = smallTalkOf(norm)
			t.talk = talk.Kind
			if !allStop {
				t.verb = firstContent(norm)
			}
			fr.triggers = append(fr.triggers, t)
		}
		seen := map[string]bool{}
		fr.collected, fr.roles, fr.role = map[string]bool{}, map[role]*slotRef{}, map[string]role{}
		for _, n := range f.Nodes {
			if n == nil || n.Kind != ir.KindCollect || n.Slot == "" || seen[n.Slot] {
				continue
			}
			seen[n.Slot] = true
			fr.collected[n.Slot] = true
			fr.slots = append(fr.slots, slotRef{n.Slot, r.asRead(p.ResolveSlot(f.Name, n.Slot))})
		}
		for i := range fr.slots {
			s := &fr.slots[i]
			if s.def == nil || typed(s.def) || (s.def.Type != ir.TypeText && s.def.Type != "") {
				continue
			}
			question := ""
			for _, n := range f.Nodes {
				if n != nil && n.Kind == ir.KindCollect && n.Slot == s.name && n.Message != nil {
					question = questionText(p, n.Message)
					break
				}
			}
			ro := slotRole(s.name, s.def, question)
			fr.role[s.name] = ro
			if ro == roleNone {
				continue
			}
			if _, taken := fr.roles[ro]; taken {
				fr.roles[ro] = nil
				continue
			}
			fr.roles[ro] = s
		}
		var rest []string
		for _, s := range f.Slots {
			if s != nil && !seen[s.Name] && p.Slot(s.Name) == nil {
				seen[s.Name] = true
				rest = append(rest, s.Name)
			}
		}
		sort.Strings(rest)
		for _, name := range rest {
			fr.slots = append(fr.slots, slotRef{name, r.asRead(f.Slot(name))})
		}
		r.flows = append(r.flows, fr)
		r.byName[f.Name] = fr
	}
	sort.Slice(r.flows, func(i, j int) bool { return r.flows[i].name < r.flows[j].name })
	// A flow's opening message may also give the slots of the flows it
	// calls ("a large pepperoni pizza" for the pizza flow it calls): the
	// VM holds them until that flow asks (language.md, slots across
	// calls). The rules offer their categorical and pattern slots.
	for _, fr := range r.flows {
		fr.callees = r.calleeSlots(fr)
	}
	return r
}

// calleeSlots lists the collected categorical, list (of declared values)
// and pattern slots of the flows fr calls, directly or through other
// calls, that fr does not have (ir.Program.Callees), by name.
func (r *Rules) calleeSlots(fr *flowRules) []slotRef {
	callees := r.prog.Callees(fr.name)
	var out []slotRef
	for _, name := range slices.Sorted(maps.Keys(callees)) {
		callee := r.byName[callees[name]]
		if callee == nil || !callee.collected[name] {
			continue
		}
		for _, s := range callee.slots {
			if s.name == name && s.def != nil && (s.def.Type == ir.TypeCategorical || valueList(s.def) || (s.def.Pattern != "" && typed(s.def))) {
				out = append(out, s)
			}
		}
	}
	// The conversation slots the called flows collect: the VM sets them
	// at once, and the called flow's collect finds them filled.
	own := map[string]bool{}
	for _, s := range fr.slots {
		own[s.name] = true
	}
	for _, callee := range r.calledFlows(fr.name) {
		for _, s := range r.byName[callee].slots {
			if own[s.name] || !r.byName[callee].collected[s.name] || r.prog.Slot(s.name) == nil || s.def == nil {
				continue
			}
			if s.def.Type == ir.TypeCategorical || valueList(s.def) || (s.def.Pattern != "" && typed(s.def)) {
				own[s.name] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// calledFlows are the flows a flow calls, directly or through other
// calls, by name.
func (r *Rules) calledFlows(flow string) []string {
	seen := map[string]bool{flow: true}
	var out []string
	var walk func(name string)
	walk = func(name string) {
		f := r.prog.Flow(name)
		if f == nil {
			return
		}
		for _, n := range f.Nodes {
			if n != nil && n.Kind == ir.KindCall && !seen[n.Target] && r.byName[n.Target] != nil {
				seen[n.Target] = true
				out = append(out, n.Target)
				walk(n.Target)
			}
		}
	}
	walk(flow)
	sort.Strings(out)
	return out
}

// cancelWords are the normalized messages that cancel the top flow.
var cancelWords = lexdata.Set("cancel_words")

// Reading is what the rules made of a message: the commands, whether
// the rules are sure of them, and how they were reached. Only a sure
// reading skips the model in hybrid mode (docs/understanding.md, "The
// routing rule"): an exact trigger phrase, a message that is exactly the
// answer to the pending question (a categorical value or synonym, a yes
// or no word, a typed value with nothing else around it, a short
// free-text answer that mentions no flow), a cancel word, and the plain
// readings widen.go finds (an opening in one flow's words with each value
// named, a correction word and exactly a typed value, a short name with
// only carrier words around it, one word in figures at a free-text
// question or a date in the layout the question names, a cancel verb
// with only the top flow's words, a request for a person or for help
// while a question waits).
type Reading struct {
	Commands []vm.Command
	Sure     bool
	Reason   string
	// Rule is the name of the rule of the table (rules.go) that read
	// the message.
	Rule string
}

func sure(why string, c vm.Command) Reading {
	return Reading{Commands: one(c), Sure: true, Reason: why}
}

func unsure(why string, c vm.Command) Reading {
	return Reading{Commands: one(c), Reason: why}
}

// Understand turns a message into commands by the rules of the package
// documentation, and tells the view which layer answered and why. It
// returns one command, or two for a cancel followed by a new request
// ("stop that, I want to check my balance"); the error is only the
// context's.
func (r *Rules) Understand(ctx context.Context, msg string, v vm.View) ([]vm.Command, error) {
	rd, err := r.Read(ctx, msg, v)
	if err != nil {
		return nil, err
	}
	v.Answer(vm.Understanding{Layer: "rules", Sure: rd.Sure, Reason: rd.Reason, Rule: rd.Rule})
	return rd.Commands, nil
}

// Read reads a message by the rules and says how sure they are.
func (r *Rules) Read(ctx context.Context, msg string, v vm.View) (Reading, error) {
	one := *r
	one.sure = new(sureMemo)
	// A question that names a date layout reads an all-numeric date in
	// its order and stores the date in it (dateformat.go).
	layout, laidOut := one.pendingDateLayout(v)
	if laidOut && layout.order != values.DateAsk {
		v.DateOrder = layout.order
	}
	rd, err := one.read(ctx, msg, v)
	if err != nil {
		return rd, err
	}
	rd = one.asText(one.widen(rd, msg, v), v)
	if laidOut {
		rd = one.inLayout(rd, layout, v)
	}
	rd = one.correctionsInLayout(rd, v)
	return one.confident(rd), nil
}

// confident drops from a reading the starts of flows whose trigger asks
// for more confidence (min_confidence) than the reading has: 1 when the
// rules are sure, ir.UnsureConfidence when not. A reading left with no
// command is the fallback, and the reason says which flow was not
// started and why.
func (r *Rules) confident(rd Reading) Reading {
	have := ir.UnsureConfidence
	if rd.Sure {
		have = 1
	}
	if !slices.ContainsFunc(rd.Commands, func(c vm.Command) bool { return r.tooUnsure(c, have) }) {
		return rd
	}
	var kept []vm.Command
	var dropped []string
	for _, c := range rd.Commands {
		if c.Kind == vm.CmdStartFlow {
			if f := r.prog.Flow(c.Flow); f != nil && f.MinConfidence > have {
				dropped = append(dropped, fmt.Sprintf("%s (it asks for %g, the rules have %g)", c.Flow, f.MinConfidence, have))
				continue
			}
		}
		kept = append(kept, c)
	}
	if dropped == nil {
		return rd
	}
	if len(kept) == 0 {
		kept = []vm.Command{{Kind: vm.CmdFallback}}
	}
	rd.Commands = kept
	rd.Reason += "; not confident enough to start " + strings.Join(dropped, ", ")
	return rd
}

// tooUnsure reports whether c starts a flow whose trigger asks for more
// confidence than have (confident drops it).
func (r *Rules) tooUnsure(c vm.Command, have float64) bool {
	if c.Kind != vm.CmdStartFlow {
		return false
	}
	f := r.prog.Flow(c.Flow)
	return f != nil && f.MinConfidence > have
}

// read reads a message by the rule table (rules.go): the first rule
// that answers gives the reading.
func (r *Rules) read(ctx context.Context, msg string, v vm.View) (Reading, error) {
	if ctx != nil {
		if err := ctx.Err(); err != nil {
			return Reading{}, err
		}
	}
	return r.readRules(r.newMessage(msg, v)), nil
}

// yesNoPending reports whether the pending question takes a yes or a no:
// a confirm, or a collect of a boolean slot.
func (r *Rules) yesNoPending(p *vm.Pending) bool {
	if p.Kind == vm.PendingConfirm {
		return true
	}
	def := r.slotDef(p.Flow, p.Slot)
	if _, _, ok := yesNoValues(def); ok {
		return true
	}
	return def != nil && def.Type == ir.TypeBoolean
}

// yesNoAnswer is a yes or a no to the pending question: affirm or deny
// at a confirm, the boolean at a collect of a boolean slot.
func (r *Rules) yesNoAnswer(p *vm.Pending, yes bool, v vm.View) (Reading, bool) {
	if p == nil || !r.yesNoPending(p) {
		return Reading{}, false
	}
	if p.Kind == vm.PendingConfirm {
		if yes {
			return sure("a yes word at a confirmation", vm.Command{Kind: vm.CmdAffirm}), true
		}
		return sure("a no word at a confirmation", vm.Command{Kind: vm.CmdDeny}), true
	}
	return sure("a yes or no word at a yes/no question", vm.Command{Kind: vm.CmdSetSlot, Slot: p.Slot, Value: yesNoValue(r.slotDef(p.Flow, p.Slot), yes)}), true
}

// byMeaning reads which flow a message is about (meaning.go): one flow
// to start, two or more tied ones to offer (clarify), or none.
func (r *Rules) byMeaning(norm, head string, v vm.View) ([]string, string) {
	if r.mean == nil || len(r.mean.flows) == 0 {
		return nil, ""
	}
	norm = withoutSmallTalkLead(norm)
	concepts, typos := r.conceptsOf(norm)
	scores, unmatched := r.mean.score(concepts, typos)
	if len(scores) == 0 {
		return nil, ""
	}
	top := scores[0]
	if !top.fromTrigger && top.score < 1 {
		return nil, ""
	}
	var tied []string
	for _, s := range scores {
		if s.score > top.score-1e-9 {
			tied = append(tied, s.flow)
		}
	}
	if len(tied) > 1 {
		// The flow whose slots take the message's values ("send €50 to
		// Ana" where sending and paying a bill tie) wins.
		best, bestN, n := "", 0, 0
		for _, name := range tied {
			slots := r.fill(r.byName[name], head, v)
			if !coveredBy(unmatched, slots) {
				continue
			}
			k := len(slots)
			switch {
			case k > bestN:
				best, bestN, n = name, k, 1
			case k == bestN:
				n++
			}
		}
		if bestN > 0 && n == 1 {
			return []string{best}, fmt.Sprintf("the message's words mean %s as much, and only %s takes its values", strings.Join(tied, " and "), best)
		}
		// The flow that is about the message's words (its name or
		// description has them), then the one that has them as they are
		// written, not through the lexicon: "show my transactions" is
		// the flow that lists transactions, not the one whose example
		// raises "transaction limits"; "send 50 to Ana" is "send money",
		// not "set up a payment".
		if name, ok := r.closest(tied, concepts, norm, head, unmatched, v); ok {
			return []string{name}, fmt.Sprintf("the message's words mean %s as much, and %s is about them", strings.Join(tied, " and "), name)
		}
		// A tie of two or three flows, with no word they do not know,
		// is a choice to offer ("cash" where three flows speak of
		// money); four are too many.
		if len(unmatched) == 0 && top.score >= 0.3 {
			return tied, "the message is about " + strings.Join(tied, " and ") + " as much: which one?"
		}
		return nil, ""
	}
	if !(top.score >= 0.9 || (top.lead && top.score >= 0.7)) || (top.matched < 2 && !top.lead) {
		return nil, ""
	}
	if top.matched < 2 && !top.whole && r.namesOtherThing(norm, top.flow, unmatched) && !r.namesFlowThing(norm, top.flow) && !coveredBy(unmatched, r.fill(r.byName[top.flow], head, v)) {
		// One word of the flow and words it does not know: "order me a
		// pizza" is not ordering a card. Unless the flow's word names
		// the thing the flow is about ("a question about my bill",
		// meaningthing.go): the other words say what is wanted of it.
		return nil, ""
	}
	return []string{top.flow}, fmt.Sprintf("the message's words mean flow %s (score %.2f)", top.flow, top.score)
}

// strongOther is the one flow, other than the one asking, that a message
// is plainly about: two of its words or more, weighing 1.4 at least.
func (r *Rules) strongOther(norm string, v vm.View) *flowRules {
	if r.mean == nil {
		return nil
	}
	concepts, typos := r.conceptsOf(norm)
	scores, _ := r.mean.score(concepts, typos)
	if len(scores) == 0 {
		return nil
	}
	top := scores[0]
	if top.matched < 2 || top.score < 1.4 || (len(scores) > 1 && scores[1].score > top.score-0.5) {
		return nil
	}
	if n := len(v.Stack); n > 0 && v.Stack[n-1] == top.flow {
		return nil
	}
	return r.byName[top.flow]
}

// coveredBy reports whether every unmatched concept of a message is a
// word of the values a flow takes from it ("ana" of recipient=Ana).
func coveredBy(unmatched []string, slots []vm.SlotValue) bool {
	words := map[string]bool{}
	for _, sv := range slots {
		if s, ok := sv.Value.(string); ok {
			for _, w := range strings.Fields(values.Normalize(s)) {
				words[stem(w)] = true
			}
		}
	}
	for _, c := range unmatched {
		if !words[c] {
			return false
		}
	}
	return true
}

// collapseRepeats drops a word repeated right after itself: "stop stop
// stop" is "stop".
func collapseRepeats(norm string) string {
	if !strings.Contains(norm, " ") {
		return norm
	}
	// Most messages repeat no word: they are returned without a copy.
	prev, repeats := "", false
	for w := range strings.FieldsSeq(norm) {
		if w == prev {
			repeats = true
			break
		}
		prev = w
	}
	if !repeats {
		return norm
	}
	words := strings.Fields(norm)
	out := words[:1]
	for _, w := range words[1:] {
		if w != out[len(out)-1] {
			out = append(out, w)
		}
	}
	if len(out) == len(words) {
		return norm
	}
	return strings.Join(out, " ")
}

func one(c vm.Command) []vm.Command { return []vm.Command{c} }

// cancelDenies are the cancel words that are also a confirm's no-words.
var cancelDenies = lexdata.Set("cancel_denies")

// cancelCommand is what a request to cancel means. While a confirm is
// pending, "cancel" (and Spanish "cancelar") is one of the confirm's
// no-words (language.md §9), so it denies; the other cancel words ("stop",
// "never mind", "olvídalo") cancel the flow, as they do anywhere else.
func cancelCommand(p *vm.Pending, norm string) vm.Command {
	if p != nil && p.Kind == vm.PendingConfirm {
		for _, w := range strings.Fields(norm) {
			if cancelDenies[w] {
				return vm.Command{Kind: vm.CmdDeny}
			}
		}
	}
	return vm.Command{Kind: vm.CmdCancelFlow}
}

// Words around a cancel word that do not change its meaning: "please
// cancel", "ok, stop", "I want to cancel", "cancel please", "never mind,
// thanks". Each entry is a normalized word sequence.
var (
	cancelLeads = lexdata.Phrases("cancel_leads")
	cancelTails = lexdata.Phrases("cancel_tails")
	// cancelVerbs may take a short object: "cancel the transfer", "stop
	// this", "cancela la transferencia".
	cancelVerbs   = lexdata.Set("cancel_verbs")
	cancelObjects = lexdata.Set("cancel_objects")
	// pronounObjects stand for the flow the user is in: "stop that".
	pronounObjects = lexdata.Set("pronoun_objects")
)

// cancelRequest reads a normalized message as a request to cancel. plain
// is true for a cancel word, alone or with polite words around it
// ("please cancel", "cancel please", "I want to cancel"); object is
// non-nil for a cancel verb with a short object ("cancel the transfer",
// "stop this booking please"), which the caller tries only after the
// triggers. It holds the words after the verb, determiner first. then
// is non-nil for a cancel verb with a pronoun followed by other words
// ("stop that, I want to see my transfers"): the words after it, which
// the caller reads as a new request.
func cancelRequest(norm string) (plain bool, object, then []string) {
	if cancelWords[norm] {
		return true, nil, nil
	}
	var buf [13]string
	words := appendWords(buf[:0], norm, len(buf))
	if len(words) > 12 {
		return false, nil, nil
	}
	for changed := true; changed && len(words) > 1; {
		changed = false
		for _, lead := range cancelLeads {
			if len(words) > len(lead) && text.HasPrefixWords(words, lead) {
				words, changed = words[len(lead):], true
				break
			}
		}
	}
	for changed := true; changed && len(words) > 1; {
		changed = false
		for _, tail := range cancelTails {
			if len(words) > len(tail) && text.HasPrefixWords(words[len(words)-len(tail):], tail) {
				words, changed = words[:len(words)-len(tail)], true
				break
			}
		}
	}
	if cancel, _ := lookupWords(cancelWords, words); cancel {
		return true, nil, nil
	}
	// "never mind, I'll call them": a cancel word, then why. "forget it,
	// cancel the transfer": a cancel word, then a cancel request, which
	// decides.
	for n := min(4, len(words)-1); n >= 1; n-- {
		if cancel, _ := lookupWords(cancelWords, words[:n]); !cancel {
			continue
		}
		if cancelReason(words[n:]) {
			return true, nil, nil
		}
		if plain, object, _ := cancelRequest(strings.Join(words[n:], " ")); plain || object != nil {
			return plain, object, nil
		}
	}
	// "stop that, I want to check my balance": a cancel verb, alone or
	// with a pronoun, then something else, which the caller reads as a
	// request. "never mind, I want..." is not one: it may leave only the
	// question.
	if len(words) > 2 && cancelVerbs[words[0]] && pronounObjects[words[1]] {
		then = slices.Clone(words[2:])
	}
	// "never mind the ticket", "forget about the flight": two-word verbs.
	if len(words) > 2 && cancelVerbPairs[words[0]+" "+words[1]] != "" {
		words = append([]string{cancelVerbPairs[words[0]+" "+words[1]]}, words[2:]...)
	}
	// A verb, a determiner or pronoun, and at most two more words.
	if len(words) >= 2 && len(words) <= 4 && cancelVerbs[words[0]] && cancelObjects[words[1]] {
		return false, slices.Clone(words[1:]), nil
	}
	return false, nil, then
}

// cancelThenStart reads "stop that, I want to see my transfers": the
// words after the cancel are a request for one flow other than the one
// on top, so the flow on top is cancelled and that one starts. The
// reading is never sure.
func (r *Rules) cancelThenStart(then []string, head string, v vm.View) (Reading, bool) {
	rest := strings.Join(then, " ")
	var flow *flowRules
	if m := r.bestTrigger(rest, true); m.flow != nil && !m.smallTalk {
		flow = m.flow
	} else if flows, _ := r.byMeaning(rest, head, v); len(flows) == 1 {
		flow = r.byName[flows[0]]
	}
	if flow == nil || onTop(v, flow.name) {
		return Reading{}, false
	}
	// At a confirm too the flow is cancelled, not the confirm denied:
	// the user asks for something else.
	cmds := []vm.Command{{Kind: vm.CmdCancelFlow}, {Kind: vm.CmdStartFlow, Flow: flow.name, Slots: r.fill(flow, head, v)}}
	return Reading{Commands: cmds, Reason: "a cancel, then a request for " + flow.name}, true
}

// cancelReason reports whether the words after a cancel word say why,
// or what the user does instead: "I'll call them", "maybe later", "it's
// fine", "I don't need it".
func cancelReason(rest []string) bool {
	if len(rest) == 0 || len(rest) > 7 {
		return false
	}
	switch {
	case cancelReasonWords[rest[0]]:
		return true
	case speakerSubjects[rest[0]]:
		// "I'll do it later", "I already sent it", not "I want to...",
		// which asks for something else.
		return len(rest) > 1 && !requestVerbs[rest[1]]
	case cancelReasonSubjects[rest[0]]:
		return len(rest) > 1 && cancelReasonStates[rest[1]]
	}
	for _, p := range cancelReasonPhrases {
		if text.HasPrefixWords(rest, p) {
			return true
		}
	}
	return false
}

// The words that start a reason after a cancel word: cancelReasonWords
// alone ("maybe later"), a cancelReasonSubjects word then a
// cancelReasonStates word ("it's fine"), or one of cancelReasonPhrases
// ("no worries").
var (
	cancelReasonWords    = lexdata.Set("cancel_reason_words")
	cancelReasonSubjects = lexdata.Set("cancel_reason_subjects")
	cancelReasonStates   = lexdata.Set("cancel_reason_states")
	cancelReasonPhrases  = lexdata.Phrases("cancel_reason_phrases")
)

// requestVerbs after "I" ask for something: "never mind, I want to send
// 50" is a new request, not a reason to cancel.
var requestVerbs = lexdata.Set("request_verbs")

// appendWords appends to dst the words of a normalized text, at most max
// of them.
func appendWords(dst []string, norm string, max int) []string {
	for w := range strings.FieldsSeq(norm) {
		if len(dst) == max {
			break
		}
		dst = append(dst, w)
	}
	return dst
}

// namesActiveFlow reports whether the object of "cancel the X" means a flow
// the user is in: it is only a pronoun or determiner ("stop this", "cancel
// everything"), or one of its content words, stemmed, is a word of the
// name, description or trigger phrases of a flow on the stack ("cancel
// the transfer" in transfer_funds).
func (r *Rules) namesActiveFlow(object []string, v vm.View) bool {
	var own []string
	for _, w := range object {
		if !cancelObjects[w] && !stopWords[w] {
			own = append(own, stem(w))
		}
	}
	if len(own) == 0 {
		return true
	}
	if r.prog == nil {
		return false
	}
	for _, name := range v.Stack {
		f := r.prog.Flow(name)
		if f == nil {
			continue
		}
		texts := append([]string{strings.NewReplacer("_", " ", "-", " ").Replace(f.Name), f.Description}, f.Triggers...)
		for _, t := range texts {
			for w := range strings.FieldsSeq(values.Normalize(t)) {
				for _, o := range own {
					if stem(w) == o {
						return true
					}
				}
			}
		}
	}
	return false
}

// answer reads the message as an answer to the pending question. ok says
// whether it was understood as a valid answer; when it was not, the
// command is the one to give anyway (a fallback, or a set_slot with the
// raw text so that the VM reports the invalid answer).
func (r *Rules) answer(p *vm.Pending, text, head, norm string, v vm.View) (vm.Command, bool) {
	switch p.Kind {
	case vm.PendingConfirm:
		return r.confirm(p, text, head, norm, v)
	case vm.PendingCollect:
		return r.collect(p, text, head, v)
	}
	return vm.Command{Kind: vm.CmdFallback}, false
}

// confirm answers a pending confirm: a correction of the confirmed slot
// (or of one other set slot of the flow), a yes, a no, or a fallback.
func (r *Rules) confirm(p *vm.Pending, text, head, norm string, v vm.View) (vm.Command, bool) {
	conv := v.Converter()
	// "oh and make it 60 not 50", "I meant Rome, not Paris": the old
	// value says the slot (oldvalue.go).
	if cmd, ok := r.oldValueNamed(p, head, v); ok {
		return cmd, true
	}
	if cmd, ok := r.listEdit(p, head, v); ok {
		return cmd, true
	}
	if cmd, ok := r.named(p, head, conv); ok {
		return cmd, true
	}
	// "the city is wrong, it's Paris"; a correction at a pattern's
	// question (correctionq.go).
	if cmd, ok := r.namedWrong(p, head, conv); ok {
		return cmd, true
	}
	// "oh it's actually 3 passengers", "low priority is enough": a value,
	// then its slot's name (valuename.go).
	if cmd, ok := r.valueThenName(p, head, v); ok {
		return cmd, true
	}
	if cmd, ok := r.patternCorrection(p, head, v); ok {
		return cmd, true
	}
	def := r.slotDef(p.Flow, p.Slot)
	// A confirm whose slot nothing declares uses it as a label (the Python
	// framework's transfer_confirmed): it is never a correction target.
	label := def == nil
	if rest, weak, ok := r.correction(head); ok {
		if p.Slot != "" && !label && (!weak || typed(def)) && !notAValue(rest) {
			val, err := conv.Convert(def, rest)
			if err == nil {
				return vm.Command{Kind: vm.CmdCorrectSlot, Slot: p.Slot, Value: val}, true
			}
			if errors.Is(err, values.ErrInvalid) && (!weak || def.Type == ir.TypeInteger || def.Type == ir.TypeNumber || def.Type == ir.TypeDate) {
				// It is a value of the confirmed slot's type that fails
				// its limits ("actually 50000" for max 10000): still a
				// correction of that slot, which the VM refuses with the
				// slot's invalid message (language.md §11), never a
				// correction of another slot that happens to take it.
				// After a weak "no," only a number or a date counts: "no,
				// wait" is a no, not a card number that fails its pattern.
				return vm.Command{Kind: vm.CmdCorrectSlot, Slot: p.Slot, Value: rest}, true
			}
		}
		if name, val, ok := r.otherSlot(p.Flow, p.Slot, rest, v); ok {
			return vm.Command{Kind: vm.CmdCorrectSlot, Slot: name, Value: val}, true
		}
		// "no wait, send it to Maria": a carrier names a free-text slot.
		if name, val, ok := r.carriedSlot(p.Flow, rest, conv); ok {
			return vm.Command{Kind: vm.CmdCorrectSlot, Slot: name, Value: val}, true
		}
		// "no wait, make it Maria" while the amount is confirmed: the
		// flow's one free-text slot that is set takes a short value.
		if !weak && typed(def) && plausibleValue(rest) && !notAValue(rest) {
			if name, ok := r.oneFreeTextSlot(p.Flow, v); ok {
				if _, err := values.Convert(&ir.Slot{Type: ir.TypeNumber}, rest); err != nil {
					return vm.Command{Kind: vm.CmdCorrectSlot, Slot: name, Value: strings.TrimSpace(rest)}, true
				}
			}
		}
		// "no, X" on a free-text slot: X is the new text, unless a typed
		// slot of the flow took it above.
		if p.Slot != "" && !label && weak && !typed(def) && noComma(head) && !notAValue(rest) && plausibleValue(rest) {
			if val, err := conv.Convert(def, rest); err == nil {
				return vm.Command{Kind: vm.CmdCorrectSlot, Slot: p.Slot, Value: val}, true
			}
		}
	}
	if yes, ok := values.YesNo(norm); ok {
		if yes {
			return vm.Command{Kind: vm.CmdAffirm}, true
		}
		return vm.Command{Kind: vm.CmdDeny}, true
	}
	return vm.Command{Kind: vm.CmdFallback}, false
}

// collect answers a pending collect: the message converted to the slot's
// type, a correction of another set slot of the flow, or else the raw
// text, which the VM rejects with the slot's invalid message (and counts
// as an attempt).
func (r *Rules) collect(p *vm.Pending, text, head string, v vm.View) (vm.Command, bool) {
	conv := v.Converter()
	// "oh and make it 60 not 50", "I meant Rome, not Paris": the old
	// value says the slot (oldvalue.go).
	if cmd, ok := r.oldValueNamed(p, head, v); ok {
		return cmd, true
	}
	if cmd, ok := r.listEdit(p, head, v); ok {
		return cmd, true
	}
	if cmd, ok := r.named(p, head, conv); ok {
		return cmd, true
	}
	// "the city is wrong, it's Paris"; a correction at a pattern's
	// question (correctionq.go).
	if cmd, ok := r.namedWrong(p, head, conv); ok {
		return cmd, true
	}
	// "oh it's actually 3 passengers", "low priority is enough": a value,
	// then its slot's name (valuename.go).
	if cmd, ok := r.valueThenName(p, head, v); ok {
		return cmd, true
	}
	if cmd, ok := r.patternCorrection(p, head, v); ok {
		return cmd, true
	}
	def := r.slotDef(p.Flow, p.Slot)
	var normHead string // head normalised, for the checks of untyped slots
	if !typed(def) {
		normHead = values.Normalize(head)
	}
	if !typed(def) && isQuestion(text, normHead) {
		// "how much do I have?" is not a recipient.
		return vm.Command{Kind: vm.CmdFallback}, false
	}
	if def != nil && def.Type == ir.TypeCategorical && r.asks(head, values.Normalize(head)) {
		// "actually where is my other ticket at?" asks, and names no
		// category though it holds the word of one.
		return vm.Command{Kind: vm.CmdFallback}, false
	}
	if w, ok := r.markedWord(def, head); ok {
		// "it's @KatePurry" for "a handle starting with @".
		return vm.Command{Kind: vm.CmdSetSlot, Slot: p.Slot, Value: w}, true
	}
	if def != nil && !typed(def) && (def.Type == ir.TypeText || def.Type == "") && noAnswer(normHead) {
		// "not sure yet", "no idea": no value.
		return vm.Command{Kind: vm.CmdFallback}, false
	}
	if def != nil && !typed(def) && (def.Type == ir.TypeText || def.Type == "") {
		// "I'll take the luxury one": the option of the question it
		// names (sentences.go).
		if opt, ok := pickOption(p.Prompt, head); ok {
			return vm.Command{Kind: vm.CmdSetSlot, Slot: p.Slot, Value: opt}, true
		}
	}
	if def != nil && !typed(def) && (def.Type == ir.TypeText || def.Type == "") && !r.readsAs(p.Flow, p.Slot) {
		// `it says "Connection timed out"`: the words it quotes
		// (selfnamed.go).
		if val, ok := quotedAnswer(head); ok {
			return vm.Command{Kind: vm.CmdSetSlot, Slot: p.Slot, Value: val}, true
		}
	}
	if def != nil && !typed(def) && (def.Type == ir.TypeText || def.Type == "") {
		// "my claim number is 77120": the slot's own name before its
		// value (selfnamed.go).
		if val, ok := selfNamedAnswer(r.facts.selfName(p.Slot), head); ok {
			if x, err := conv.Convert(def, val); err == nil {
				return vm.Command{Kind: vm.CmdSetSlot, Slot: p.Slot, Value: x}, true
			}
		}
		// "to Maria", "it's under John Carter", "from Manchester".
		ro := roleNone
		if fr := r.byName[p.Flow]; fr != nil {
			ro = fr.role[p.Slot]
		}
		if val, ok := r.freeText(head, ro); ok {
			if x, err := conv.Convert(def, val); err == nil {
				return vm.Command{Kind: vm.CmdSetSlot, Slot: p.Slot, Value: x}, true
			}
		}
	}
	// "not urgent", "it is not important": a negated value is never
	// the answer (negation.go).
	if cmd, ok := r.negatedCollect(p, def, head, conv); ok {
		return cmd, cmd.Kind != vm.CmdFallback
	}
	if rest, weak, ok := r.correction(head); ok && !notAValue(rest) {
		if !weak || typed(def) {
			if val, err := conv.Convert(def, rest); err == nil {
				return vm.Command{Kind: vm.CmdSetSlot, Slot: p.Slot, Value: val}, true
			}
		}
		if name, val, ok := r.otherSlot(p.Flow, p.Slot, rest, v); ok {
			return vm.Command{Kind: vm.CmdCorrectSlot, Slot: name, Value: val}, true
		}
		// "I meant from Cork" while the date is asked: a carrier names
		// a free-text slot.
		if name, val, ok := r.carriedSlot(p.Flow, rest, conv); ok && name != p.Slot {
			if _, err := conv.Convert(def, rest); err != nil {
				return vm.Command{Kind: vm.CmdCorrectSlot, Slot: name, Value: val}, true
			}
		}
		// "oh sorry, I meant Maria" while the amount is asked: a value
		// of no typed slot corrects the flow's one free-text slot that
		// holds a value.
		if !weak && typed(def) && plausibleValue(rest) && !notAValue(rest) {
			if _, err := conv.Convert(def, rest); err != nil {
				if name, ok := r.oneFreeTextSlot(p.Flow, v); ok {
					if _, err := values.Convert(&ir.Slot{Type: ir.TypeNumber}, rest); err != nil {
						return vm.Command{Kind: vm.CmdCorrectSlot, Slot: name, Value: strings.TrimSpace(rest)}, true
					}
				}
			}
		}
		// "sorry, I meant 70" while a pattern asks ("Do you want to
		// update the amount to 60?"): a correction of the flow the
		// pattern interrupted, which replaces the one asked about.
		if u := interrupted(p, v); u != "" {
			if _, err := conv.Convert(def, rest); err != nil {
				if name, val, ok := r.correctedAgain(u, rest, v); ok {
					return vm.Command{Kind: vm.CmdCorrectSlot, Slot: name, Value: val}, true
				}
				if name, val, ok := r.otherSlot(u, "", rest, v); ok {
					return vm.Command{Kind: vm.CmdCorrectSlot, Slot: name, Value: val}, true
				}
				if name, val, ok := r.carriedSlot(u, rest, conv); ok {
					return vm.Command{Kind: vm.CmdCorrectSlot, Slot: name, Value: val}, true
				}
				if plausibleValue(rest) {
					if name, ok := r.oneFreeTextSlot(u, v); ok {
						if _, err := values.Convert(&ir.Slot{Type: ir.TypeNumber}, rest); err != nil {
							return vm.Command{Kind: vm.CmdCorrectSlot, Slot: name, Value: strings.TrimSpace(rest)}, true
						}
					}
				}
			}
		}
	}
	// "just me", "me and my wife", "a week": a count said with a noun.
	if n, ok := spokenCount(&slotRef{name: p.Slot, def: def}, text); ok {
		if val, err := conv.Convert(def, n); err == nil {
			return vm.Command{Kind: vm.CmdSetSlot, Slot: p.Slot, Value: val}, true
		}
	}
	val, err := r.convert(conv, def, text)
	if err == nil {
		return vm.Command{Kind: vm.CmdSetSlot, Slot: p.Slot, Value: val}, true
	}
	if _, _, ok := yesNoValues(def); ok {
		// "yep, there's an error popping up" at a question whose values
		// are yes and no (yesnovalues.go): read as a boolean answer.
		if b, err := conv.Convert(&ir.Slot{Type: ir.TypeBoolean}, text); err == nil {
			if yes, isBool := b.(bool); isBool {
				return vm.Command{Kind: vm.CmdSetSlot, Slot: p.Slot, Value: yesNoValue(def, yes)}, true
			}
		}
	}
	if def != nil && def.Type == ir.TypeCategorical && errors.Is(err, values.ErrNoValue) {
		// "loyalty points" for membership_points, "d debit" for direct
		// debit: a word of one value only.
		if x, ok := valueByWord(def, head); ok {
			return vm.Command{Kind: vm.CmdSetSlot, Slot: p.Slot, Value: x}, true
		}
	}
	if r.readsAs(p.Flow, p.Slot) {
		// A text slot that holds an amount or a date would store any
		// words: an answer with none is no answer.
		return vm.Command{Kind: vm.CmdFallback}, false
	}
	return vm.Command{Kind: vm.CmdSetSlot, Slot: p.Slot, Value: text}, false
}

// Words of a correction that names its slot: "change the amount to 60",
// "set the date to tomorrow", "actually the recipient is Bob", "cambia
// el importe a 60". Each entry is a normalized word sequence.
var (
	namedVerbs    = lexdata.Phrases("named_verbs")
	namedArticles = lexdata.Phrases("named_articles")
	namedLinks    = lexdata.Phrases("named_links")
)

// named reads a correction that names the slot it changes: a verb (change,
// set, make, update, cambia...) or a correction prefix (actually, no...),
// an optional article, the name of a slot of the pending question's flow
// (its words separated by spaces or underscores: "account type"), an
// optional link word (to, is, should be, a...) and the new value. The
// command is set_slot for the pending collect's own slot and correct_slot
// for any other slot of the flow. A value that does not convert is given
// as written, so the VM says the slot's invalid message and asks again.
func (r *Rules) named(p *vm.Pending, head string, conv values.Converter) (vm.Command, bool) {
	fr := r.byName[p.Flow]
	if fr == nil {
		return vm.Command{}, false
	}
	lead := head
	for {
		w := firstWordOf(lead)
		if w == "" || !correctionFillers[w] {
			break
		}
		lead, _ = stripWords(lead, []string{w})
	}
	if c, ok := r.usedAs(p, lead, conv); ok {
		return c, true
	}
	rest, found := stripAnyWords(lead, namedVerbs)
	if !found {
		// "actually ...", and also "no, the amount is 60": with the slot
		// named, a bare "no" introduces a correction too.
		if rest, _, found = r.correction(head); !found {
			return vm.Command{}, false
		}
		if r2, ok := stripAnyWords(rest, namedVerbs); ok {
			rest = r2
		}
	}
	best, bestRest, partial, ok := r.slotNamed(fr, p, rest)
	if !ok {
		return vm.Command{}, false
	}
	if r2, ok := stripAnyWords(bestRest, namedLinks); ok {
		bestRest = r2
	}
	return r.namedValue(p, best, bestRest, partial, conv)
}

// namedValue is the command that gives a named slot its value.
func (r *Rules) namedValue(p *vm.Pending, best slotRef, value string, partial bool, conv values.Converter) (vm.Command, bool) {
	if value == "" || notAValue(value) {
		return vm.Command{}, false
	}
	var val any = value
	x, err := conv.Convert(best.def, value)
	if err == nil {
		val = x
	} else if partial {
		// A slot named by one word of it takes only a value it can
		// hold: "change the class to purple" names nothing sure enough.
		return vm.Command{}, false
	}
	kind := vm.CmdCorrectSlot
	if p.Kind == vm.PendingCollect && best.name == p.Slot {
		kind = vm.CmdSetSlot
	}
	return vm.Command{Kind: kind, Slot: best.name, Value: val}, true
}

// slotNamed finds the slot of the pending question's flow that the
// start of rest names, after an optional article ("the amount", "my
// account type", "the number of passengers", "the date" for
// departure_date), and the words after the name. partial is true when
// one word of the name or description named it.
func (r *Rules) slotNamed(fr *flowRules, p *vm.Pending, rest string) (best slotRef, after string, partial, ok bool) {
	if r2, ok := stripAnyWords(rest, namedArticles); ok {
		rest = r2
	}
	if r2, ok := stripAnyWords(rest, slotCountLeads); ok {
		rest = r2
	}
	slots := fr.slots
	if p.Slot != "" && !hasSlot(slots, p.Slot) && r.slotDef(p.Flow, p.Slot) != nil {
		slots = append([]slotRef{{p.Slot, r.slotDef(p.Flow, p.Slot)}}, slots...)
	}
	bestLen := 0
	for _, s := range slots {
		words := r.facts.nameWords(s.name)
		if words.parts <= bestLen {
			continue
		}
		if r2, ok := stripWords(rest, words.words); ok {
			best, after, bestLen = s, r2, words.parts
		}
	}
	if bestLen > 0 {
		return best, after, false, true
	}
	best, after, partial = r.partlyNamed(slots, rest)
	return best, after, partial, partial
}

// usedAs reads a correction that gives the value before the slot: "use
// Maria as the recipient", "please put 60 for the amount", "go with
// savings as the account". The slot's name ends the message, but for
// polite words.
func (r *Rules) usedAs(p *vm.Pending, lead string, conv values.Converter) (vm.Command, bool) {
	if r2, ok := stripAnyWords(lead, usedAsLeads); ok {
		lead = r2
	}
	rest, found := stripAnyWords(lead, usedAsVerbs)
	if !found {
		return vm.Command{}, false
	}
	fr := r.byName[p.Flow]
	// The last "as" or "for" that a slot's name follows.
	for end := len(rest); end > 0; {
		i := lastWordOf(rest[:end], usedAsLinks)
		if i <= 0 {
			break
		}
		end = i
		value := strings.TrimSpace(rest[:i])
		if n := values.Normalize(value); pronounObjects[n] || valuePronouns[n] || len(strings.Fields(n)) > 4 {
			// "use it for the amount" gives no value; a long phrase is
			// a sentence, not one.
			return vm.Command{}, false
		}
		tail := strings.TrimSpace(rest[i+1:])
		tail, _ = stripAnyWords(tail, usedAsLinkPhrases)
		best, after, partial, ok := r.slotNamed(fr, p, tail)
		if !ok {
			continue
		}
		for {
			w := firstWordOf(after)
			if w == "" || !usedAsTails[w] {
				break
			}
			after, _ = stripWords(after, []string{w})
		}
		if strings.TrimSpace(after) != "" {
			continue
		}
		return r.namedValue(p, best, value, partial, conv)
	}
	return vm.Command{}, false
}

var (
	usedAsLeads = lexdata.Phrases("used_as_leads")
	usedAsVerbs = lexdata.Phrases("used_as_verbs")
	usedAsTails = lexdata.Set("used_as_tails")
)

// partlyNamed finds the slot a correction names by one word of its name
// ("the date" for departure_date) or, for a typed slot, of its
// description ("the class" for a cabin described as "Cabin class"): the
// one slot of the list that has the message's next word, and the words
// after it. A word two slots have names neither.
func (r *Rules) partlyNamed(slots []slotRef, rest string) (slotRef, string, bool) {
	w := firstWordOf(rest)
	if w == "" || stopWords[w] {
		return slotRef{}, "", false
	}
	// A word of a name first, then a word of a typed slot's description.
	for _, byDescription := range []bool{false, true} {
		var found slotRef
		n := 0
		for _, s := range slots {
			var words []string
			switch {
			case !byDescription:
				words = r.facts.nameWords(s.name).norm
			case s.def != nil && typed(s.def):
				words = r.facts.descriptionWords(s.def)
			}
			for _, part := range words {
				if part == w {
					found = s
					n++
					break
				}
			}
		}
		if n == 1 {
			after, _ := stripWords(rest, []string{w})
			return found, after, true
		}
		if n > 1 {
			return slotRef{}, "", false
		}
	}
	return slotRef{}, "", false
}

func hasSlot(slots []slotRef, name string) bool {
	for _, s := range slots {
		if s.name == name {
			return true
		}
	}
	return false
}

func lowerWords(words []string) []string {
	out := make([]string, 0, len(words))
	for _, w := range words {
		if w != "" {
			out = append(out, values.Normalize(w))
		}
	}
	return out
}

// stripAnyWords strips the first of several word sequences that s starts
// with.
func stripAnyWords(s string, prefixes [][]string) (string, bool) {
	// s's first word is found once: a sequence that starts with another
	// word cannot match.
	i, j := nextWord(s, 0)
	first := s[i:j]
	for _, p := range prefixes {
		if len(p) > 0 && (first == "" || !wordIs(first, p[0])) {
			continue
		}
		if r, ok := stripWords(s, p); ok {
			return r, true
		}
	}
	return s, false
}

// slotDef resolves a slot as the flow sees it; nil (converted like an any
// slot) when the program does not know it.
func (r *Rules) slotDef(flow, name string) *ir.Slot {
	if r.prog == nil || name == "" {
		return nil
	}
	return r.asRead(r.prog.ResolveSlot(flow, name))
}

// typed reports whether a slot accepts only some texts: any type but text
// and any, or a text slot with a pattern. Only such slots are guessed from
// a bare value, since a free-text slot would take any words.
func typed(def *ir.Slot) bool {
	if def == nil {
		return false
	}
	switch def.Type {
	case ir.TypeAny, "":
		return false
	case ir.TypeInteger, ir.TypeNumber, ir.TypeBoolean, ir.TypeCategorical, ir.TypeDate:
		return true
	case ir.TypeList:
		// A list of declared values is recognised as categorical values
		// are; a list of any text is free text.
		return len(def.Values) > 0 || def.Pattern != ""
	}
	return def.Pattern != ""
}

// interrupted is the flow that the pattern asking the pending question
// interrupted: the topmost flow of the stack that is no pattern. It is ""
// when the question is not a pattern's.
func interrupted(p *vm.Pending, v vm.View) string {
	if !ir.IsPattern(p.Flow) {
		return ""
	}
	for i := len(v.Stack) - 1; i >= 0; i-- {
		if !ir.IsPattern(v.Stack[i]) {
			return v.Stack[i]
		}
	}
	return ""
}

// correctedAgain reads rest as a new value of the slot that the pattern
// asking is about (pattern_correction's corrected_slot), when it is a
// typed slot of flow and rest converts to it: "sorry, I meant 70" while
// "Do you want to update the amount to 60?" corrects the amount again,
// though the flow has other number slots.
func (r *Rules) correctedAgain(flow, rest string, v vm.View) (string, any, bool) {
	fr := r.byName[flow]
	if fr == nil || v.Slot == nil || rest == "" || notAValue(rest) {
		return "", nil, false
	}
	raw, _ := v.Slot("corrected_slot")
	name, _ := raw.(string)
	if name == "" {
		return "", nil, false
	}
	for _, s := range fr.slots {
		if s.name != name || !typed(s.def) {
			continue
		}
		if x, err := v.Converter().Convert(s.def, rest); err == nil {
			return name, x, true
		}
	}
	return "", nil, false
}

// otherSlot finds the one slot of the flow, other than skip, that is set
// and that a correction's value converts to. Only typed slots (see typed)
// are candidates; two candidates are ambiguous and give nothing.
func (r *Rules) otherSlot(flow, skip, rest string, v vm.View) (string, any, bool) {
	conv := v.Converter()
	fr := r.byName[flow]
	if fr == nil || v.Slot == nil || rest == "" || notAValue(rest) {
		return "", nil, false
	}
	var name string
	var val any
	n := 0
	for _, s := range fr.slots {
		if s.name == skip || !typed(s.def) {
			continue
		}
		if _, set := v.Slot(s.name); !set {
			continue
		}
		x, err := conv.Convert(s.def, rest)
		if err != nil {
			continue
		}
		name, val = s.name, x
		n++
	}
	if n != 1 {
		return "", nil, false
	}
	return name, val, true
}

// nameAnswer reports whether a message that reads as an acknowledgement
// ("Nice", "Great") is the answer to a free-text question whose answer
// is a name (a place or a person: "Which city?", "Who should get it?"):
// one capitalised word, no exclamation, written as a name is. "Nice" at
// "Which city?" is the city; "nice!" and "nice" stay small talk.
func (r *Rules) nameAnswer(p *vm.Pending, c vm.Command, head string) bool {
	if p == nil || p.Kind != vm.PendingCollect || c.Kind != vm.CmdChitchat || c.SmallTalk != ir.SmallTalkAck {
		return false
	}
	def := r.slotDef(p.Flow, p.Slot)
	fr := r.byName[p.Flow]
	if def == nil || typed(def) || (def.Type != ir.TypeText && def.Type != "") || fr == nil || fr.role[p.Slot] == roleNone {
		return false
	}
	w := strings.TrimRight(strings.TrimSpace(head), ".")
	if strings.ContainsAny(w, " !?,") || utf8.RuneCountInString(w) < 2 {
		return false
	}
	first, size := utf8.DecodeRuneInString(w)
	rest := w[size:]
	return unicode.IsUpper(first) && rest == strings.ToLower(rest)
}

// noAnswer reports whether a short message says the user has no answer:
// "not sure yet", "no idea", "idk", "no lo sé".
func noAnswer(norm string) bool {
	words := strings.Fields(norm)
	if len(words) == 0 || len(words) > 5 {
		return false
	}
	core := false
	for _, w := range words {
		if !nonAnswers[w] && !noAnswerWords[w] {
			return false
		}
		core = core || nonAnswers[w] && !noneWords[w]
	}
	return core
}

// noneWords say there is none: at a free-text question ("Any note?")
// "none" and "nothing" are the user's answer, not a lack of one. A
// placeholder is a model's habit (understand/llm drops it); from a user
// the word is the answer.
var noneWords = lexdata.Set("none_words")

var noAnswerWords = lexdata.Set("no_answer_words")

// oneFreeTextSlot is the flow's one collected free-text slot that holds
// a value.
func (r *Rules) oneFreeTextSlot(flow string, v vm.View) (string, bool) {
	fr := r.byName[flow]
	if fr == nil || v.Slot == nil {
		return "", false
	}
	name, n := "", 0
	for _, s := range fr.slots {
		if s.def == nil || typed(s.def) || (s.def.Type != ir.TypeText && s.def.Type != "") || !fr.collected[s.name] {
			continue
		}
		if x, ok := v.Slot(s.name); ok && x != nil {
			name = s.name
			n++
		}
	}
	return name, n == 1
}

// noComma reports whether a message starts with "no," (or "nope,",
// "nah,") — the spec's form of a correction ("no, Rome"), which corrects
// even a free-text slot; a bare "no Rome" does not.
func noComma(msg string) bool {
	m := strings.ToLower(strings.TrimSpace(msg))
	for _, p := range weakPrefixes {
		if strings.HasPrefix(m, p[0]+",") {
			return true
		}
	}
	return false
}

// notAValue reports whether the rest of a correction is a yes/no, cancel
// or politeness word rather than a new value ("no thanks", "no, cancel").
func notAValue(rest string) bool {
	n := values.Normalize(rest)
	if n == "" || cancelWords[n] || polite[n] {
		return true
	}
	_, ok := values.YesNo(n)
	return ok
}

// plausibleValue reports whether the rest of a "no, X" could be the new
// value of a free-text slot itself (language.md §11): a short phrase, not a
// sentence about something else. "no, Maria" and "no, Maria López" are
// values; "no, the name should be Maria" is a sentence (a linking verb),
// and so is anything of more than four words. When in doubt the message is
// a plain no.
func plausibleValue(rest string) bool {
	words := strings.Fields(values.Normalize(rest))
	if len(words) == 0 || len(words) > 4 {
		return false
	}
	for _, w := range words {
		if linkingWords[w] {
			return false
		}
	}
	return true
}

// linkingWords make a phrase a sentence about a value rather than the
// value: "the name should be Maria", "it is for Bob", "el nombre es Ana".
var linkingWords = lexdata.Set("linking_words")

var polite = lexdata.Set("polite")

// The correction prefixes, as normalized word sequences. Strong ones
// introduce a new value for any slot; the weak ones ("no, X", and its
// variants "nope, X" and "nah, X") only for a typed slot, since "no,
// thanks" is not a new name.
var (
	strongPrefixes = lexdata.Phrases("strong_prefixes")
	// correctionFillers may come before a correction: "hmm, no, 60".
	correctionFillers = lexdata.Set("correction_fillers")
	weakPrefixes      = lexdata.Phrases("weak_prefixes")
)

// correction strips correction prefixes from the start of a message:
// "actually 50" → "50", "no, make it 50" → "50". weak is true when the
// only prefix was "no". ok is false when the message starts with none.
func correction(msg string) (rest string, weak bool, ok bool) {
	rest = msg
	weak = true
	for {
		w := firstWordOf(rest)
		if w == "" || !correctionFillers[w] {
			break
		}
		rest, _ = stripWords(rest, []string{w})
	}
	// "not 50, I meant 55": the old value first.
	if oldValueNegations[firstWordOf(rest)] {
		if i := strings.IndexByte(rest, ','); i > 0 && len(strings.Fields(rest[:i])) <= 4 {
			after := strings.TrimSpace(rest[i+1:])
			for _, p := range strongPrefixes {
				if _, found := stripWords(after, p); found {
					rest = after
					break
				}
			}
		}
	}
	defer func() {
		// "Milan instead", "no, Milan instead": a strong correction.
		if r, found := cutSuffixWord(rest, "instead"); found && r != "" {
			rest, weak, ok = r, false, true
		}
		if r, found := cutSuffixWord(rest, "en vez"); found && r != "" {
			rest, weak, ok = r, false, true
		}
		// "I meant Jimmy, not John": the old value last.
		if ok {
			if i := strings.LastIndex(rest, ", not "); i > 0 && len(strings.Fields(rest[i+6:])) <= 3 {
				rest = strings.TrimSpace(rest[:i])
			}
		}
	}()
	for range 4 {
		matched := false
		// Only the prefixes that start with the message's first word can
		// match.
		i, j := nextWord(rest, 0)
		first := rest[i:j]
		for _, p := range strongPrefixes {
			if first == "" || !wordIs(first, p[0]) {
				continue
			}
			if r, found := stripWords(rest, p); found {
				rest, weak, ok, matched = r, false, true, true
				break
			}
		}
		if !matched {
			if r, found := stripAnyWords(rest, weakPrefixes); found {
				rest, ok, matched = r, true, true
			}
		}
		if !matched {
			break
		}
	}
	return rest, weak && ok, ok
}

// firstWordOf is the first word of a message, normalized.
func firstWordOf(s string) string {
	i, j := nextWord(s, 0)
	return values.Normalize(s[i:j])
}

// nextWord finds the word of s at or after byte i: s[start:end], empty
// at the end of s.
func nextWord(s string, i int) (start, end int) {
	for i < len(s) && !isWordByte(s, i) {
		i++
	}
	j := i
	for j < len(s) {
		if c := s[j]; c < utf8.RuneSelf {
			if !isWordByte(s, j) {
				break
			}
			j++
			continue
		}
		if !isWordByte(s, j) {
			break
		}
		_, size := utf8.DecodeRuneInString(s[j:])
		j += size
	}
	return i, j
}

// cutSuffixWord removes a final word or phrase (normalized) from s, with
// the punctuation around it.
func cutSuffixWord(s, suffix string) (string, bool) {
	t := strings.TrimRight(s, " .,!?;:")
	n := len(suffix)
	if len(t) < n || values.Normalize(t[len(t)-n:]) != suffix {
		return s, false
	}
	before := t[:len(t)-n]
	if before != "" && isWordByte(before, len(before)-1) {
		return s, false
	}
	return strings.TrimRight(strings.TrimSpace(before), " ,;:-"), true
}

// stripWords removes the words of prefix (normalized) from the start of
// s, with the spaces and punctuation around them. found is false when s
// does not start with those words.
func stripWords(s string, prefix []string) (string, bool) {
	i := 0
	for _, want := range prefix {
		var j int
		i, j = nextWord(s, i)
		if j == i || !wordIs(s[i:j], want) {
			return "", false
		}
		i = j
	}
	rest := strings.TrimLeft(s[i:], " \t\r\n,.;:!-")
	return strings.TrimSpace(rest), true
}

// wordIs reports whether the word normalizes to want. An ASCII word is
// compared in place (letters folded, apostrophes dropped); others are
// normalized first.
func wordIs(word, want string) bool {
	k := 0
	for i := 0; i < len(word); i++ {
		c := word[i]
		switch {
		case c >= utf8.RuneSelf:
			return values.Normalize(word) == want
		case c == '\'':
			continue
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		if k == len(want) || want[k] != c {
			return false
		}
		k++
	}
	return k == len(want)
}

// isWordByte reports whether the rune at s[i] belongs to a word: a letter,
// a combining mark, a digit or an apostrophe.
func isWordByte(s string, i int) bool {
	c := s[i]
	if c < utf8.RuneSelf {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '\''
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || r == '\u2019'
}

// withoutPlaceholders drops the {slot} placeholders the Python framework
// writes in example phrases ("Send {amount} to {name}"): they stand for
// any value, so only the words around them have to match.
func withoutPlaceholders(phrase string) string {
	if !strings.Contains(phrase, "{") {
		return phrase
	}
	var b strings.Builder
	depth := 0
	for _, r := range phrase {
		switch {
		case r == '{':
			depth++
		case r == '}' && depth > 0:
			depth--
			b.WriteByte(' ')
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}
