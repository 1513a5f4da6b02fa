package understand

import (
	"regexp"
	"strings"
	"sync"

	"github.com/soni-dev/soni/ir"
	lexdata "github.com/soni-dev/soni/lexicon"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// A project's own flows for greeting, goodbye, "what can you do" and a
// request for a person win over the built-in small talk, help and
// handoff (docs/understanding.md, "Small talk, help and a person"). A
// flow says which it is in its name, its trigger phrases or its
// description, with the words people use to describe a greeting, a
// goodbye, a list of skills or a person to talk to; these words say what
// a flow does, in any domain. A handoff flow says so in its name, label
// or short phrases only: a description that mentions a person is too
// often about something else.
var (
	talkFlowWords = map[string][]string{
		ir.SmallTalkGreet:     lexdata.Get("talk_flow_greet"),
		ir.SmallTalkGoodbye:   lexdata.Get("talk_flow_goodbye"),
		string(vm.CmdHelp):    lexdata.Get("talk_flow_help"),
		string(vm.CmdHandoff): lexdata.Get("talk_flow_handoff"),
		talkBot:               lexdata.Get("talk_flow_bot"),
	}
	// botQuestionLeads start a question about who the user talks to.
	botQuestionLeads = lexdata.Phrases("bot_question_leads")
	// botWords and personWords name a bot or a person in such a question.
	botWords    = lexdata.Set("talk_flow_bot")
	personWords = lexdata.Set("talk_flow_handoff")
	// helpFlowRE is a description that says what the assistant can do.
	helpFlowRE = sync.OnceValue(func() *regexp.Regexp {
		return lexdata.Pattern("help_flow_patterns")
	})
	talkFlowStems = sync.OnceValue(func() map[string]string {
		m := map[string]string{}
		for kind, words := range talkFlowWords {
			for _, w := range words {
				m[stem(w)] = kind
			}
		}
		return m
	})
)

// talkBot is the kind of a question whether the user talks to a bot
// or a person ("is this a real person?"): a project's bot flow answers
// it.
const talkBot = "bot"

// botQuestion reports whether a message asks whether the user talks to
// a bot or a person: a lead such as "is this" or "am I chatting with",
// then a word for a bot or a person; the lead makes it a question, with
// a question mark or without.
func botQuestion(norm string) bool {
	if _, ok := stripAnyWords(norm, botQuestionLeads); !ok {
		return false
	}
	for _, w := range strings.Fields(norm) {
		if botWords[w] || personWords[w] {
			return true
		}
	}
	return false
}

// talkKind is the kind of small talk a command answers, for a project's
// flow to answer instead: greet, goodbye, help or human_handoff ("" for
// none).
func talkKind(c vm.Command) string {
	switch {
	case c.Kind == vm.CmdHelp || c.Kind == vm.CmdHandoff:
		return string(c.Kind)
	case c.Kind == vm.CmdChitchat && (c.SmallTalk == ir.SmallTalkGreet || c.SmallTalk == ir.SmallTalkGoodbye):
		return c.SmallTalk
	}
	return ""
}

// talkFlow returns the project's one flow that answers small talk of a
// kind (talkKind), or "": a flow whose name or trigger phrases say the
// kind, else a flow whose description does. Two flows that say it as
// strongly answer nothing: the built-in small talk does. Patterns and
// flows that cannot start now are left out.
func (r *Rules) talkFlow(kind string, v vm.View) string {
	if kind == "" || r.prog == nil {
		return ""
	}
	var strong, weak []string
	for _, f := range r.talkSaid(kind) {
		if v.CanStart != nil && !v.CanStart(f.name) {
			continue
		}
		switch {
		case f.named:
			strong = append(strong, f.name)
		case f.described && kind != string(vm.CmdHandoff) && kind != talkBot:
			weak = append(weak, f.name)
		}
	}
	for _, tier := range [][]string{strong, weak} {
		if len(tier) == 1 {
			return tier[0]
		}
		if len(tier) > 1 {
			return ""
		}
	}
	return ""
}

// talkSaid is what the program's flows say of one kind of small talk
// (talkSays), for every flow a message may start (not a pattern), in
// the program's order. It depends on the program alone: the rules
// compute it once per kind, when a message first asks.
type talkSaid struct {
	name             string
	named, described bool
}

// talkSaid returns the flows' talkSaid for kind, computed once.
func (r *Rules) talkSaid(kind string) []talkSaid {
	t := r.facts.talk(kind)
	t.once.Do(func() {
		for _, f := range r.prog.Flows {
			if f == nil || f.Builtin || ir.IsPattern(f.Name) || r.byName[f.Name] == nil {
				continue
			}
			named := talkSays(kind, strings.ReplaceAll(f.Name, "_", " ")) || talkSays(kind, f.Label)
			described := talkSays(kind, f.Description)
			for _, t := range f.Triggers {
				// A long phrase is a description (an import copies
				// descriptions into phrases): "should not respond to
				// greetings" names no greeting flow.
				if fieldsUnder(t, 6) {
					named = named || talkSays(kind, t)
				} else {
					described = described || talkSays(kind, t)
				}
			}
			t.flows = append(t.flows, talkSaid{f.Name, named, described})
		}
	})
	return t.flows
}

// talkSays reports whether a flow's text says a kind of small talk.
func talkSays(kind, text string) bool {
	norm := values.Normalize(text)
	if kind == string(vm.CmdHelp) && helpFlowRE().MatchString(norm) {
		return true
	}
	for _, w := range strings.Fields(norm) {
		if talkFlowStems()[stem(w)] == kind {
			return true
		}
	}
	return false
}
