package values

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/lexicon"
	"github.com/soni-dev/soni/tmpl"
)

// ErrTooFewItems means a list answer has fewer items than the slot's
// min_items. It is an ErrInvalid.
var ErrTooFewItems = fmt.Errorf("%w: fewer items than min_items", ErrInvalid)

// ErrTooManyItems means a list answer has more items than the slot's
// max_items. It is an ErrInvalid.
var ErrTooManyItems = fmt.Errorf("%w: more items than max_items", ErrInvalid)

// itemSeparator splits a free-text list answer into its items: commas,
// semicolons, new lines, "&", "+", and the words "and" and "plus" between
// two items ("Ana, Bob and Carla"): the lexicon's item_separators.
var itemSeparator = func() *regexp.Regexp {
	words := lexicon.Get("item_separators")
	for i, w := range words {
		words[i] = regexp.QuoteMeta(w)
	}
	return regexp.MustCompile(`(?i)\s*(?:[,;\n&+]|\b(?:` + strings.Join(words, "|") + `)\b)\s*`)
}()

// toList converts raw to a list slot's value: a []any of strings, each a
// canonical value when the slot declares values, in the order given,
// without repeats, and checks min_items and max_items.
//
// A list (a set literal, an action's output, a command's value) converts
// item by item. Text is one answer: with values, every value whose
// value, label or synonym occurs in it as a whole word or phrase is an
// item ("salami and champignons please" is [pepperoni, mushrooms]),
// longer phrases winning as for a categorical slot; without values, the
// text is split at commas and "and" ("Ana, Bob and Carla"), and each item
// must match the slot's pattern when it has one.
func toList(slot *ir.Slot, raw any) (any, error) {
	var items []string
	var err error
	switch x := raw.(type) {
	case nil:
		return nil, errorf(ErrNoValue, "no value was given")
	case []any:
		items, err = listItems(slot, x)
	case []string:
		all := make([]any, len(x))
		for i, s := range x {
			all[i] = s
		}
		items, err = listItems(slot, all)
	case map[string]any:
		return nil, errorf(ErrNoValue, "%q is not a list", quoted(tmpl.Format(x)))
	default:
		s, ok := raw.(string)
		if !ok {
			s = tmpl.Format(raw)
		}
		if len(slot.Values) > 0 {
			items, err = valuesIn(slot, s)
		} else {
			items, err = textItems(slot, s)
		}
	}
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, errorf(ErrNoValue, "no items were given")
	}
	if slot.MinItems > 0 && len(items) < slot.MinItems {
		return nil, errorf(ErrTooFewItems, "%q has %s, fewer than %d", quoted(strings.Join(items, ", ")), itemCount(len(items)), slot.MinItems)
	}
	if slot.MaxItems > 0 && len(items) > slot.MaxItems {
		return nil, errorf(ErrTooManyItems, "%q has %s, more than %d", quoted(strings.Join(items, ", ")), itemCount(len(items)), slot.MaxItems)
	}
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = it
	}
	return out, nil
}

// itemCount says how many items there are: "1 item", "4 items".
func itemCount(n int) string {
	if n == 1 {
		return "1 item"
	}
	return fmt.Sprintf("%d items", n)
}

// listItems converts the items of a list value one by one.
func listItems(slot *ir.Slot, raw []any) ([]string, error) {
	item := &ir.Slot{Name: slot.Name, Type: ir.TypeText, Values: slot.Values, Pattern: slot.Pattern}
	if len(slot.Values) > 0 {
		item.Type = ir.TypeCategorical
	}
	var items []string
	for _, r := range raw {
		switch r.(type) {
		case []any, map[string]any:
			return nil, errorf(ErrNoValue, "%q is not a list of single values", quoted(tmpl.Format(raw)))
		}
		v, err := Convert(item, r)
		if err != nil {
			return nil, err
		}
		if s := v.(string); s != "" {
			items = appendNew(items, s)
		}
	}
	return items, nil
}

// valuesIn finds, in the order they are written, the declared values that
// a text names.
func valuesIn(slot *ir.Slot, s string) ([]string, error) {
	s = strings.TrimSpace(s)
	one := &ir.Slot{Name: slot.Name, Type: ir.TypeCategorical, Values: slot.Values}
	// A whole message that is one value, label or synonym is that value,
	// even when it holds the words of another ("premium economy").
	if v, err := toCategorical(one, s); err == nil {
		if whole(slot, s) {
			return []string{v.(string)}, nil
		}
	}
	spans := valueSpans(slot, Normalize(s), Normalize)
	// first is where each value is first named, so that the items keep
	// the order the user gave them.
	first := map[int]int{}
	for _, sp := range spans {
		if at, ok := first[sp.value]; !ok || sp.start < at {
			first[sp.value] = sp.start
		}
	}
	matched := matchedValues(spans)
	if len(matched) == 0 {
		names := make([]string, len(slot.Values))
		for i, v := range slot.Values {
			names[i] = v.Value
		}
		return nil, errorf(ErrNoValue, "%q names none of %s", quoted(s), strings.Join(names, ", "))
	}
	sort.SliceStable(matched, func(i, j int) bool { return first[matched[i]] < first[matched[j]] })
	items := make([]string, len(matched))
	for i, vi := range matched {
		items[i] = slot.Values[vi].Value
	}
	return items, nil
}

// whole reports whether s is, in full, one value, label or synonym of the
// slot.
func whole(slot *ir.Slot, s string) bool {
	msg := Normalize(s)
	for _, v := range slot.Values {
		if s == v.Value || Normalize(v.Value) == msg || (v.Label != "" && Normalize(v.Label) == msg) {
			return true
		}
		for _, syn := range v.Synonyms {
			if Normalize(syn) == msg {
				return true
			}
		}
	}
	return false
}

// textItems splits a free-text answer into its items.
func textItems(slot *ir.Slot, s string) ([]string, error) {
	item := &ir.Slot{Name: slot.Name, Type: ir.TypeText, Pattern: slot.Pattern}
	var items []string
	for _, part := range itemSeparator.Split(s, -1) {
		part = strings.Trim(part, " \t.!?")
		if part == "" {
			continue
		}
		v, err := toText(item, part)
		if err != nil {
			return nil, err
		}
		items = appendNew(items, v.(string))
	}
	return items, nil
}

// appendNew appends s unless items already holds it.
func appendNew(items []string, s string) []string {
	for _, it := range items {
		if it == s {
			return items
		}
	}
	return append(items, s)
}
