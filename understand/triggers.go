package understand

import (
	"errors"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"

	"github.com/soni-dev/soni/ir"
	lexdata "github.com/soni-dev/soni/lexicon"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// stopWords are the normalized English and Spanish words that carry no
// intent ("I want to", "quiero", "por favor"). Trigger matching compares
// the remaining content words.
var stopWords = lexdata.Set("stop_words")

// contentWords returns the distinct content words of a normalized text,
// sorted, appended to buf, and whether every word was a stop word. In that
// case it returns all the words, so that a phrase made only of stop words
// can still match.
func contentWords(norm string, buf []string) (words []string, allStop bool) {
	start := len(buf)
	for w := range strings.FieldsSeq(norm) {
		buf = append(buf, w)
	}
	all := buf[start:]
	n := 0
	for _, w := range all {
		if stopWords[w] {
			continue
		}
		// "wants", "needs": the stem of a stop word is one too.
		if st := stem(w); !stopWords[st] {
			all[n] = st
			n++
		}
	}
	if n == 0 {
		// Nothing was moved: all still holds every word.
		allStop = true
		n = len(all)
	}
	content := all[:n]
	sort.Strings(content)
	out := content[:0]
	for i, w := range content {
		if i == 0 || w != content[i-1] {
			out = append(out, w)
		}
	}
	return buf[start : start+len(out)], allStop
}

// stem maps the forms of a content word to one string, for trigger and
// message alike, with the Snowball stemmer of English
// (github.com/kljensen/snowball): "booking", "booked" and "books" are
// "book", "charge", "charged" and "charges" are "charg". The words are
// normalized (lower case, no accents). Spanish words lose their plural
// s the same way ("vuelos" is "vuelo"); the Spanish stemmer is not
// applied, because the rules do not know which language a word is in,
// and run after the English one it joins English words with Spanish
// ones they have nothing to do with ("case" and "caso"). A word of three
// letters or fewer stays as it is, and no stem is shorter than three
// letters.
func stem(w string) string {
	if len(w) <= 3 {
		return w
	}
	if s, ok := stemCache.Load(w); ok {
		return s.(string)
	}
	s := english.Stem(w, false)
	if len(s) < 3 {
		s = w
	}
	if stemCached.Add(1) <= maxStemCache {
		stemCache.Store(w, s)
	}
	return s
}

// stemCache holds the stems of the words seen, up to maxStemCache words:
// the trigger phrases' words and the common words of messages, so that
// a message's words are stemmed once.
var (
	stemCache  sync.Map
	stemCached atomic.Int64
)

const maxStemCache = 1 << 16

// allWords appends to dst the distinct words of a normalized text, sorted.
func allWords(dst []string, norm string) []string {
	words := appendWords(dst, norm, math.MaxInt)
	sort.Strings(words)
	out := words[:0]
	for i, w := range words {
		if i == 0 || w != words[i-1] {
			out = append(out, w)
		}
	}
	return out
}

// intersect counts the words two sorted distinct lists share.
func intersect(a, b []string) int {
	n, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			n++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return n
}

// triggerMatch is the best trigger match of a message.
type triggerMatch struct {
	flow   *flowRules
	score  float64
	strong bool
	// exact is true when the message equals the trigger phrase.
	exact bool
	// smallTalk is true when the phrase is small talk ("hello"): the
	// project's flow answers it, not the built-in chitchat; talk is the
	// kind of command the phrase reads as.
	smallTalk bool
	talk      vm.CommandKind
}

// bestTrigger scores every flow's triggers against a normalized message.
// An exact match scores 3; otherwise a match scores coverage + Jaccard
// (at most 2), where coverage is the share of the trigger's content words
// found in the message. The highest score wins; on a tie, the flow whose
// name sorts first. exactOK is false when the message was cut to MaxScan,
// so it cannot equal a trigger.
func (r *Rules) bestTrigger(norm string, exactOK bool) triggerMatch {
	var best triggerMatch
	if norm == "" || len(r.flows) == 0 {
		return best
	}
	var buf [32]string
	content, _ := contentWords(norm, buf[:0])
	var every []string // all the message's words, computed when needed
	var everyBuf [32]string
	for _, fr := range r.flows {
		for _, t := range fr.triggers {
			msgWords := content
			if t.allStop {
				if every == nil {
					every = allWords(everyBuf[:0], norm)
				}
				msgWords = every
			}
			var score float64
			strong, exact := false, false
			if exactOK && norm == t.norm {
				score, strong, exact = 3, true, true
			} else {
				inter := intersect(t.words, msgWords)
				if inter == 0 {
					continue
				}
				coverage := float64(inter) / float64(len(t.words))
				jaccard := float64(inter) / float64(len(t.words)+len(msgWords)-inter)
				if inter < len(t.words) && jaccard < matchJaccard {
					continue
				}
				score, strong = coverage+jaccard, jaccard >= strongJaccard
			}
			if score > best.score {
				best = triggerMatch{flow: fr, score: score, strong: strong, exact: exact, smallTalk: t.smallTalk, talk: t.talk}
			}
		}
	}
	return best
}

// fill recognises, in the message that starts a flow, values for the
// slots the flow collects: a categorical slot whose value or synonym is in
// the message, a list slot with the declared values the message names, and a text slot with a pattern that exactly one word of the
// message matches. A slot whose value is ambiguous, or that would get the
// same value as another slot, is left for the flow to ask.
func (r *Rules) fill(fr *flowRules, head string, view vm.View) []vm.SlotValue {
	var out []vm.SlotValue
	var words []string
	conv := view.Converter()
	for _, s := range slices.Concat(fr.slots, fr.callees) {
		if s.def == nil {
			continue
		}
		switch {
		case s.def.Type == ir.TypeList:
			// "a pizza with salami and onions": the values the opening
			// names. A list of any text is left for its question: the
			// opening does not say which of its words are the items.
			if len(s.def.Values) > 0 {
				if v, err := conv.Convert(s.def, head); err == nil {
					out = append(out, vm.SlotValue{Slot: s.name, Value: v})
				}
			}
		case s.def.Type == ir.TypeCategorical:
			if v, err := conv.Convert(s.def, head); err == nil {
				out = append(out, vm.SlotValue{Slot: s.name, Value: v})
			} else if errors.Is(err, values.ErrNoValue) {
				if v, ok := r.valueByStem(fr, s.def, head); ok {
					out = append(out, vm.SlotValue{Slot: s.name, Value: v})
				}
			}
		case s.def.Pattern != "" && typed(s.def):
			if words == nil {
				// The words that matched the trigger are no values.
				words = slices.DeleteFunc(strings.Fields(head), func(w string) bool {
					return fr.triggerValue(strings.Trim(w, ".,;:!?¿¡\"'()[]{}"), &ir.Slot{Type: ir.TypeText})
				})
			}
			if v, ok := patternWord(conv, s.def, words); ok {
				out = append(out, vm.SlotValue{Slot: s.name, Value: v})
			}
		default:
			// "remove @MaryLu" for "a handle starting with @".
			if w, ok := r.markedWord(s.def, head); ok {
				out = append(out, vm.SlotValue{Slot: s.name, Value: w})
			}
		}
	}
	// Numbers, dates and free text (slots.go), for the slots not filled.
	for _, sv := range r.openingValues(fr, head, view) {
		dup := false
		for _, o := range out {
			dup = dup || o.Slot == sv.Slot
		}
		if !dup {
			out = append(out, sv)
		}
	}
	// A word of the message that matched the flow's trigger is never a
	// slot value: "ask code twice" does not give a three-letter code
	// "ask", nor "collect two codes" the code "two".
	out = slices.DeleteFunc(out, func(sv vm.SlotValue) bool {
		return fr.triggerValue(sv.Value, r.defOf(fr, sv.Slot))
	})
	// Drop values recognised for two slots: the message does not say which.
	kept := out[:0]
	for i, sv := range out {
		dup := false
		for j, o := range out {
			if i != j && reflect.DeepEqual(o.Value, sv.Value) {
				dup = true
				break
			}
		}
		if !dup {
			kept = append(kept, sv)
		}
	}
	// "a room, not a suite": a negated value opens nothing (negation.go).
	kept = r.withoutNegated(fr, head, view, kept)
	// "my laptop won't turn on": the opening describes what the flow's
	// first free-text slot asks for (opening.go).
	if sv, ok := r.openingText(fr, head, kept); ok {
		kept = append(kept, sv)
	}
	if len(kept) == 0 {
		return nil
	}
	return kept
}

// defOf is the definition of a slot the flow (or a flow it calls)
// collects, or nil.
func (r *Rules) defOf(fr *flowRules, name string) *ir.Slot {
	for _, s := range slices.Concat(fr.slots, fr.callees) {
		if s.name == name {
			return s.def
		}
	}
	return nil
}

// triggerValue reports whether a value read for a text slot is made only
// of words of the flow's trigger phrases (compared by stem): the words
// that started the flow, not a value. Categorical values stay: "show my
// savings balance" names the account in a phrase of the flow.
func (fr *flowRules) triggerValue(val any, def *ir.Slot) bool {
	str, ok := val.(string)
	if !ok || def == nil || (def.Type != ir.TypeText && def.Type != ir.TypeAny) {
		return false
	}
	words := strings.Fields(values.Normalize(str))
	if len(words) == 0 {
		return false
	}
	for _, w := range words {
		st := stem(w)
		found := false
		for _, t := range fr.triggers {
			if slices.Contains(t.words, st) || slices.Contains(t.fields, w) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// patternWord returns the one distinct word of the message that converts
// to the slot (its pattern matches it in full), trimmed of surrounding
// punctuation.
func patternWord(conv values.Converter, def *ir.Slot, words []string) (any, bool) {
	var found any
	for _, w := range words {
		w = strings.Trim(w, ".,;:!?¿¡\"'()[]{}")
		if w == "" {
			continue
		}
		v, err := conv.Convert(def, w)
		if err != nil {
			continue
		}
		if found != nil && found != v {
			return nil, false
		}
		found = v
	}
	if found == nil {
		// A code typed in two parts, letters then digits ("ticket t
		// 10001"); never digits alone, which may be a number written
		// in groups ("send 100 000").
		for i := 0; i+1 < len(words); i++ {
			a, b := strings.Trim(words[i], ".,;:!?¿¡\"'()[]{}#"), strings.Trim(words[i+1], ".,;:!?¿¡\"'()[]{}")
			if a == "" || b == "" || !allLetters(a) || !allDigits(b) {
				continue
			}
			v, err := conv.Convert(def, a+" "+b)
			if err != nil {
				continue
			}
			if found != nil && found != v {
				return nil, false
			}
			found = v
		}
	}
	return found, found != nil
}

func allLetters(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// withoutNames drops the proper names of an example phrase ("How do I add
// John to my contacts?"): a capitalised word that does not start the
// phrase or a sentence, in a phrase written in sentence case. Like a
// placeholder, a name stands for any value: it is no word of the flow.
// Words in capitals ("PIN", "ATM") and the pronoun I are kept.
func withoutNames(phrase string) string {
	fields := strings.Fields(phrase)
	if len(fields) < 3 {
		return phrase
	}
	lower := 0
	for _, f := range fields {
		if r, _ := utf8.DecodeRuneInString(strings.TrimLeft(f, "\"'(¿¡")); unicode.IsLower(r) {
			lower++
		}
	}
	if lower*2 < len(fields) {
		// Title Case: every word is capitalised, none is a name.
		return phrase
	}
	out := make([]string, 0, len(fields))
	start := true
	for _, f := range fields {
		core := strings.TrimLeft(f, "\"'(¿¡")
		if !start && properName(core) {
			out = append(out, strings.Map(func(r rune) rune {
				if unicode.IsLetter(r) || unicode.IsDigit(r) {
					return -1
				}
				return r
			}, f))
		} else {
			out = append(out, f)
		}
		t := strings.TrimRight(f, "\"')")
		start = strings.HasSuffix(t, ".") || strings.HasSuffix(t, "!") || strings.HasSuffix(t, "?") || strings.HasSuffix(t, ":")
	}
	return strings.Join(out, " ")
}

// properName reports whether a word is written as a name: a capital,
// then small letters ("John", "Ana's"), never the pronoun I ("I'm").
func properName(w string) bool {
	r, size := utf8.DecodeRuneInString(w)
	if !unicode.IsUpper(r) {
		return false
	}
	rest := w[size:]
	if rest == "" || rest[0] == '\'' || strings.HasPrefix(rest, "’") {
		return false
	}
	small := 0
	for _, c := range rest {
		switch {
		case unicode.IsUpper(c) || unicode.IsDigit(c):
			return false
		case unicode.IsLower(c):
			small++
		}
	}
	return small > 0
}

// valueByStem finds the one categorical value a message names in another
// form of one of its words: "charged" for the synonym "charge",
// "refunded" for "refund". Values and synonyms of several words are
// left to the conversion, and so are the words of the flow's own phrases
// ("check" of "check my balance" is not the account "checking").
func (r *Rules) valueByStem(fr *flowRules, def *ir.Slot, head string) (string, bool) {
	var own map[string]bool
	if r.mean != nil && r.mean.flows[fr.name] != nil {
		own = r.mean.flows[fr.name].stems
	}
	msg := map[string]bool{}
	for w := range strings.FieldsSeq(values.Normalize(head)) {
		// "charging" shares a stem with "charge" and no sense
		// (stemsense.go).
		if st := stem(w); !stopWords[w] && !own[st] && r.keepsSense(w) {
			msg[st] = true
		}
	}
	found := ""
	for _, v := range def.Values {
		names := append([]string{strings.ReplaceAll(v.Value, "_", " "), v.Label}, v.Synonyms...)
		for _, n := range names {
			n = values.Normalize(n)
			if n == "" || strings.Contains(n, " ") || stopWords[n] || !msg[stem(n)] {
				continue
			}
			if found != "" && found != v.Value {
				return "", false
			}
			found = v.Value
		}
	}
	return found, found != ""
}
