package values

import (
	"sort"
	"strings"
	"unicode"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/tmpl"
)

// span is where a phrase of one categorical value occurs in a normalized
// message: bytes [start, end) and the index of the value.
type span struct{ start, end, value int }

// toCategorical finds the slot's one canonical value in raw. A value, its
// label or a synonym matches when it equals the whole message, or occurs in it as a
// whole word or phrase, comparing normalized forms (case, accents and
// punctuation do not matter). A match inside a longer match of another
// value does not count ("premium economy" is premium_economy, not also
// economy). Two different values are ambiguous.
func toCategorical(slot *ir.Slot, raw any) (any, error) {
	if raw == nil {
		return nil, errorf(ErrNoValue, "no value was given")
	}
	s, ok := raw.(string)
	if !ok {
		s = tmpl.Format(raw)
	}
	s = strings.TrimSpace(s)
	for _, v := range slot.Values {
		if s == v.Value {
			return v.Value, nil
		}
	}
	msg := Normalize(s)
	if msg != "" {
		// The whole message first: it is never ambiguous.
		for _, v := range slot.Values {
			if Normalize(v.Value) == msg || (v.Label != "" && Normalize(v.Label) == msg) {
				return v.Value, nil
			}
			for _, syn := range v.Synonyms {
				if Normalize(syn) == msg {
					return v.Value, nil
				}
			}
		}
		matched := matchedValues(valueSpans(slot, msg, Normalize))
		if len(matched) == 0 && (strings.Contains(s, "-") || hyphenated(slot)) {
			// "Wi-Fi" is "wifi", "e-mail" "email": the words a hyphen
			// joins, written as one.
			matched = matchedValues(valueSpans(slot, Normalize(unhyphenated(s)), func(p string) string { return Normalize(unhyphenated(p)) }))
		}
		switch len(matched) {
		case 1:
			return slot.Values[matched[0]].Value, nil
		case 0:
		default:
			names := make([]string, len(matched))
			for i, vi := range matched {
				names[i] = slot.Values[vi].Value
			}
			return nil, errorf(ErrAmbiguous, "%q could be %s", quoted(s), orList(names))
		}
	}
	names := make([]string, len(slot.Values))
	for i, v := range slot.Values {
		names[i] = v.Value
	}
	if len(names) == 0 {
		return nil, errorf(ErrNoValue, "%q is not an allowed value", quoted(s))
	}
	return nil, errorf(ErrNoValue, "%q is not one of %s", quoted(s), strings.Join(names, ", "))
}

// valueSpans are the spans of the slot's values, labels and synonyms in
// a normalized message, each phrase normalized by norm.
func valueSpans(slot *ir.Slot, msg string, norm func(string) string) []span {
	var spans []span
	for vi, v := range slot.Values {
		spans = appendSpans(spans, msg, norm(v.Value), vi)
		if v.Label != "" {
			spans = appendSpans(spans, msg, norm(v.Label), vi)
		}
		for _, syn := range v.Synonyms {
			spans = appendSpans(spans, msg, norm(syn), vi)
		}
	}
	return spans
}

// hyphenated reports whether a value, label or synonym of the slot has a
// hyphen.
func hyphenated(slot *ir.Slot) bool {
	for _, v := range slot.Values {
		if strings.Contains(v.Value, "-") || strings.Contains(v.Label, "-") {
			return true
		}
		for _, syn := range v.Synonyms {
			if strings.Contains(syn, "-") {
				return true
			}
		}
	}
	return false
}

// unhyphenated drops the hyphens between two letters or digits: "Wi-Fi"
// is "WiFi".
func unhyphenated(s string) string {
	if !strings.Contains(s, "-") {
		return s
	}
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		if r == '-' && i > 0 && i+1 < len(rs) && letterOrDigit(rs[i-1]) && letterOrDigit(rs[i+1]) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func letterOrDigit(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// appendSpans appends every whole-word occurrence of phrase in msg.
func appendSpans(spans []span, msg, phrase string, value int) []span {
	if phrase == "" {
		return spans
	}
	for from := 0; from+len(phrase) <= len(msg); {
		k := strings.Index(msg[from:], phrase)
		if k < 0 {
			break
		}
		start := from + k
		end := start + len(phrase)
		if (start == 0 || msg[start-1] == ' ') && (end == len(msg) || msg[end] == ' ') {
			spans = append(spans, span{start, end, value})
		}
		from = start + 1
	}
	return spans
}

// matchedValues returns, in declaration order, the values with at least
// one span that is not inside a span of a different value. It sorts the
// spans by start (longest first) and sweeps them, remembering the two
// furthest-reaching spans of different values seen so far, so the work is
// O(n log n) in the number of spans.
func matchedValues(spans []span) []int {
	if len(spans) == 0 {
		return nil
	}
	sort.Slice(spans, func(i, j int) bool {
		if spans[i].start != spans[j].start {
			return spans[i].start < spans[j].start
		}
		if spans[i].end != spans[j].end {
			return spans[i].end > spans[j].end
		}
		return spans[i].value < spans[j].value
	})
	// best and second are the furthest-reaching spans seen so far, of two
	// different values; among spans that reach equally far, the first seen
	// (the one that starts earliest) is kept.
	best, second := span{-1, -1, -1}, span{-1, -1, -1}
	kept := map[int]bool{}
	for _, sp := range spans {
		other := best
		if best.value == sp.value {
			other = second
		}
		// sp is inside other unless other ends first, or the two are the
		// same words (the same phrase for two values: both count).
		inside := other.value >= 0 && (other.end > sp.end || (other.end == sp.end && other.start < sp.start))
		if !inside {
			kept[sp.value] = true
		}
		switch {
		case sp.value == best.value:
			if sp.end > best.end {
				best = sp
			}
		case sp.end > best.end:
			second, best = best, sp
		case sp.end > second.end:
			second = sp
		}
	}
	out := make([]int, 0, len(kept))
	for vi := range kept {
		out = append(out, vi)
	}
	sort.Ints(out)
	return out
}

// orList joins names as "a, b or c".
func orList(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
