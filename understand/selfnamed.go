package understand

import (
	"strings"

	lexdata "github.com/soni-dev/soni/lexicon"
)

// Answers that name the slot they answer (docs/understanding.md, "Free
// text without carrier words"): "my claim number is 77120" at the claim
// number question is 77120, and "it's 90311 I think" is 90311. The
// slot's own name says where the value starts, and a hedge after it
// ("I think") is no part of it.

// answerHedges end an answer without being part of its value.
var answerHedges = lexdata.Phrases("answer_hedges")

// selfNamedAnswer reads "[my|the] SLOT NAME is VALUE": the words of the
// slot's name, in order (each by its stem: name is selfNameStems of the
// slot's name), or its last word alone, the noun the others qualify ("my
// email is jon@mail.com" for traveller_email), after an optional article
// and before a link word, then one to four words of value.
func selfNamedAnswer(name []string, head string) (string, bool) {
	toks := tokens(head)
	if v, ok := selfNamedBy(name, toks); ok || len(name) < 2 {
		return v, ok
	}
	return selfNamedBy(name[len(name)-1:], toks)
}

// selfNamedBy reads "[my|the] NAME is VALUE" with the stems of name.
func selfNamedBy(name []string, toks []token) (string, bool) {
	i := 0
	for _, a := range namedArticles {
		if len(a) < len(toks) && tokensAre(toks, a) {
			i = len(a)
			break
		}
	}
	for _, st := range name {
		if i >= len(toks) || stem(toks[i].norm) != st {
			return "", false
		}
		i++
	}
	linked := false
	for _, l := range namedLinks {
		if i+len(l) < len(toks) && tokensAre(toks[i:], l) {
			i += len(l)
			linked = true
			break
		}
	}
	if !linked {
		return "", false
	}
	value := withoutHedge(toks[i:])
	if len(value) == 0 || len(value) > 4 {
		return "", false
	}
	words := make([]string, len(value))
	for k, t := range value {
		words[k] = t.text
	}
	return strings.Join(words, " "), true
}

// selfNameStems are the stems of the words of a slot's name, as
// selfNamedAnswer compares them.
func selfNameStems(slot string) []string {
	name := strings.Fields(strings.ReplaceAll(strings.ToLower(slot), "_", " "))
	for i, w := range name {
		name[i] = stem(w)
	}
	return name
}

// withoutHedge drops a hedge that ends an answer ("90311 I think").
func withoutHedge(toks []token) []token {
	for _, h := range answerHedges {
		if len(h) < len(toks) && tokensAre(toks[len(toks)-len(h):], h) {
			return toks[:len(toks)-len(h)]
		}
	}
	return toks
}

// quotedAnswer is the text a free-text answer quotes (`it says
// "Connection timed out"`): the one span between double quotes, with at
// most four words around it. ok is false for no quotes, two spans, or
// an empty one.
func quotedAnswer(head string) (string, bool) {
	open := strings.IndexAny(head, "\"“")
	if open < 0 {
		return "", false
	}
	rest := head[open+1:]
	if head[open] != '"' {
		rest = head[open+len("“"):]
	}
	end := strings.IndexAny(rest, "\"”")
	if end < 0 {
		return "", false
	}
	inner := strings.TrimSpace(rest[:end])
	after := rest[end+1:]
	if rest[end] != '"' {
		after = rest[end+len("”"):]
	}
	if inner == "" || strings.ContainsAny(after, "\"“”") || len(strings.Fields(head[:open]+" "+after)) > 4 {
		return "", false
	}
	return inner, true
}
