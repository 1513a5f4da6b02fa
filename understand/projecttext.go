package understand

import (
	"regexp"
	"strings"
	"sync"

	"github.com/soni-dev/soni/ir"
	lexdata "github.com/soni-dev/soni/lexicon"
	"github.com/soni-dev/soni/values"
)

// Openings from the project's own text (docs/understanding.md, "Flows by
// meaning, not by phrase"): the words a flow's name and description
// share say what it is about, and the forms WordNet derives from its
// words ("rent" of "rental", synonyms.go) are its words too.

// namedConcepts are the concepts a flow's name and description share,
// generic verbs aside. A description that reads as an instruction to a
// model ("trigger this when...", "this flow is called from...") names
// nothing.
func namedConcepts(l *lex, f *ir.Flow) map[string]bool {
	out := map[string]bool{}
	desc := values.Normalize(f.Description)
	if desc == "" || instructionRE().MatchString(desc) {
		return out
	}
	desc = aboutText(desc)
	inDesc := map[string]bool{}
	for _, c := range l.concepts(desc, nil) {
		inDesc[c] = true
	}
	for _, c := range l.concepts(values.Normalize(strings.NewReplacer("_", " ", "-", " ").Replace(f.Name)), nil) {
		if inDesc[c] && !genericWords[c] && !extraGeneric[c] {
			out[c] = true
		}
	}
	return out
}

// instructionRE is a description written to a model, not about what the
// flow does for a user.
var instructionRE = sync.OnceValue(func() *regexp.Regexp {
	return lexdata.Pattern("instruction_patterns")
})

// descriptionLeadRE finds the start of a description that speaks of the
// flow and the people it serves ("this flow lets users", "help the
// user"), not of what it does.
var descriptionLeadRE = sync.OnceValue(func() *regexp.Regexp {
	return lexdata.Pattern("description_lead_patterns")
})

// aboutText is a normalized description, or a phrase made of one,
// without its start that speaks of the flow and its users: "this flow
// helps a user file a claim" is "file a claim", and "this flow allows
// users" is nothing.
func aboutText(norm string) string {
	for range 3 {
		loc := descriptionLeadRE().FindStringIndex(norm)
		if loc == nil || loc[0] != 0 || loc[1] == 0 {
			break
		}
		norm = strings.TrimSpace(norm[loc[1]:])
	}
	return norm
}

// projectWords are the normalized words of a project's own text that
// say what its flows are about: the flows' names, descriptions and
// trigger phrases, the values and synonyms of their categorical slots,
// and the project lexicon's words.
func projectWords(p *ir.Program, l *lex) map[string]bool {
	own := map[string]bool{}
	addText := func(text string) {
		for _, w := range strings.Fields(aboutText(values.Normalize(strings.NewReplacer("_", " ", "-", " ").Replace(text)))) {
			if !stopWords[w] && !isNumberish(w) {
				own[w] = true
			}
		}
	}
	for w := range l.words {
		own[w] = true
	}
	for _, f := range p.Flows {
		if f == nil || f.Builtin {
			continue
		}
		addText(f.Name)
		addText(f.Description)
		for _, t := range f.Triggers {
			addText(withoutNames(withoutPlaceholders(t)))
		}
		for _, n := range f.Nodes {
			if n == nil || n.Kind != ir.KindCollect {
				continue
			}
			if s := p.ResolveSlot(f.Name, n.Slot); s != nil && s.Type == ir.TypeCategorical {
				for _, v := range s.Values {
					addText(v.Value)
					for _, syn := range v.Synonyms {
						addText(syn)
					}
				}
			}
		}
	}
	return own
}
