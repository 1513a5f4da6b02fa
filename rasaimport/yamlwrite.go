package rasaimport

import (
	"strings"

	"github.com/soni-dev/soni/syntax"
)

// The importer builds the files it writes as the syntax package's model
// (File, Flow, Step, Slot, Response, Action) and writes them with
// syntax.Encode, in the layout of every soni writer. What soni cannot
// express stays in those files as comments: the Rasa YAML it came from,
// written with the syntax package's writer (rasaTree).

// quote writes a string scalar as every soni writer does (syntax.Quote).
func quote(s string) string { return syntax.Quote(s) }

// rasaTree converts a Rasa node to the syntax package's writer tree,
// keeping its key order, to write it as a comment.
func rasaTree(n *node) any {
	if n == nil {
		return nil
	}
	switch n.kind {
	case kMap:
		m := &syntax.Map{}
		for i, k := range n.keys {
			m.Add(k, rasaTree(n.vals[i]))
		}
		return m
	case kSeq:
		s := &syntax.Seq{}
		for _, it := range n.items {
			s.Add(rasaTree(it))
		}
		return s
	case kScalar:
		return n.v
	}
	return nil
}

// keyed is the mapping key: val of the writer tree.
func keyed(key string, val any) *syntax.Map {
	return &syntax.Map{Entries: []syntax.MapEntry{{Key: key, Value: val}}}
}

// listOf is the list of one item of the writer tree.
func listOf(val any) *syntax.Seq {
	return &syntax.Seq{Items: []syntax.SeqItem{{Value: val}}}
}

// commentText writes key: val of the writer tree as YAML text, without
// its final newline.
func commentText(key string, val any) string {
	return strings.TrimRight(string(syntax.Emit(keyed(key, val), nil)), "\n")
}
