package understand

import (
	_ "embed"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
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

// thesaurus holds the embedded data: the irregular verb forms and the
// common words, parsed once, and the synonym groups, which are only
// scanned for a project's words (groupsOf) instead of being indexed
// by every one of WordNet's words at start-up: the index took 80–150
// ms of CPU before any project's first message, the scan takes a few.
type thesaurus struct {
	// data is the embedded text; groups are its synonym lines.
	data string
	// forms maps an irregular form of a verb to the verb ("lost" to
	// "lose", "paid" to "pay"), which the stemmer does not know.
	forms map[string]string
	// common are the common words of English (WordNet's lemmas seen in
	// its tagged texts), which are never a typo of another word;
	// commonStems are their stems (the data's "~" lines), read on
	// first use.
	common      map[string]bool
	commonStems func() map[string]bool
}

// member is a lemma of a synonym group, with the rank of that sense
// among the lemma's senses (1 is the most frequent).
type member struct {
	word string
	rank int8
}

// englishThesaurus parses the embedded data once.
var englishThesaurus = sync.OnceValue(func() *thesaurus { return parseThesaurus(wordnetEN) })

func parseThesaurus(data string) *thesaurus {
	t := &thesaurus{data: data, forms: make(map[string]string, 2048), common: make(map[string]bool, 1<<15)}
	var stemLines []string
	for line := range strings.Lines(data) {
		switch {
		case strings.HasPrefix(line, "! "):
			for w := range strings.FieldsSeq(line[2:]) {
				t.common[w] = true
			}
		case strings.HasPrefix(line, "= "):
			if f := strings.Fields(line); len(f) == 3 {
				t.forms[f[1]] = f[2]
			}
		case strings.HasPrefix(line, "~ "):
			stemLines = append(stemLines, line[2:])
		}
	}
	// The stems come with the data (the generator stems the common
	// words as stem does, TestCommonStemsAreTheRulesStems): a process
	// reads them on first use instead of stemming 16,000 words.
	t.commonStems = sync.OnceValue(func() map[string]bool {
		stems := make(map[string]bool, 12*len(stemLines))
		for _, line := range stemLines {
			for st := range strings.FieldsSeq(line) {
				stems[st] = true
			}
		}
		return stems
	})
	return t
}

// group parses a synonym line: its lemmas with their ranks, and whether
// it is a derivational link ("rent" and "rental": one word's family,
// not two words). ok is false for a line that is no group of two
// lemmas or more.
func group(line string) (g []member, derived, ok bool) {
	line = strings.TrimSpace(line)
	if line == "" || line[0] == '#' || line[0] == '!' || line[0] == '=' || line[0] == '~' {
		return nil, false, false
	}
	line, derived = strings.CutPrefix(line, "+ ")
	for f := range strings.FieldsSeq(line) {
		dot := strings.LastIndexByte(f, '.')
		if dot <= 0 {
			continue
		}
		rank, err := strconv.Atoi(f[dot+1:])
		if err != nil || rank < 1 || rank > 127 {
			continue
		}
		g = append(g, member{f[:dot], int8(rank)})
	}
	return g, derived, len(g) >= 2
}

// isCommonWord reports whether a normalized word is a common English
// word, or a form of one (its stem is a common word's): a word, not a
// typo.
func (t *thesaurus) isCommonWord(w string) bool {
	return t.common[w] || t.common[t.forms[w]] || t.commonStems()[stem(w)]
}

// synonym is one word that shares a sense with a project's word: the
// sum of the two senses' ranks, and whether the two are one word's
// family (a derivational link) rather than synonyms. at is where the
// pair stands in the data (its line, then the two lemmas' places).
type synonym struct {
	word, other string
	rank        int
	derived     bool
	at          int
}

// synonymsOf lists, for each word of words, the words that share a
// sense with it, the word in a sense of rank at most wRank and the
// other in one of rank at most otherRank: by word, then in the data's
// order of groups and lemmas. One scan of the data serves every word;
// a line is only parsed when it names one of them.
func (t *thesaurus) synonymsOf(words map[string]bool, wRank, otherRank int8) []synonym {
	var out []synonym
	n := 0
	lead := leads(words)
	for line := range strings.Lines(t.data) {
		n++
		if !namesAny(line, words, lead) {
			continue
		}
		g, derived, ok := group(line)
		if !ok {
			continue
		}
		for i, w := range g {
			if !words[w.word] || w.rank > wRank {
				continue
			}
			for j, m := range g {
				if m.word != w.word && m.rank <= otherRank {
					out = append(out, synonym{w.word, m.word, int(w.rank) + int(m.rank), derived, (n << 16) | (i << 8) | j})
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b synonym) int {
		if c := strings.Compare(a.word, b.word); c != 0 {
			return c
		}
		return a.at - b.at
	})
	return out
}

// namesAny reports whether a line of the data has a lemma ("word.rank")
// that is one of words, without allocating. The data is ASCII, its
// fields separated by single spaces, and a lemma holds no dot. lead
// has, for each first byte, a bit for each length of words' words (63
// for longer): most lemmas are none of words by those alone, and are
// passed over without a lookup.
func namesAny(line string, words map[string]bool, lead *[256]uint64) bool {
	for i, n := 0, len(line); i < n; i++ {
		start := i
		for i < n && line[i] != '.' && line[i] != ' ' && line[i] != '\n' {
			i++
		}
		if i < n && line[i] == '.' && i > start && lead[line[start]]&(1<<min(i-start, 63)) != 0 && words[line[start:i]] {
			return true
		}
		for i < n && line[i] != ' ' {
			i++
		}
	}
	return false
}

// leads is namesAny's lead for words.
func leads(words map[string]bool) *[256]uint64 {
	var lead [256]uint64
	for w := range words {
		if w != "" {
			lead[w[0]] |= 1 << min(len(w), 63)
		}
	}
	return &lead
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
	asked := map[string]bool{}
	for w := range own {
		if !stopWords[w] && !genericWords[w] {
			asked[w] = true
		}
	}
	concepts := map[string]string{}
	for _, syn := range t.synonymsOf(asked, projectRank, messageRank) {
		c, ok := concepts[syn.word]
		if !ok {
			c = l.concept(syn.word)
			concepts[syn.word] = c
		}
		other, rank, derived := syn.other, syn.rank, syn.derived
		if own[other] || ownStems[stem(other)] || ownStems[other] || stopWords[other] || genericWords[other] || extraGeneric[other] {
			continue
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
