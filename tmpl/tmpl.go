// Package tmpl parses and renders message templates: literal text with
// {slot} and {slot.field} references, and {{ and }} for literal braces.
// The compiler uses it to check templates, the VM to render them.
package tmpl

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Part is one piece of a template: literal text, or a reference to a slot
// with an optional field path.
type Part struct {
	Text string
	// Slot is set for a reference; Text is then empty.
	Slot   string
	Fields []string
	// Offset is the rune offset of the reference's '{' in the source.
	Offset int
}

// Template is a parsed template.
type Template struct {
	Src   string
	Parts []Part
}

// Error is a template syntax error at a rune offset of the source.
type Error struct {
	Offset int
	Msg    string
}

func (e *Error) Error() string { return e.Msg }

// Parse parses a template.
func Parse(src string) (*Template, error) {
	t := &Template{Src: src}
	if !strings.ContainsAny(src, "{}") {
		if src != "" {
			t.Parts = []Part{{Text: src}}
		}
		return t, nil
	}
	var lit strings.Builder
	runes := []rune(src)
	flush := func() {
		if lit.Len() > 0 {
			t.Parts = append(t.Parts, Part{Text: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(runes); i++ {
		r := runes[i]
		switch r {
		case '{':
			if i+1 < len(runes) && runes[i+1] == '{' {
				lit.WriteRune('{')
				i++
				continue
			}
			end := -1
			for j := i + 1; j < len(runes); j++ {
				if runes[j] == '}' {
					end = j
					break
				}
				if runes[j] == '{' {
					break
				}
			}
			if end < 0 {
				return nil, &Error{Offset: i, Msg: "unclosed '{' in template: write '{{' for a literal brace"}
			}
			ref := strings.TrimSpace(string(runes[i+1 : end]))
			if ref == "" {
				return nil, &Error{Offset: i, Msg: "empty '{}' in template: name a slot, or write '{{}}' for literal braces"}
			}
			names := strings.Split(ref, ".")
			for _, n := range names {
				if !isIdent(n) {
					return nil, &Error{Offset: i, Msg: fmt.Sprintf("invalid reference %q in template: use {slot} or {slot.field}", ref)}
				}
			}
			flush()
			t.Parts = append(t.Parts, Part{Slot: names[0], Fields: names[1:], Offset: i})
			i = end
		case '}':
			if i+1 < len(runes) && runes[i+1] == '}' {
				lit.WriteRune('}')
				i++
				continue
			}
			return nil, &Error{Offset: i, Msg: "unmatched '}' in template: write '}}' for a literal brace"}
		default:
			lit.WriteRune(r)
		}
	}
	flush()
	return t, nil
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_', r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case i > 0 && r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return true
}

// Refs returns the slot names the template references, in order of first use.
func (t *Template) Refs() []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range t.Parts {
		if p.Slot != "" && !seen[p.Slot] {
			seen[p.Slot] = true
			out = append(out, p.Slot)
		}
	}
	return out
}

// Render renders the template, looking slot values up with get. An unset
// slot (get returns false) or a missing field renders as the empty string.
func (t *Template) Render(get func(slot string) (any, bool)) string {
	if len(t.Parts) == 1 && t.Parts[0].Slot == "" {
		return t.Parts[0].Text
	}
	var b strings.Builder
	for _, p := range t.Parts {
		if p.Slot == "" {
			b.WriteString(p.Text)
			continue
		}
		v, ok := get(p.Slot)
		if !ok {
			continue
		}
		for _, f := range p.Fields {
			m, isMap := v.(map[string]any)
			if !isMap {
				v, ok = nil, false
				break
			}
			v, ok = m[f]
			if !ok {
				break
			}
		}
		if ok {
			b.WriteString(Format(v))
		}
	}
	return b.String()
}

// Format prints a value the way templates show it: numbers in their
// shortest exact form (1200, 12.5), booleans as true or false, nil as the
// empty string, lists joined by ", " and maps as sorted key: value pairs.
func Format(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case float32:
		return formatFloat(float64(x))
	case float64:
		return formatFloat(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = Format(e)
		}
		return strings.Join(parts, ", ")
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + ": " + Format(x[k])
		}
		return strings.Join(parts, ", ")
	}
	return fmt.Sprint(v)
}

func formatFloat(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}
