package understand

import (
	"strings"
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
var questionWords = map[string]bool{
	"how": true, "what": true, "whats": true, "which": true, "when": true, "where": true,
	"why": true, "who": true, "can": true, "could": true, "do": true, "does": true,
	"is": true, "are": true, "will": true, "would": true, "should": true,
	"cuanto": true, "cuanta": true, "cuantos": true, "que": true, "como": true,
	"donde": true, "cuando": true, "por": true, "puedo": true, "puedes": true,
}

// fillers may come before a question: "wait, how much...", "oh, what...".
var fillers = map[string]bool{
	"wait": true, "oh": true, "hmm": true, "um": true, "sorry": true, "so": true,
	"and": true, "but": true, "ok": true, "okay": true, "espera": true, "oye": true,
	"pero": true, "y": true,
}

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
