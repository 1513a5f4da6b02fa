package understand

import (
	_ "embed"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/kljensen/snowball/english"
)

// General English synonyms from a lexical database (docs/understanding.md,
// "Where a flow's vocabulary comes from"). The rules know no domain's
// words: a flow's words are those of its project's text. A message word
// the project never uses is read as the project's word it shares a
// common sense with in WordNet ("reserve" for a project's "book"), so
// the knowledge of which words mean the same comes from data, never from
// a list written for the example projects.

//go:generate go run ../scripts/wordnet-synonyms -o wordnet_en.txt

// wordnetEN is the generated data: one synset (or derivational link) a
// line, each one-word lemma with the rank of that sense among its senses.
//
//go:embed wordnet_en.txt
var wordnetEN string

// projectRank and messageRank are the rarest senses a synonym is read
// in: the project's word in one of its most common senses (its usual
// meaning in a flow's text), the message's word in one of its common
// ones.
const (
	projectRank = 2
	messageRank = 4
)

// sense is a lemma's membership of a synonym group, with the rank of
// that sense among the lemma's senses (1 is the most frequent).
type sense struct {
	group int32
	rank  int8
}

// thesaurus holds the synonym groups of the embedded data, by word.
type thesaurus struct {
	senses map[string][]sense
	groups [][]member
	// derived marks the groups that are a derivational link ("rent" and
	// "rental"): one word's family, not two words.
	derived []bool
	// forms maps an irregular form of a verb to the verb ("lost" to
	// "lose", "paid" to "pay"), which the stemmer does not know.
	forms map[string]string
	// common are the common words of English (WordNet's lemmas seen in
	// its tagged texts), which are never a typo of another word.
	common      map[string]bool
	commonStems map[string]bool
}

// member is a lemma of a synonym group, with the rank of that sense.
type member struct {
	word string
	rank int8
}

// englishThesaurus parses the embedded data once.
var englishThesaurus = sync.OnceValue(func() *thesaurus { return parseThesaurus(wordnetEN) })

func parseThesaurus(data string) *thesaurus {
	// Sized for the generated file (about 50,000 groups over 60,000
	// words, 17,000 common words): a process pays for this parse at its
	// first understanding, so it allocates once where it can.
	t := &thesaurus{
		senses: make(map[string][]sense, 1<<16), forms: make(map[string]string, 2048),
		common: make(map[string]bool, 1<<15), commonStems: make(map[string]bool, 1<<14),
		groups: make([][]member, 0, 1<<16), derived: make([]bool, 0, 1<<16),
	}
	all := make([]member, 0, 1<<17) // every group's members, one backing array
	for line := range strings.Lines(data) {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "! "); ok {
			for w := range strings.FieldsSeq(rest) {
				t.common[w] = true
				// stem's rule, without filling its cache with words no
				// message may hold.
				st := english.Stem(w, false)
				if len(w) <= 3 || len(st) < 3 {
					st = w
				}
				t.commonStems[st] = true
			}
			continue
		}
		if rest, ok := strings.CutPrefix(line, "= "); ok {
			if form, verb, ok := strings.Cut(rest, " "); ok {
				t.forms[form] = verb
			}
			continue
		}
		line, derived := strings.CutPrefix(line, "+ ")
		start := len(all)
		for f := range strings.FieldsSeq(line) {
			dot := strings.LastIndexByte(f, '.')
			if dot <= 0 {
				continue
			}
			rank, err := strconv.Atoi(f[dot+1:])
			if err != nil || rank < 1 || rank > 127 {
				continue
			}
			all = append(all, member{f[:dot], int8(rank)})
		}
		if len(all)-start < 2 {
			all = all[:start]
			continue
		}
		g := all[start:len(all):len(all)]
		id := int32(len(t.groups))
		t.groups = append(t.groups, g)
		t.derived = append(t.derived, derived)
		for _, m := range g {
			t.senses[m.word] = append(t.senses[m.word], sense{id, m.rank})
		}
	}
	return t
}

// isCommonWord reports whether a normalized word is a common English
// word, or a form of one (its stem is a common word's): a word, not a
// typo.
func (t *thesaurus) isCommonWord(w string) bool {
	return t.common[w] || t.common[t.forms[w]] || t.commonStems[stem(w)]
}

// synonymsOf calls yield for each word that shares a sense with w, w in
// a sense of rank at most wRank and the other word in one of rank at
// most otherRank, with the sum of the two ranks, and whether the two are
// one word's family (a derivational link) rather than synonyms.
func (t *thesaurus) synonymsOf(w string, wRank, otherRank int8, yield func(other string, rank int, derived bool)) {
	for _, s := range t.senses[w] {
		if s.rank > wRank {
			continue
		}
		for _, m := range t.groups[s.group] {
			if m.word != w && m.rank <= otherRank {
				yield(m.word, int(s.rank)+int(m.rank), t.derived[s.group])
			}
		}
	}
}

// learnSynonyms reads the words of general English that share a common
// sense with a project's words as those words: for each word the project
// uses (own, normalized), each synonym that is no project word, nor a
// form of one, takes its concept; a synonym of two project words of
// different concepts takes the closer one's, and none on a tie.
func (l *lex) learnSynonyms(own map[string]bool) {
	t := englishThesaurus()
	ownStems := map[string]bool{}
	for w := range own {
		ownStems[stem(w)] = true
	}
	type choice struct {
		concept string
		rank    int
		tie     bool
		// family is true when every link to the concept is a
		// derivation: the word is a form of the project's, and weighs
		// as much.
		family bool
	}
	best := map[string]*choice{}
	for _, w := range slices.Sorted(maps.Keys(own)) {
		if stopWords[w] || genericWords[w] {
			continue
		}
		c := l.concept(w)
		t.synonymsOf(w, projectRank, messageRank, func(other string, rank int, derived bool) {
			if own[other] || ownStems[stem(other)] || ownStems[other] || stopWords[other] || genericWords[other] || extraGeneric[other] {
				return
			}
			switch b := best[other]; {
			case b == nil:
				best[other] = &choice{concept: c, rank: rank, family: derived}
			case b.concept == c:
				b.rank = min(b.rank, rank)
				b.family = b.family && derived
			case rank < b.rank:
				*b = choice{concept: c, rank: rank, family: derived}
			case rank == b.rank:
				b.tie = true
			}
		})
	}
	if l.synonym == nil {
		l.synonym = map[string]bool{}
	}
	// The words first, then their stems, in order: a word is read as
	// itself before as another word's stem, and the same project gives
	// the same reading every time.
	words := slices.Sorted(maps.Keys(best))
	for _, w := range words {
		if b := best[w]; !b.tie {
			if _, taken := l.words[w]; !taken {
				l.words[w] = b.concept
				l.synonym[w] = !b.family
			}
		}
	}
	for _, w := range words {
		if b := best[w]; !b.tie {
			// A stem that is a word of its own ("name" of "naming") is
			// that word, not the synonym's form.
			if st := stem(w); !ownStems[st] && (st == w || !t.common[st]) {
				if _, taken := l.words[st]; !taken {
					l.words[st] = b.concept
					l.synonym[st] = !b.family
				}
			}
		}
	}
}
