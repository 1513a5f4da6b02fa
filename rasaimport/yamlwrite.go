package rasaimport

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// The importer writes soni's YAML itself, so that it can keep comments
// (what soni cannot express stays in the file as a comment) and write the
// same bytes for the same project.

// ymap is a mapping whose keys keep their order.
type ymap struct {
	entries []yentry
	// flow writes the mapping on one line, {a: 1, b: 2}, when its values
	// are scalars.
	flow bool
}

// yentry is one key of a ymap.
type yentry struct {
	key string
	val any
	// comments are written on their own lines before the entry.
	comments []string
	// trailing is written after the entry's key line ("# soni:ignore ...").
	trailing string
}

// yseq is a list.
type yseq struct {
	items []yitem
	flow  bool
	// tail are comments written after the last item.
	tail []string
}

// yitem is one item of a yseq.
type yitem struct {
	val      any
	comments []string
}

// yraw is a scalar written as it is.
type yraw string

func (m *ymap) add(key string, val any) *yentry {
	m.entries = append(m.entries, yentry{key: key, val: val})
	return &m.entries[len(m.entries)-1]
}

func (m *ymap) get(key string) any {
	for _, e := range m.entries {
		if e.key == key {
			return e.val
		}
	}
	return nil
}

func (s *yseq) add(val any, comments ...string) {
	s.items = append(s.items, yitem{val: val, comments: comments})
}

// plain matches the strings written without quotes.
var plain = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_./-]*$`) })

// quote writes a string scalar: plain when it is a simple word that YAML
// reads back as the same string, else double-quoted.
func quote(s string) string {
	if plain().MatchString(s) {
		switch strings.ToLower(s) {
		case "true", "false", "yes", "no", "on", "off", "y", "n", "null", "nan", "inf":
		default:
			return s
		}
	}
	return strconv.Quote(s)
}

// scalar writes a scalar value.
func scalar(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return quote(x)
	case yraw:
		return string(x)
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return strconv.Quote(scalarString(v))
}

// emit writes a document: a top-level mapping.
func emit(m *ymap, header []string) []byte {
	var b strings.Builder
	for _, h := range header {
		writeComment(&b, "", h)
	}
	writeMap(&b, m, "")
	return []byte(b.String())
}

func writeComment(b *strings.Builder, indent, c string) {
	for _, line := range strings.Split(c, "\n") {
		b.WriteString(indent)
		if line == "" {
			b.WriteString("#\n")
			continue
		}
		b.WriteString("# ")
		b.WriteString(line)
		b.WriteString("\n")
	}
}

// writeMap writes the entries of m, each starting at indent.
func writeMap(b *strings.Builder, m *ymap, indent string) {
	for i, e := range m.entries {
		for _, c := range e.comments {
			writeComment(b, indent, c)
		}
		b.WriteString(indent)
		writeEntry(b, e, indent)
		_ = i
	}
}

// writeEntry writes "key: value" (the indent already written).
func writeEntry(b *strings.Builder, e yentry, indent string) {
	b.WriteString(quote(e.key))
	b.WriteString(":")
	trailing := ""
	if e.trailing != "" {
		trailing = "  # " + e.trailing
	}
	if inline, ok := inlineValue(e.val); ok {
		b.WriteString(" ")
		b.WriteString(inline)
		b.WriteString(trailing)
		b.WriteString("\n")
		return
	}
	b.WriteString(trailing)
	b.WriteString("\n")
	switch x := e.val.(type) {
	case *ymap:
		writeMap(b, x, indent+"  ")
	case *yseq:
		writeSeq(b, x, indent+"  ")
	}
}

// inlineValue returns a value written on its key's line.
func inlineValue(v any) (string, bool) {
	switch x := v.(type) {
	case *ymap:
		if len(x.entries) == 0 {
			return "{}", true
		}
		if !x.flow {
			return "", false
		}
		parts := make([]string, 0, len(x.entries))
		for _, e := range x.entries {
			s, ok := inlineValue(e.val)
			if !ok || len(e.comments) > 0 {
				return "", false
			}
			parts = append(parts, quote(e.key)+": "+s)
		}
		return "{" + strings.Join(parts, ", ") + "}", true
	case *yseq:
		if len(x.items) == 0 && len(x.tail) == 0 {
			return "[]", true
		}
		if !x.flow {
			return "", false
		}
		parts := make([]string, 0, len(x.items))
		for _, it := range x.items {
			s, ok := inlineValue(it.val)
			if !ok || len(it.comments) > 0 {
				return "", false
			}
			parts = append(parts, s)
		}
		return "[" + strings.Join(parts, ", ") + "]", true
	}
	return scalar(v), true
}

// writeSeq writes the items of s, each "- " at indent.
func writeSeq(b *strings.Builder, s *yseq, indent string) {
	for _, it := range s.items {
		for _, c := range it.comments {
			writeComment(b, indent, c)
		}
		b.WriteString(indent)
		b.WriteString("-")
		if inline, ok := inlineValue(it.val); ok {
			b.WriteString(" ")
			b.WriteString(inline)
			b.WriteString("\n")
			continue
		}
		switch x := it.val.(type) {
		case *ymap:
			// The first entry goes on the dash's line; the others are
			// indented under it. A comment before the first entry goes
			// on its own line, under the dash.
			first := true
			for _, e := range x.entries {
				if first {
					first = false
					if len(e.comments) > 0 {
						b.WriteString("\n")
						for _, c := range e.comments {
							writeComment(b, indent+"  ", c)
						}
						b.WriteString(indent + "  ")
					} else {
						b.WriteString(" ")
					}
					writeEntry(b, e, indent+"  ")
					continue
				}
				for _, c := range e.comments {
					writeComment(b, indent+"  ", c)
				}
				b.WriteString(indent + "  ")
				writeEntry(b, e, indent+"  ")
			}
		case *yseq:
			b.WriteString("\n")
			writeSeq(b, x, indent+"  ")
		}
	}
	for _, c := range s.tail {
		writeComment(b, indent, c)
	}
}

// nodeY converts a Rasa node to writer values, keeping key order.
func nodeY(n *node) any {
	if n == nil {
		return nil
	}
	switch n.kind {
	case kMap:
		m := &ymap{}
		for i, k := range n.keys {
			m.add(k, nodeY(n.vals[i]))
		}
		return m
	case kSeq:
		s := &yseq{}
		for _, it := range n.items {
			s.add(nodeY(it))
		}
		return s
	case kScalar:
		return n.v
	}
	return nil
}
