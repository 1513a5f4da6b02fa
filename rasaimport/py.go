package rasaimport

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// pyAction is what the importer learns about one custom action from the
// Python source of the project's action server. It reads the source as
// text, with a few patterns, never runs it: the slots the action sets
// with SlotSet("name", ...), the slots it reads with
// tracker.get_slot("name"), and whether it sends messages.
type pyAction struct {
	name string
	at   loc
	// sets and reads are slot names, sorted, without duplicates.
	sets, reads []string
	// dynamicSet is true when a SlotSet's slot name is not a literal.
	dynamicSet bool
	// messages is true when the action calls dispatcher.utter_message.
	messages bool
	// responses are the response names it sends (utter_message(response=...)).
	responses []string
}

var (
	pyClass = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^class\s+([A-Za-z_][A-Za-z0-9_]*)`) })
	pyName  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`def\s+name\s*\(\s*self\s*\)[^:]*:\s*(?:#[^\n]*)?\n(?:\s*(?:#[^\n]*|"""[^"]*"""|'''[^']*''')?\n)*\s*return\s+["']([^"']+)["']`)
	})
	pySlotSet = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`SlotSet\(\s*(?:key\s*=\s*)?(["']([^"']+)["']|[A-Za-z_])`)
	})
	pyGetSlot = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:get_slot\(\s*|slots\.get\(\s*|slots\[\s*)["']([^"']+)["']`)
	})
	pyUtter     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`utter_message\(`) })
	pyResponse  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:response|template)\s*=\s*["']([^"']+)["']`) })
	pyValidator = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`def\s+validate_([A-Za-z_][A-Za-z0-9_]*)\s*\(`) })
)

// scanPython reads the classes of one Python file and returns the custom
// actions it defines, by name. Form validation classes (validate_<slot>
// methods) are returned too, with their slots as sets.
func scanPython(file string, src string) []*pyAction {
	lines := strings.Split(src, "\n")
	type class struct {
		start int
		body  string
	}
	var classes []class
	for i, l := range lines {
		if pyClass().MatchString(l) {
			classes = append(classes, class{start: i})
		}
	}
	for k := range classes {
		end := len(lines)
		if k+1 < len(classes) {
			end = classes[k+1].start
		}
		classes[k].body = strings.Join(lines[classes[k].start:end], "\n")
	}
	var out []*pyAction
	for _, c := range classes {
		m := pyName().FindStringSubmatch(c.body)
		if m == nil {
			continue
		}
		a := &pyAction{name: m[1], at: loc{file, c.start + 1}}
		for _, s := range pySlotSet().FindAllStringSubmatch(c.body, -1) {
			if s[2] != "" {
				a.sets = append(a.sets, s[2])
			} else {
				a.dynamicSet = true
			}
		}
		for _, s := range pyValidator().FindAllStringSubmatch(c.body, -1) {
			a.sets = append(a.sets, s[1])
		}
		for _, s := range pyGetSlot().FindAllStringSubmatch(c.body, -1) {
			a.reads = append(a.reads, s[1])
		}
		a.messages = pyUtter().MatchString(c.body)
		for _, s := range pyResponse().FindAllStringSubmatch(c.body, -1) {
			a.responses = append(a.responses, s[1])
		}
		slices.Sort(a.sets)
		a.sets = slices.Compact(a.sets)
		slices.Sort(a.reads)
		a.reads = slices.Compact(a.reads)
		slices.Sort(a.responses)
		a.responses = slices.Compact(a.responses)
		out = append(out, a)
	}
	return out
}
