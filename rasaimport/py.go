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
	// setPatterns match the names of the slots its SlotSets with an
	// f-string name may set (f"{slot}_readable": a name ending in
	// _readable); a name with no literal part gives none.
	setPatterns []*regexp.Regexp
	// setTemplates are those f-string names as written ("{slot}_readable").
	setTemplates []string
	// class and bases are its Python class and the classes it derives
	// from, by name: a class that inherits its run from another sets
	// what that one sets.
	class string
	bases []string
	// messages is true when the action calls dispatcher.utter_message.
	messages bool
	// responses are the response names it sends (utter_message(response=...)).
	responses []string
}

var (
	pyClass = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^class\s+([A-Za-z_][A-Za-z0-9_]*)\s*(?:\(([^)]*)\))?`)
	})
	pyName = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`def\s+name\s*\(\s*self\s*\)[^:]*:\s*(?:#[^\n]*)?\n(?:\s*(?:#[^\n]*|"""[^"]*"""|'''[^']*''')?\n)*\s*return\s+["']([^"']+)["']`)
	})
	pySlotSet = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`SlotSet\(\s*(?:key\s*=\s*)?(f["']([^"']*)["']|["']([^"']+)["']|[A-Za-z_])`)
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
		if cm := pyClass().FindStringSubmatch(lines[c.start]); cm != nil {
			a.class = cm[1]
			for _, b := range strings.Split(cm[2], ",") {
				if b = strings.TrimSpace(b); b != "" {
					a.bases = append(a.bases, b)
				}
			}
		}
		for _, s := range pySlotSet().FindAllStringSubmatch(c.body, -1) {
			switch {
			case s[3] != "":
				a.sets = append(a.sets, s[3])
			case strings.HasPrefix(s[1], "f"):
				a.dynamicSet = true
				if re := fstringPattern(s[2]); re != nil {
					a.setPatterns = append(a.setPatterns, re)
				}
				a.setTemplates = append(a.setTemplates, s[2])
			default:
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

// fstringPattern turns an f-string slot name into a pattern of the names
// it can make: its literal parts, any name part for each {...}. A name
// with no literal part (f"{slot}") gives nil: it matches every slot.
func fstringPattern(f string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	literal := false
	for f != "" {
		i := strings.IndexByte(f, '{')
		if i < 0 {
			b.WriteString(regexp.QuoteMeta(f))
			literal = true
			break
		}
		if i > 0 {
			b.WriteString(regexp.QuoteMeta(f[:i]))
			literal = true
		}
		j := strings.IndexByte(f[i:], '}')
		if j < 0 {
			return nil
		}
		b.WriteString("[A-Za-z0-9_]+")
		f = f[i+j+1:]
	}
	if !literal {
		return nil
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil
	}
	return re
}

// inherit gives each action the slots its base classes set (a class that
// inherits its run from another, across the files of the action server),
// following the chain of bases.
func inherit(actions map[string]*pyAction) {
	byClass := map[string]*pyAction{}
	for _, a := range actions {
		if a.class != "" {
			byClass[a.class] = a
		}
	}
	for _, a := range actions {
		seen := map[string]bool{a.class: true}
		queue := slices.Clone(a.bases)
		for len(queue) > 0 {
			b := byClass[queue[0]]
			queue = queue[1:]
			if b == nil || seen[b.class] {
				continue
			}
			seen[b.class] = true
			a.sets = append(a.sets, b.sets...)
			a.setPatterns = append(a.setPatterns, b.setPatterns...)
			a.setTemplates = append(a.setTemplates, b.setTemplates...)
			a.dynamicSet = a.dynamicSet || b.dynamicSet
			queue = append(queue, b.bases...)
		}
		slices.Sort(a.sets)
		a.sets = slices.Compact(a.sets)
	}
}

// fillTemplate writes an f-string name with every {...} replaced by v.
func fillTemplate(f, v string) string {
	var b strings.Builder
	for f != "" {
		i := strings.IndexByte(f, '{')
		j := strings.IndexByte(f, '}')
		if i < 0 || j < i {
			b.WriteString(f)
			break
		}
		b.WriteString(f[:i])
		b.WriteString(v)
		f = f[j+1:]
	}
	return b.String()
}
