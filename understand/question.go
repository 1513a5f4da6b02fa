package understand

import (
	"slices"
	"strings"

	lexdata "github.com/soni-dev/soni/lexicon"
	"github.com/soni-dev/soni/vm"
)

// firstContent is the first content word of a normalized phrase, stemmed.
func firstContent(norm string) string {
	for w := range strings.FieldsSeq(norm) {
		if !stopWords[w] {
			return stem(w)
		}
	}
	return ""
}

// questionWords start a question, in English and Spanish (normalized).
var questionWords = lexdata.Set("question_words")

// fillers may come before a question: "wait, how much...", "oh, what...".
var fillers = lexdata.Set("question_fillers")

// isQuestion reports whether a message is a question rather than a
// statement: it ends with a question mark and its first word, after
// fillers like "wait", is a question word. At a free-text question such a
// message is not the answer ("how much do I have?" is not a recipient).
func isQuestion(text, norm string) bool {
	t := strings.TrimSpace(text)
	if !strings.HasSuffix(t, "?") {
		return false
	}
	for w := range strings.FieldsSeq(norm) {
		if fillers[w] {
			continue
		}
		return questionWords[w]
	}
	return false
}

// requestLeads start a request for something new: "also", "by the way",
// "actually I want to", "I need". The rest of the message says what.
var requestLeads = lexdata.Phrases("request_leads")

// requestLead reports whether a normalized message starts, after
// fillers, with words that ask for something new, and returns the rest.
func requestLead(norm string) (string, bool) {
	words := strings.Fields(norm)
	for len(words) > 0 && (correctionFillers[words[0]] || fillers[words[0]] && !requestLeadStarts[words[0]]) {
		words = words[1:]
	}
	found := false
	for changed := true; changed; {
		changed = false
		for _, lead := range requestLeads {
			if len(words) > len(lead) && slices.Equal(words[:len(lead)], lead) {
				words, found, changed = words[len(lead):], true, true
				break
			}
		}
	}
	if !found {
		return "", false
	}
	return strings.Join(words, " "), true
}

// onTop reports whether a flow is the one on top of the stack.
func onTop(v vm.View, flow string) bool {
	n := len(v.Stack)
	return n > 0 && v.Stack[n-1] == flow
}
