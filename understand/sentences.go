package understand

import (
	"regexp"
	"strings"
	"sync"

	lexdata "github.com/soni-dev/soni/lexicon"
	"github.com/soni-dev/soni/values"
)

// Answers in sentences and option picks (docs/understanding.md, "Free
// text without carrier words"): "I'll go to the Basel Zoo please" keeps
// only the name it says, and "I'll take the luxury one" picks the option
// of the question whose words it names.

// nameSpan is the one run of capitalised words inside a sentence ("I'll
// go to the Basel Zoo please" is "Basel Zoo"): not its first word, nor
// "I". ok is false when the sentence has no such run, or two.
func nameSpan(toks []token) (string, bool) {
	if len(toks) < 3 || (capitalised(toks[0].text) && !selfWord(toks[0].text) && capitalised(toks[1].text)) {
		// "Main Street 1": the message starts with its name.
		return "", false
	}
	var span []string
	runs := 0
	in := false
	for i, t := range toks {
		capital := i > 0 && capitalised(t.text) && !selfWord(t.text) && !dateWord(t.norm)
		switch {
		case capital && !in:
			runs++
			in = true
			span = append(span, t.text)
		case capital:
			span = append(span, t.text)
		default:
			in = false
		}
		if in && t.ends {
			in = false
		}
	}
	if runs != 1 || len(span) == len(toks)-1 {
		return "", false
	}
	return strings.Join(span, " "), true
}

// selfWord reports whether a word is "I" or one of its contractions.
func selfWord(w string) bool {
	return w == "I" || strings.HasPrefix(w, "I'") || strings.HasPrefix(w, "I’")
}

// optionItem is one line or one item of a list in a question.
var optionItem = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:[-*•]+|\d+[.)])\s*`)
})

// questionOptions are the options a question lists: its bulleted or
// numbered lines, else the items after its last colon, separated by
// commas and "or".
func questionOptions(prompt string) []string {
	var out []string
	for _, line := range strings.Split(prompt, "\n") {
		if loc := optionItem().FindStringIndex(line); loc != nil {
			if item := strings.TrimSpace(line[loc[1]:]); item != "" {
				out = append(out, item)
			}
		}
	}
	if len(out) > 1 {
		return out
	}
	out = nil
	i := strings.LastIndex(prompt, ":")
	if i < 0 {
		return nil
	}
	list := strings.TrimSpace(prompt[i+1:])
	if end := strings.IndexAny(list, ".?!\n"); end >= 0 {
		list = list[:end]
	}
	for _, part := range strings.Split(strings.ReplaceAll(strings.ReplaceAll(list, " or ", ","), " and ", ","), ",") {
		if part = withoutArticle(strings.TrimSpace(part)); part != "" {
			out = append(out, part)
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// pickOption returns the option of the question that the message names
// by its words ("the luxury one" of "Hertz Economy, Avis Luxury"): the
// one option that shares the most of the message's content words, at
// least one. Words that every option has say nothing.
func pickOption(prompt, head string) (string, bool) {
	opts := questionOptions(prompt)
	if len(opts) < 2 {
		return "", false
	}
	msg, _ := contentWords(values.Normalize(head), nil)
	if len(msg) == 0 {
		return "", false
	}
	optWords := make([]map[string]bool, len(opts))
	for i, o := range opts {
		optWords[i] = map[string]bool{}
		ws, _ := contentWords(values.Normalize(o), nil)
		for _, w := range ws {
			optWords[i][w] = true
		}
	}
	best, bestN, ties := -1, 0, 0
	for i := range opts {
		n := 0
		for _, w := range msg {
			all := true
			for j := range opts {
				all = all && optWords[j][w]
			}
			if optWords[i][w] && !all {
				n++
			}
		}
		switch {
		case n > bestN:
			best, bestN, ties = i, n, 1
		case n == bestN && n > 0:
			ties++
		}
	}
	if best < 0 || ties != 1 {
		return "", false
	}
	return strings.TrimRight(opts[best], ".,;"), true
}

// nameArticles may start a name in a list or an answer ("the Basel Zoo").
var nameArticles = lexdata.Set("name_articles")

// withoutArticle drops an article before a capitalised name: "the Basel
// Zoo" is "Basel Zoo"; "the luxury one" stays.
func withoutArticle(s string) string {
	first, rest, ok := strings.Cut(s, " ")
	if ok && nameArticles[strings.ToLower(first)] && capitalised(rest) {
		return rest
	}
	return s
}
