package understand

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/soni-dev/soni/ir"
	lexdata "github.com/soni-dev/soni/lexicon"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// Small talk, requests for help and for a person, in English and Spanish
// (docs/understanding.md, "Small talk, help and a person"). Each entry is
// a normalized phrase; the message must be the phrase, with fillers and
// polite words around it, or start with it when it is marked as a lead
// ("thanks, that's all").
var (
	// chitchatPhrases are small talk, by its kind (ir.SmallTalkKinds;
	// "" for small talk of no kind), which pattern_chitchat answers: the
	// lexicon's sections smalltalk_KIND and smalltalk.
	chitchatPhrases = func() map[string][]string {
		m := map[string][]string{"": lexdata.Get("smalltalk")}
		for _, kind := range ir.SmallTalkKinds {
			m[kind] = lexdata.Get("smalltalk_" + kind)
		}
		return m
	}()
	helpPhrases = lexdata.Get("help_phrases")
	// repeatPhrases ask the bot to say its last messages again
	// (pattern_repeat_bot_messages).
	repeatPhrases = lexdata.Get("repeat_phrases")
	// skipPhrases ask to skip the pending question (pattern_skip_question).
	skipPhrases    = lexdata.Get("skip_phrases")
	handoffPhrases = lexdata.Get("handoff_phrases")
)

// handoffRE finds a request for a person inside a sentence: "can I
// speak with someone from the bank", "I want to talk to a real person".
var handoffRE = sync.OnceValue(func() *regexp.Regexp { return lexdata.Pattern("handoff_patterns") })

// helpRE reads a whole message that asks what the assistant can do,
// in other words than the help phrases: "what else can you help me
// with", "what are you capable of".
var helpRE = sync.OnceValue(func() *regexp.Regexp { return lexdata.Pattern("help_patterns") })

// ackRE reads praise of what the assistant said or did as an
// acknowledgement: "that was really useful", "you helped a lot". It is
// tried on phrases that end with a word of ackLast only.
var (
	ackRE   = sync.OnceValue(func() *regexp.Regexp { return lexdata.Pattern("ack_patterns") })
	ackLast = lexdata.Set("ack_last")
)

// thanksRE reads thanks for something as thanks: "thank you for your
// time". It is tried on phrases that start with the first word of a
// thanks phrase only.
var (
	thanksRE    = sync.OnceValue(func() *regexp.Regexp { return lexdata.Pattern("thanks_patterns") })
	thanksFirst = func() map[string]bool {
		m := map[string]bool{}
		for _, p := range chitchatPhrases[ir.SmallTalkThanks] {
			first, _, _ := strings.Cut(p, " ")
			m[first] = true
		}
		return m
	}()
)

// handoffNouns are the words every handoffRE match has: the regular
// expression runs only on a message with one of them.
var handoffNouns = lexdata.Set("handoff_nouns")

// smallTalk maps each phrase of the lists above to its command. The
// lists are read in a fixed order (small talk of no kind, the kinds in
// ir.SmallTalkKinds' order, then help, a person, repeat and skip) and
// the first list that names a phrase keeps it, so a phrase listed twice
// can never mean one thing on one run and another on the next;
// TestSmallTalkPhrasesMeanOneThing refuses such a lexicon.
var smallTalk = func() map[string]vm.Command {
	m := map[string]vm.Command{}
	for _, e := range smallTalkLists() {
		for _, p := range e.phrases {
			if _, ok := m[p]; !ok {
				m[p] = e.cmd
			}
		}
	}
	return m
}()

// smallTalkList is one list of phrases and the command they all mean.
type smallTalkList struct {
	cmd     vm.Command
	phrases []string
}

// smallTalkLists are the small-talk, help, handoff, repeat and skip
// phrase lists in the order smallTalk reads them.
func smallTalkLists() []smallTalkList {
	lists := []smallTalkList{{vm.Command{Kind: vm.CmdChitchat}, chitchatPhrases[""]}}
	for _, kind := range ir.SmallTalkKinds {
		lists = append(lists, smallTalkList{vm.Command{Kind: vm.CmdChitchat, SmallTalk: kind}, chitchatPhrases[kind]})
	}
	return append(lists,
		smallTalkList{vm.Command{Kind: vm.CmdHelp}, helpPhrases},
		smallTalkList{vm.Command{Kind: vm.CmdHandoff}, handoffPhrases},
		smallTalkList{vm.Command{Kind: vm.CmdRepeat}, repeatPhrases},
		smallTalkList{vm.Command{Kind: vm.CmdSkipQuestion}, skipPhrases},
	)
}

// texting are the short forms people type in chat, read as the words
// they stand for in small talk: "what can u do", "thx", "ty".
var texting = lexdata.Map("texting")

// smallTalkFirst are the words a chitchat phrase may start with, around
// words included: a message that starts with none has no small talk
// before it.
var smallTalkFirst = func() map[string]bool {
	m := map[string]bool{}
	for _, phrases := range chitchatPhrases {
		for _, p := range phrases {
			first, _, _ := strings.Cut(p, " ")
			m[first] = true
		}
	}
	for w := range smallTalkAround {
		m[w] = true
	}
	for _, l := range momentLeads {
		m[l[0]] = true
	}
	for p := range momentLetMe {
		first, _, _ := strings.Cut(p, " ")
		m[first] = true
	}
	for w := range momentUnits {
		m[w] = true
	}
	return m
}()

// smallTalkLeads are words around small talk that do not change it.
var smallTalkAround = lexdata.Set("small_talk_around")

// smallTalkOf reads a normalized message as small talk, a request for
// help or for a person. The message must be one of the phrases, with
// words around it that do not change it ("hi there", "ok thanks",
// "help please"), or two such phrases ("hi, what can you do?": the one
// that asks for something wins: a person, then help; two kinds of small
// talk are read as the first of ir.SmallTalkKinds: "thanks, bye" is a
// goodbye).
func smallTalkOf(norm string) (vm.Command, bool) {
	words := strings.Fields(norm)
	changed := false
	for i, w := range words {
		if x, ok := texting[w]; ok {
			words[i], changed = x, true
		}
	}
	if changed {
		norm = strings.Join(words, " ")
		words = strings.Fields(norm)
	}
	if len(words) == 0 || len(words) > 14 {
		return vm.Command{}, false
	}
	if len(words) <= 12 && hasAny(words, handoffNouns) && handoffRE().MatchString(norm) {
		return vm.Command{Kind: vm.CmdHandoff}, true
	}
	if c, ok := smallTalkPhrase(words); ok {
		return c, true
	}
	if len(words) <= 12 && helpRE().MatchString(norm) {
		return vm.Command{Kind: vm.CmdHelp}, true
	}
	// Two phrases: "hi, can you help me", "thanks, bye".
	for i := 1; i < len(words); i++ {
		a, okA := smallTalkPhrase(words[:i])
		b, okB := smallTalkPhrase(words[i:])
		if okA && okB {
			for _, k := range []vm.CommandKind{vm.CmdHandoff, vm.CmdHelp, vm.CmdRepeat, vm.CmdSkipQuestion} {
				if a.Kind == k || b.Kind == k {
					return vm.Command{Kind: k}, true
				}
			}
			for _, kind := range ir.SmallTalkKinds {
				if a.SmallTalk == kind || b.SmallTalk == kind {
					return vm.Command{Kind: vm.CmdChitchat, SmallTalk: kind}, true
				}
			}
			return vm.Command{Kind: vm.CmdChitchat}, true
		}
	}
	return vm.Command{}, false
}

// SmallTalkKind reads a message as small talk and says its kind (one of
// ir.SmallTalkKinds), or "" when it is no small talk of a known kind: a
// language model that answers chitchat gets its kind from here. A thumbs
// up is an acknowledgement.
func SmallTalkKind(msg string) string {
	norm := values.Normalize(msg)
	if norm == "" {
		if yes, ok := values.YesNo(strings.TrimSpace(msg)); ok && yes {
			return ir.SmallTalkAck
		}
		return ""
	}
	if c, ok := smallTalkOf(collapseRepeats(norm)); ok && c.Kind == vm.CmdChitchat {
		return c.SmallTalk
	}
	return ""
}

// smallTalkPhrase reads words as one phrase, with the words around it
// that do not change it.
func smallTalkPhrase(words []string) (vm.Command, bool) {
	for len(words) > 0 && smallTalkAround[words[0]] {
		words = words[1:]
	}
	for len(words) > 0 && smallTalkAround[words[len(words)-1]] {
		words = words[:len(words)-1]
	}
	if len(words) == 0 {
		return vm.Command{}, false
	}
	c, ok := lookupWords(smallTalk, words)
	if !ok && asksForAMoment(words) {
		return vm.Command{Kind: vm.CmdChitchat, SmallTalk: ir.SmallTalkWait}, true
	}
	if !ok && len(words) <= 6 && ackLast[words[len(words)-1]] && ackRE().MatchString(strings.Join(words, " ")) {
		return vm.Command{Kind: vm.CmdChitchat, SmallTalk: ir.SmallTalkAck}, true
	}
	if !ok && len(words) <= 9 && thanksFirst[words[0]] && thanksRE().MatchString(strings.Join(words, " ")) {
		return vm.Command{Kind: vm.CmdChitchat, SmallTalk: ir.SmallTalkThanks}, true
	}
	return c, ok
}

// asksForAMoment reads the ways people ask for a moment beyond the
// phrases of the list: a lead, a count and a unit of time ("hang on a
// sec", "give me 5 minutes", "dame un minuto", "momento"), or "let me"
// and a verb of looking or thinking with nothing after it ("let me
// check", "déjame ver"), or "brb".
func asksForAMoment(words []string) bool {
	if len(words) == 0 || len(words) > 5 {
		return false
	}
	if letMe, _ := lookupWords(momentLetMe, words); letMe {
		return true
	}
	lead := 0
	for _, l := range momentLeads {
		if len(l) < len(words) && slices.Equal(words[:len(l)], l) {
			lead = len(l)
			break
		}
	}
	rest := words[lead:]
	if len(rest) > 0 && (momentCounts[rest[0]] || (lead > 0 && isNumberish(rest[0]))) && len(rest) > 1 {
		rest = rest[1:]
	}
	if len(rest) == 1 && momentUnits[rest[0]] {
		// A unit alone is one only when it says so by itself.
		return lead > 0 || len(words) > 1 || momentAlone[rest[0]]
	}
	return false
}

var (
	momentLeads  = lexdata.Phrases("moment_leads")
	momentCounts = lexdata.Set("moment_counts")
	momentUnits  = lexdata.Set("moment_units")
	momentLetMe  = lexdata.Set("moment_let_me")
)

// withoutSmallTalkLead drops small talk that starts a longer message ("ah,
// one moment, show my transactions", "hi there, I lost my card"): the
// rest says what the message is about.
func withoutSmallTalkLead(norm string) string {
	first, _, _ := strings.Cut(norm, " ")
	if !smallTalkFirst[first] {
		return norm
	}
	words := strings.Fields(norm)
	for i := min(len(words)-1, 5); i >= 1; i-- {
		if c, ok := smallTalkPhrase(words[:i]); ok && c.Kind == vm.CmdChitchat {
			return strings.Join(words[i:], " ")
		}
	}
	return norm
}
