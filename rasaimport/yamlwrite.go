package rasaimport

import (
	"strconv"

	"github.com/soni-dev/soni/syntax"
)

// The importer builds its YAML as ordered mappings with comments (what
// soni cannot express stays in the file as a comment) and writes them
// with the syntax package's writer, so that it writes the same bytes for
// the same project, in the layout of every soni writer.

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

func (s *yseq) add(val any, comments ...string) {
	s.items = append(s.items, yitem{val: val, comments: comments})
}

// quote writes a string scalar as every soni writer does (syntax.Quote).
func quote(s string) string { return syntax.Quote(s) }

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

// emit writes a document, a top-level mapping, with the syntax package's
// writer.
func emit(m *ymap, header []string) []byte {
	return syntax.Emit(m.tree(), header)
}

// tree converts the mapping to the syntax package's writer tree; each
// scalar is written as scalar writes it.
func (m *ymap) tree() *syntax.Map {
	out := &syntax.Map{Flow: m.flow, Entries: make([]syntax.MapEntry, 0, len(m.entries))}
	for _, e := range m.entries {
		out.Entries = append(out.Entries, syntax.MapEntry{Key: e.key, Value: treeValue(e.val), Comments: e.comments, Trailing: e.trailing})
	}
	return out
}

func treeValue(v any) any {
	switch x := v.(type) {
	case *ymap:
		return x.tree()
	case *yseq:
		s := &syntax.Seq{Flow: x.flow, Tail: x.tail, Items: make([]syntax.SeqItem, 0, len(x.items))}
		for _, it := range x.items {
			s.Items = append(s.Items, syntax.SeqItem{Value: treeValue(it.val), Comments: it.comments})
		}
		return s
	}
	return syntax.Raw(scalar(v))
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
