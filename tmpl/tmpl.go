// Package tmpl parses and renders message templates: literal text with
// {slot} and {slot.field} references, optionally with a Python-style format
// spec ({amount:,.2f}, see [Spec]), and {{ and }} for literal braces.
// The compiler uses it to check templates, the VM to render them.
package tmpl

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Part is one piece of a template: literal text, or a reference to a slot
// with an optional field path.
type Part struct {
	Text string
	// Slot is set for a reference; Text is then empty.
	Slot   string
	Fields []string
	// Spec is the format spec after a colon ({amount:.2f}), or nil.
	Spec *Spec
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
			end, colon := -1, -1
			for j := i + 1; j < len(runes); j++ {
				if runes[j] == '}' {
					end = j
					break
				}
				if runes[j] == ':' && colon < 0 {
					colon = j
				}
				if runes[j] == '{' {
					if colon >= 0 {
						return nil, &Error{Offset: j, Msg: fmt.Sprintf("nested field in the format spec of {%s}: soni's format specs are fixed, as in {amount:,.2f}", strings.TrimSpace(string(runes[i+1:colon])))}
					}
					break
				}
			}
			if end < 0 {
				return nil, &Error{Offset: i, Msg: "unclosed '{' in template: write '{{' for a literal brace"}
			}
			inner := runes[i+1 : end]
			var spec *Spec
			if colon >= 0 {
				inner = runes[i+1 : colon]
				name := strings.TrimSpace(string(inner))
				sp, err := parseSpec(name, string(runes[colon+1:end]))
				if err != nil {
					return nil, &Error{Offset: colon + 1, Msg: err.Error()}
				}
				spec = sp
			}
			ref := strings.TrimSpace(string(inner))
			if ref == "" {
				return nil, &Error{Offset: i, Msg: "empty '{}' in template: name a slot, or write '{{}}' for literal braces"}
			}
			if bang := strings.IndexByte(ref, '!'); bang > 0 && isIdent(strings.TrimSpace(ref[:bang])) && (ref[bang:] == "!r" || ref[bang:] == "!s" || ref[bang:] == "!a") {
				return nil, &Error{Offset: i, Msg: fmt.Sprintf("conversion %q in {%s} is not supported: write {%s}, or {%s:SPEC} with a format spec", ref[bang:], ref, strings.TrimSpace(ref[:bang]), strings.TrimSpace(ref[:bang]))}
			}
			names := strings.Split(ref, ".")
			for _, n := range names {
				if !isIdent(n) {
					return nil, &Error{Offset: i, Msg: fmt.Sprintf("invalid reference %q in template: use {slot} or {slot.field}", ref)}
				}
			}
			flush()
			t.Parts = append(t.Parts, Part{Slot: names[0], Fields: names[1:], Spec: spec, Offset: i})
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
		switch {
		case ok && p.Spec != nil:
			b.WriteString(p.Spec.Apply(v))
		case ok:
			b.WriteString(Format(v))
		}
	}
	return b.String()
}

// Format prints a value the way templates show it: numbers in their
// shortest exact form (1200, 12.5, never 1.2e+03), booleans as true or
// false, a time at midnight as a date (YYYY-MM-DD), nil as the empty
// string, lists joined by ", " and maps as sorted key: value pairs.
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
		if math.IsInf(float64(x), 0) || math.IsNaN(float64(x)) {
			return formatFloat(float64(x))
		}
		// The shortest form of the float32 itself: 0.1, not
		// 0.10000000149011612.
		return strconv.FormatFloat(float64(x), 'f', -1, 32)
	case float64:
		return formatFloat(x)
	case json.Number:
		return formatNumber(x)
	case time.Time:
		if x.Hour() == 0 && x.Minute() == 0 && x.Second() == 0 && x.Nanosecond() == 0 {
			return x.Format("2006-01-02")
		}
		return x.Format(time.RFC3339Nano)
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
	return formatOther(v)
}

// formatNumber prints a JSON number as a number: 1e3 is 1000. A number
// too large for a float64 is printed as written.
func formatNumber(n json.Number) string {
	if i, err := n.Int64(); err == nil {
		return strconv.FormatInt(i, 10)
	}
	f, err := n.Float64()
	if err != nil || math.IsInf(f, 0) {
		return string(n)
	}
	return formatFloat(f)
}

// formatOther prints the values Format has no case for: other integer
// kinds, and lists and maps of other element types (a []string, a
// map[string]int from an embedding program), formatted like []any and
// map[string]any so that the output is deterministic.
func formatOther(v any) string {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(rv.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(rv.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		return Format(rv.Float())
	case reflect.String:
		return rv.String()
	case reflect.Bool:
		return strconv.FormatBool(rv.Bool())
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.Type().Elem().Kind() == reflect.Uint8 {
			break // []byte: printed as fmt prints it
		}
		parts := make([]string, rv.Len())
		for i := range parts {
			parts[i] = Format(rv.Index(i).Interface())
		}
		return strings.Join(parts, ", ")
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			break
		}
		keys := make([]string, 0, rv.Len())
		vals := make(map[string]any, rv.Len())
		for it := rv.MapRange(); it.Next(); {
			k := it.Key().String()
			keys = append(keys, k)
			vals[k] = it.Value().Interface()
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + ": " + Format(vals[k])
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
