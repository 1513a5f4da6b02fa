package rasaimport

import (
	"regexp"
	"strings"
	"sync"

	"github.com/soni-dev/soni/ir"
)

// Rasa says a response written with `metadata: {template: jinja}` through
// Jinja: {{ expression }}, {% statement %} and {# comment #}. soni's
// templates have {slot} and {slot.field} references only, so the import
// translates each Jinja expression that is a reference (a slot, slots.x,
// context.x, with a join(', ') of a list) into one, and reports each
// construct it cannot (a statement, another filter, a method call): that
// one is written as text, where the user would see it, until a person
// rewrites it.

// jinjaPart matches one Jinja construct: an expression, a statement or a
// comment.
var jinjaPart = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?s)\{\{(.*?)\}\}|\{%(.*?)%\}|\{#.*?#\}`)
})

// jinjaPath is a reference: names joined by dots.
var jinjaPath = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)
})

// jinjaJoin is Jinja's join filter with the separator soni writes between
// the items of a list (", ").
var jinjaJoin = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^join\(\s*(?:', '|", ")\s*\)$`)
})

// jinja translates a response text written in Jinja into a soni template
// (see above). flow, when not "", is the flow the text is said in.
func (im *importer) jinja(t, flow, response string, at loc, out string) string {
	var b strings.Builder
	last := 0
	for _, m := range jinjaPart().FindAllStringSubmatchIndex(t, -1) {
		b.WriteString(escapeTemplate(t[last:m[0]]))
		last = m[1]
		whole := t[m[0]:m[1]]
		switch {
		case m[2] >= 0:
			if ref, ok := im.jinjaRef(t[m[2]:m[3]], flow); ok {
				b.WriteString("{" + ref + "}")
				continue
			}
			im.rep.add(at, "response", StatusManual, out, "write it as a {slot} reference, or as variations with conditions",
				"response %q: the Jinja expression %s is no slot reference soni's templates can write: the import writes it as text", response, whole)
		case m[4] >= 0:
			im.rep.add(at, "response", StatusManual, out, "write one variation per case, with a condition on the slots",
				"response %q: the Jinja statement %s has no equivalent in soni's templates: the import writes it as text", response, whole)
		default:
			continue // a comment says nothing
		}
		b.WriteString(escapeTemplate(whole))
	}
	b.WriteString(escapeTemplate(t[last:]))
	return b.String()
}

// jinjaRef translates a Jinja expression into the reference of a soni
// template (without braces): slots.x and a slot's name are the slot;
// context.x is the pattern's context slot x, when soni's patterns have
// one; the keys and the values of context.corrected_slots, joined, are
// the corrected slots' labels (the context's corrected_slot_labels) and
// their new values.
func (im *importer) jinjaRef(expr, flow string) (string, bool) {
	parts := strings.Split(expr, "|")
	base := strings.TrimSpace(parts[0])
	switch base {
	case "context.corrected_slots.keys()":
		base = "context.corrected_slot_labels"
	case "context.corrected_slots.values()":
		base = "new_slot_values"
	default:
		if !jinjaPath().MatchString(base) {
			return "", false
		}
		base = im.jinjaPathRef(base, flow)
		if base == "" {
			return "", false
		}
	}
	for _, f := range parts[1:] {
		// join(', ') is how soni shows a list anyway.
		if !jinjaJoin().MatchString(strings.TrimSpace(f)) {
			return "", false
		}
	}
	return base, true
}

// jinjaPathRef translates a dotted name: "" when it is no slot soni can
// show in flow.
func (im *importer) jinjaPathRef(path, flow string) string {
	head, rest, _ := strings.Cut(path, ".")
	switch head {
	case "slots":
		head, rest, _ = strings.Cut(rest, ".")
	case ir.ContextSlot:
		if rest == "" {
			return ""
		}
		name, field, _ := strings.Cut(rest, ".")
		if isPatternSlot(name) {
			return joinPath(name, field)
		}
		return "" // a key of Rasa's context that soni's patterns lack
	}
	if head == "" || im.slots[head] == nil || (flow != "" && !im.visible(head, flow)) {
		return ""
	}
	return joinPath(head, rest)
}

// isPatternSlot reports whether some pattern has a context slot name.
func isPatternSlot(name string) bool {
	for _, slots := range ir.PatternSlots {
		for _, s := range slots {
			if s.Name == name {
				return true
			}
		}
	}
	return false
}

func joinPath(name, field string) string {
	if field == "" {
		return name
	}
	return name + "." + field
}
