package understand

import (
	"strings"
	"sync"

	lexdata "github.com/soni-dev/soni/lexicon"
)

// recipientStems are the stems of the nouns general English derives from
// a verb with an ending that names the one the verb's action goes to
// (recipient_endings in the lexicon: "payee" of "pay", "addressee" of
// "address", "consignee" of "consign"), as WordNet's derivational links
// (wordnet_en.txt) pair them. Such a noun in a free-text slot's name,
// question or description makes it a target, like "recipient": the role
// comes from the project's own words and general English, not from a
// list of one domain's nouns.
var recipientStems = sync.OnceValue(func() map[string]bool {
	endings := lexdata.Get("recipient_endings")
	m := map[string]bool{}
	for line := range strings.Lines(wordnetEN) {
		if !strings.HasPrefix(line, "+ ") {
			continue
		}
		g, _, ok := group(line)
		if !ok {
			continue
		}
		for _, verb := range g {
			for _, noun := range g {
				for _, e := range endings {
					if noun.word == verb.word+e {
						m[stem(noun.word)] = true
					}
				}
			}
		}
	}
	return m
})

// recipientNoun reports whether a normalized word is such a noun, or a
// form of one ("payees").
func recipientNoun(w string) bool {
	return recipientStems()[stem(w)]
}
