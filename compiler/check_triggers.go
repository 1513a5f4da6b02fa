package compiler

import (
	"strings"
	"unicode"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/syntax"
)

// check_triggers reports a trigger phrase that two flows share (E037): the
// understanding layer could not tell which flow the message starts.
// Phrases are compared as the understanding layer reads them (see
// triggerKey). The report sits at the later phrase and cites the first;
// the same phrase twice in one flow is harmless and not reported, nor is a
// phrase of a flow defined twice (E020 reports that). A phrase with no
// words (empty, or only punctuation) can never match: E014.
func checkTriggers(c *checker) {
	type first struct {
		flow *syntax.Flow
		pos  diag.Pos
	}
	seen := map[string]first{}
	type flowKey struct {
		flow *syntax.Flow
		key  string
	}
	reported := map[flowKey]bool{}
	for _, f := range c.p.Flows {
		for _, t := range f.Triggers {
			key := triggerKey(t.V)
			if key == "" {
				c.ds.Add(t.Pos, diag.CodeInvalidValue, t.Path,
					"trigger phrase %q of flow %q has no words, so no message can match it: write an example of what users say, or remove it", t.V, f.Name.V)
				continue
			}
			prev, ok := seen[key]
			if !ok {
				seen[key] = first{f, t.Pos}
				continue
			}
			// Two flows of one name are a duplicate definition (E020)
			// already; their phrases are not also reported.
			if prev.flow == f || prev.flow.Name.V == f.Name.V || reported[flowKey{f, key}] {
				continue
			}
			reported[flowKey{f, key}] = true
			c.ds.Add(t.Pos, diag.CodeDuplicateTrigger, t.Path,
				"trigger phrase %q of flow %q is already a trigger of flow %q at %s: keep each phrase in one flow only", t.V, f.Name.V, prev.flow.Name.V, prev.pos)
		}
	}
}

// triggerKey normalises a trigger phrase for comparison: lower-cased, with
// the accents of Latin letters stripped, apostrophes dropped, every other
// punctuation mark or symbol read as a space, and runs of spaces collapsed,
// none at either end.
func triggerKey(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r == '\'' || r == '’' || r == '`':
			continue
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			if plain, ok := accentFold[r]; ok {
				b.WriteString(plain)
			} else {
				b.WriteRune(r)
			}
		case unicode.IsMark(r):
			// A combining accent: drop it.
		default:
			space = true
		}
	}
	return b.String()
}

// accentFold maps lower-case accented Latin letters to their plain form.
var accentFold = func() map[rune]string {
	m := map[rune]string{}
	for _, p := range [...]struct{ from, to string }{
		{"àáâãäåāăą", "a"}, {"çćĉċč", "c"}, {"ďđ", "d"}, {"èéêëēĕėęě", "e"},
		{"ĝğġģ", "g"}, {"ĥħ", "h"}, {"ìíîïĩīĭįı", "i"}, {"ĵ", "j"}, {"ķ", "k"},
		{"ĺļľŀł", "l"}, {"ñńņňŉ", "n"}, {"òóôõöøōŏő", "o"}, {"ŕŗř", "r"},
		{"śŝşš", "s"}, {"ţťŧ", "t"}, {"ùúûüũūŭůűų", "u"}, {"ŵ", "w"},
		{"ýÿŷ", "y"}, {"źżž", "z"}, {"ß", "ss"}, {"æ", "ae"}, {"œ", "oe"},
	} {
		for _, r := range p.from {
			m[r] = p.to
		}
	}
	return m
}()
