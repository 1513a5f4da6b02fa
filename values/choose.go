package values

import (
	"strconv"
	"strings"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/lexicon"
)

// notChoiceWords are words of four letters or more that name no choice
// (the lexicon's not_choice_words): "want", "please", "quiero".
var notChoiceWords = lexicon.Set("not_choice_words")

// choicePositions name a choice by its position (the lexicon's
// choice_positions): "the first one" is 1, "la segunda" 2, and -1 is the
// last ("the last one", "el último").
var choicePositions = longestFirst(lexicon.Number("choice_positions"))

// Choice is one choice a question offers.
type Choice struct {
	// Name is the choice's value, which the message may also give as is.
	Name string
	// Phrases describe it: for a flow, its name with underscores as
	// spaces, its description and its trigger phrases.
	Phrases []string
}

// Choose reads a message as the answer to a question offering choices. A
// choice is named by its name, one of its phrases, a word of four
// letters or more in them that no other choice has ("balance"), or its
// position ("the first", "2", "the last one"). It returns the name of the
// choice named; ok is false when the message names none, or more than
// one.
func Choose(choices []Choice, text string) (string, bool) {
	def := &ir.Slot{Name: "choice", Type: ir.TypeCategorical}
	count := map[string]int{}
	for _, c := range choices {
		ph := c.Phrases
		seen := map[string]bool{}
		for _, w := range strings.Fields(Normalize(strings.Join(ph, " "))) {
			if len(w) >= 4 && !seen[w] {
				seen[w] = true
				count[w]++
			}
		}
	}
	for i, c := range choices {
		ph := c.Phrases
		syn := append([]string(nil), ph...)
		seen := map[string]bool{}
		for _, w := range strings.Fields(Normalize(strings.Join(ph, " "))) {
			if len(w) >= 4 && count[w] == 1 && !seen[w] && !notChoiceWords[w] {
				seen[w] = true
				syn = append(syn, w)
			}
		}
		syn = append(syn, strconv.Itoa(i+1))
		for _, p := range choicePositions {
			if p.n == i+1 || (p.n == -1 && i == len(choices)-1) {
				syn = append(syn, strings.Join(p.words, " "))
			}
		}
		def.Values = append(def.Values, ir.Value{Value: c.Name, Synonyms: syn})
	}
	v, err := Convert(def, text)
	if err != nil {
		return "", false
	}
	name, ok := v.(string)
	return name, ok
}
