package wordlists

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Names is a group of words a package may compare: the names of one of
// soni's own protocols, not words of a language.
type Names struct {
	// Of says which protocol the words name.
	Of string
	// In are the files that may compare them.
	In    []string
	Words []string
}

// Protocol is the one allow-list: by package (its directory in the
// module), the protocol names its code compares with. Every other word a
// Go file of those packages compares or lists is a word of a language,
// and belongs in the lexicon (lexicon/en.yaml, lexicon/es.yaml). Check
// fails on a name listed here that the package no longer compares, so
// the list stays exact.
var Protocol = map[string][]Names{
	"understand": {
		{Of: "the tokens of a slot's date format (ir.Slot.Format: dd/mm/yyyy)", In: []string{"dateformat.go"}, Words: []string{"dd", "mm"}},
		{Of: "the commands of a button payload (/start, /set, /cancel, /yes, /no; package payload)", In: []string{"payload.go"}, Words: []string{"start", "set", "cancel", "yes", "no"}},
		{Of: "the small talk kinds of the built-in small talk (ir.SmallTalkKinds) and of a project's talk flows", In: []string{"talkflows.go"}, Words: []string{"bot"}},
		{Of: "the rules' own reasons (Reading.Reason), which name the rule that answered", In: []string{"sure.go"}, Words: []string{"trigger"}},
	},
	"understand/llm": {
		{Of: "the model's command grammar (prompt.tmpl; docs/understanding.md, \"The model's commands\"): soni's protocol with the model, English keywords by design, not words of the user's language; \"to\" is the grammar's \"set slot NAME to VALUE\"", In: []string{"parse.go", "validate.go", "structured.go"}, Words: []string{
			"start flow", "set slot", "correct slot", "cancel flow", "human handoff", "repeat", "skip", "clarify",
			"affirm", "deny", "chitchat", "fallback", "help", "correct", "to",
			"startflow", "setslot", "correctslot", "cancelflow", "humanhandoff", "handoff", "repeatbotmessages", "skipquestion",
		}},
		{Of: "the fields of the model's structured answer and of its JSON Schema (response_format json_schema)", In: []string{"structured.go", "validate.go"}, Words: []string{"kind", "flow", "flows", "slot", "value", "type", "string", "object", "array"}},
		{Of: "JSON's null", In: []string{"structured.go"}, Words: []string{"null"}},
		{Of: "the understanding setting's modes", In: []string{"select.go"}, Words: []string{"rules", "llm", "hybrid"}},
		{Of: "the finish_reason of an OpenAI-style chat completion", In: []string{"llm.go"}, Words: []string{"length"}},
		{Of: "the kind of a repaired model answer in the trace", In: []string{"validate.go"}, Words: []string{"repaired"}},
	},
	"vm": {
		{Of: "a branch case's default pattern", In: []string{"exec.go"}, Words: []string{"default"}},
		{Of: "the names an expression or a pattern's context reads (slots, value, flows, ...)", In: []string{"exec.go", "inputs.go", "patterns.go", "response.go", "turn.go"}, Words: []string{"slots", "value", "flows", "corrections", "slot", "frame", "flow", "language", "channel"}},
		{Of: "the roles of a conversation's history (RoleBot, RoleUser)", In: []string{"patterns.go"}, Words: []string{"bot"}},
		{Of: "the errors of package actions that say an action has no runner or timed out", In: []string{"exec.go"}, Words: []string{"timed out", "is registered", "no runner for action", "no stub and no run"}},
	},
}

// Check fails t for each word list or word comparison of the Go files in
// the current directory (a test's package directory) that is not one of
// the Protocol names of pkg, and for each of those names the package no
// longer compares.
func Check(t testing.TB, pkg string) {
	t.Helper()
	names := map[string]bool{} // "file word"
	for _, g := range Protocol[pkg] {
		for _, f := range g.In {
			for _, w := range g.Words {
				names[f+" "+w] = true
			}
		}
	}
	found, err := Find(".", nil)
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	var bad []string
	for _, f := range found {
		at, words, _ := strings.Cut(f, ": ")
		file, _, _ := strings.Cut(at, ":")
		ok := true
		for _, w := range strings.Split(words, ", ") {
			used[file+" "+w] = true
			ok = ok && names[file+" "+w]
		}
		if !ok {
			bad = append(bad, f)
		}
	}
	if len(bad) > 0 {
		t.Errorf("words of a language in code (%d): move them to a named section of lexicon/en.yaml and lexicon/es.yaml, or, if they name a protocol of soni's, to wordlists.Protocol[%q]:\n%s", len(bad), pkg, strings.Join(bad, "\n"))
	}
	// A group's word must still be compared in one of its files.
	var stale []string
	for _, g := range Protocol[pkg] {
		for _, w := range g.Words {
			if !slices.ContainsFunc(g.In, func(f string) bool { return used[f+" "+w] }) {
				stale = append(stale, w)
			}
		}
	}
	slices.Sort(stale)
	if len(stale) > 0 {
		t.Errorf("wordlists.Protocol[%q] lists names the package no longer compares: %s", pkg, fmt.Sprint(stale))
	}
}
