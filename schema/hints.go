package schema

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// frameworkKeys are keys of the Python Soni framework that soni has no key
// for at the same place, with what to do instead. They are keyed by the
// $defs entry of the mapping and the key.
var frameworkKeys = map[[2]string]string{
	{"slot", "prompt"}:             `a slot's question is asked by the collect step: move the text to that step's "message"`,
	{"flowSlot", "prompt"}:         `a slot's question is asked by the collect step: move the text to that step's "message"`,
	{"confirmStep", "max_retries"}: `a confirm asks again until it gets a yes or a no, or the user cancels or digresses: remove "max_retries"`,
}

// frameworkKey returns the advice for a Python-framework key at a place of
// the schema, or "".
func frameworkKey(def, name string) string {
	return frameworkKeys[[2]string{def, name}]
}

var plainName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`) })

// shapeHint says how to write a value of the wrong shape in the shape the
// language wants: a single value where a list belongs, a flow's slots
// written as a mapping, a trigger written as a list of phrases. It returns
// "" when it has no advice. want are the schema types, tokens the value's
// location, item whether the value is a list item.
func shapeHint(want []string, tokens []string, item bool, inst any) string {
	if len(tokens) == 0 || item || len(want) != 1 {
		return ""
	}
	field := tokens[len(tokens)-1]
	switch want[0] {
	case "array":
		switch x := inst.(type) {
		case string:
			v := strconv.Quote(x)
			if plainName().MatchString(x) {
				v = x
			}
			return fmt.Sprintf("write a list, even for one item: %s: [%s]", field, v)
		case int64, uint64, float64, bool:
			return fmt.Sprintf("write a list, even for one item: %s: [%v]", field, x)
		case map[string]any:
			if field == "slots" && len(tokens) == 3 && tokens[0] == "flows" {
				return `a flow's "slots" is a list of definitions with a name, such as "- {name: ` + firstKey(x, "origin") + `, type: text}"; the mapping from names to definitions is the top-level "slots"`
			}
		}
	case "object":
		if _, ok := inst.([]any); !ok {
			return ""
		}
		switch {
		case field == "trigger":
			return `put the phrases under "intents": trigger: {intents: [...]}`
		case field == "cases":
			return `write the cases as a mapping from pattern to step id, without "-": cases: {">100": big, default: small}`
		case field == "map_outputs":
			return `map each output key of the action to a slot: map_outputs: {balance: account_balance}`
		case field == "slots" && len(tokens) == 1:
			return `the top-level "slots" maps each name to its definition: "amount: {type: number}"; a list of "- name: ..." items belongs in a flow`
		case field == "slots":
			return `a set step maps each slot to its value: slots: {amount: 0, recipient: null}`
		case field == "flows" && len(tokens) == 1:
			return `"flows" maps each flow name to its definition: "flows: {book_flight: {steps: [...]}}"`
		}
	}
	return ""
}

// firstKey returns the lexically first key of m, or def when m is empty.
func firstKey(m map[string]any, def string) string {
	first := ""
	for k := range m {
		if first == "" || k < first {
			first = k
		}
	}
	if first == "" || !plainName().MatchString(first) {
		return def
	}
	return strings.TrimSpace(first)
}
