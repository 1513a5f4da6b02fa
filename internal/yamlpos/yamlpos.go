// Package yamlpos holds what the flow compiler and the conversation-test
// parser both need from goccy/go-yaml syntax trees: node positions, looking
// through anchors and tags, scalar text and the words that name a node's
// kind in messages; and it finds nodes by JSON pointer tokens, so that
// problems found in the decoded data (such as schema violations) can be
// reported where the user wrote them.
//
// Positions are 1-based lines and columns, columns counted in runes, as
// goccy/go-yaml reports them; 0, 0 means unknown.
package yamlpos

import (
	"fmt"
	"reflect"
	"strconv"

	"github.com/goccy/go-yaml/ast"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/schema"
)

// Where says how far [Lookup] followed its tokens.
type Where struct {
	// Key is the node that introduces the returned node: the mapping key
	// whose value it is, or the '-' entry of a block list item. It is nil
	// for the root and for items of flow lists ([a, b]).
	Key ast.Node
	// Depth is the number of tokens followed.
	Depth int
	// Complete reports whether every token was followed, so that the
	// returned node is the one the tokens designate.
	Complete bool
}

// Lookup follows JSON pointer tokens (mapping keys and decimal list indexes)
// from root, a document body or a *ast.DocumentNode, and returns the node
// they designate. Anchors and tags are looked through; a key brought in by a
// merge key (<<) is found in an inline merged mapping, but an alias is never
// followed: the walk stops at the alias node, which is where the user wrote
// the value. When a token cannot be followed, Lookup returns the deepest node
// reached and Where tells how far it got.
func Lookup(root ast.Node, tokens []string) (ast.Node, Where) {
	node := root
	if doc, ok := node.(*ast.DocumentNode); ok && doc != nil {
		node = doc.Body
	}
	var w Where
	for i, tok := range tokens {
		n := unwrap(node)
		switch m := n.(type) {
		case *ast.MappingNode, *ast.MappingValueNode:
			mv, stop := findPair(m, tok)
			if mv == nil {
				if stop != nil {
					return stop, w
				}
				return node, w
			}
			w.Key = mv.Key
			node = mv.Value
		case *ast.SequenceNode:
			idx, err := strconv.Atoi(tok)
			if m == nil || err != nil || idx < 0 || idx >= len(m.Values) {
				return node, w
			}
			w.Key = nil
			if !m.IsFlowStyle && idx < len(m.Entries) && m.Entries[idx] != nil {
				w.Key = m.Entries[idx]
			}
			node = m.Values[idx]
		default:
			return node, w
		}
		w.Depth = i + 1
	}
	w.Complete = true
	return node, w
}

// KeyNode returns the key node of the pair with the given key in a mapping
// (looking through anchors and tags), or nil when the mapping has no such
// key of its own.
func KeyNode(mapping ast.Node, key string) ast.Node {
	mv, _ := findPair(unwrap(mapping), key)
	if mv == nil || mv.Key == nil {
		return nil
	}
	return mv.Key
}

// Pos returns the line and column where a node starts in the source:
//   - a quoted scalar starts at its quote;
//   - a mapping starts at its first key (goccy's own token for a block
//     mapping is its first ':');
//   - a block list starts at its first '-', a list entry at its '-';
//   - a block scalar (| or >) starts at its indicator.
//
// A nil node, or one without a position, gives 0, 0.
func Pos(node ast.Node) (line, col int) {
	if isNil(node) {
		return 0, 0
	}
	switch n := node.(type) {
	case *ast.DocumentNode:
		return Pos(n.Body)
	case *ast.MappingNode:
		if len(n.Values) > 0 {
			return Pos(n.Values[0])
		}
	case *ast.MappingValueNode:
		if !isNil(n.Key) {
			return Pos(n.Key)
		}
	}
	tok := node.GetToken()
	if tok == nil || tok.Position == nil {
		return 0, 0
	}
	return tok.Position.Line, tok.Position.Column
}

// Place returns the position at which a schema violation should be
// reported in the document rooted at root:
//   - an unknown key: the key itself;
//   - a missing field: the key or '-' that introduces the mapping lacking
//     it (its first key for the top level or a flow-list item);
//   - a wrong type or invalid value: the value, or its key when the value
//     is empty or null.
//
// When the designated node is not in the tree (a value brought in through an
// alias), the deepest node on the way is used, usually the alias.
func Place(root ast.Node, v schema.Violation) (line, col int) {
	switch v.Kind {
	case schema.UnknownKey:
		if len(v.Tokens) == 0 {
			return Pos(root)
		}
		key := v.Key
		if key == "" {
			key = v.Tokens[len(v.Tokens)-1]
		}
		parent, w := Lookup(root, v.Tokens[:len(v.Tokens)-1])
		if w.Complete {
			if k := KeyNode(parent, key); k != nil {
				return Pos(k)
			}
		}
		return Pos(parent)
	case schema.Missing:
		node, w := Lookup(root, v.Tokens)
		if w.Complete && w.Key != nil {
			return Pos(w.Key)
		}
		return Pos(node)
	default:
		node, w := Lookup(root, v.Tokens)
		if _, isNull := unwrap(node).(*ast.NullNode); isNull && w.Complete && w.Key != nil {
			// goccy gives an empty value ("message:" and nothing) a made-up
			// position, sometimes past the end of the line, and an explicit
			// null cannot be told apart from it; the key is where the user
			// looks in both cases.
			return Pos(w.Key)
		}
		return Pos(node)
	}
}

// NodePos returns the position of a node in file, with the adjustments the
// YAML library needs: a mapping points at its first key, not its first ':',
// a block scalar at its indicator, an anchored node at its anchor. A node
// without a position gives the file alone.
func NodePos(file string, n ast.Node) diag.Pos {
	switch x := n.(type) {
	case nil:
		return diag.Pos{File: file}
	case *ast.MappingNode:
		if len(x.Values) > 0 {
			return NodePos(file, x.Values[0].Key)
		}
	case *ast.MappingValueNode:
		return NodePos(file, x.Key)
	case *ast.AnchorNode:
		if tk := x.GetToken(); tk != nil && tk.Position != nil {
			return diag.Pos{File: file, Line: tk.Position.Line, Col: tk.Position.Column}
		}
	case *ast.LiteralNode:
		if x.Start != nil && x.Start.Position != nil {
			return diag.Pos{File: file, Line: x.Start.Position.Line, Col: x.Start.Position.Column}
		}
	}
	if isNil(n) {
		return diag.Pos{File: file}
	}
	tk := n.GetToken()
	if tk == nil || tk.Position == nil {
		return diag.Pos{File: file}
	}
	return diag.Pos{File: file, Line: tk.Position.Line, Col: tk.Position.Column}
}

// ScalarText returns the text of a string, number or boolean scalar, as
// written (a block scalar's text for | and >), looking through anchors and
// tags; ok is false for anything else.
func ScalarText(n ast.Node) (text string, ok bool) {
	switch x := Unwrap(n).(type) {
	case *ast.StringNode:
		return x.Value, true
	case *ast.LiteralNode:
		if x.Value != nil {
			return x.Value.Value, true
		}
		return "", true
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
		return x.GetToken().Value, true
	}
	return "", false
}

// KindWord names a node's YAML kind for messages: "a mapping", "a list",
// "a string", "a number", "a boolean", "null", "an alias".
func KindWord(n ast.Node) string {
	switch x := Unwrap(n).(type) {
	case nil, *ast.NullNode:
		return "null"
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	case *ast.StringNode, *ast.LiteralNode:
		return "a string"
	case *ast.IntegerNode, *ast.FloatNode, *ast.InfinityNode, *ast.NanNode:
		return "a number"
	case *ast.BoolNode:
		return "a boolean"
	case *ast.AliasNode:
		return "an alias"
	default:
		return "a " + x.Type().YAMLName()
	}
}

// Unwrap looks through anchors and tags to the node they decorate. An
// alias is returned as it is, never followed.
func Unwrap(n ast.Node) ast.Node { return unwrap(n) }

// unwrap looks through anchors and tags to the node they decorate.
func unwrap(n ast.Node) ast.Node {
	for !isNil(n) {
		switch x := n.(type) {
		case *ast.AnchorNode:
			n = x.Value
		case *ast.TagNode:
			n = x.Value
		default:
			return n
		}
	}
	return nil
}

// Pairs returns the key-value pairs of a mapping node: a block or flow
// mapping, or the single pair goccy/go-yaml gives for a one-key mapping.
// ok is false for any other node, nil included (anchors and tags are not
// looked through: see Unwrap).
func Pairs(n ast.Node) (pairs []*ast.MappingValueNode, ok bool) {
	switch x := n.(type) {
	case *ast.MappingNode:
		if x != nil {
			return x.Values, true
		}
	case *ast.MappingValueNode:
		if x != nil {
			return []*ast.MappingValueNode{x}, true
		}
	}
	return nil, false
}

// findPair returns the last pair whose key is key in a mapping (goccy keeps
// the last of duplicated keys). A key that only a merge key (<<) provides
// is looked up in an inline merged mapping; when the merge value is an
// alias, findPair returns no pair and the alias as the place to stop.
func findPair(m ast.Node, key string) (pair *ast.MappingValueNode, stop ast.Node) {
	pairs, ok := Pairs(m)
	if !ok {
		return nil, nil
	}
	var merges []ast.Node
	for _, p := range pairs {
		if p == nil || isNil(p.Key) {
			continue
		}
		if p.Key.IsMergeKey() {
			merges = append(merges, p.Value)
			continue
		}
		if keyString(p.Key) == key {
			pair = p
		}
	}
	if pair != nil {
		return pair, nil
	}
	// Later merge sources are applied last by the decoder; search them
	// first so that the value the decoder kept is found.
	for i := len(merges) - 1; i >= 0; i-- {
		if p, s := findMerged(merges[i], key); p != nil || s != nil {
			return p, s
		}
	}
	return nil, nil
}

// findMerged looks for key in the value of a merge key: a mapping, an
// alias, or a list of them.
func findMerged(v ast.Node, key string) (*ast.MappingValueNode, ast.Node) {
	switch x := unwrap(v).(type) {
	case *ast.AliasNode:
		return nil, x
	case *ast.MappingNode, *ast.MappingValueNode:
		return findPair(x, key)
	case *ast.SequenceNode:
		if x == nil {
			return nil, nil
		}
		for i := len(x.Values) - 1; i >= 0; i-- {
			if p, s := findMerged(x.Values[i], key); p != nil || s != nil {
				return p, s
			}
		}
	}
	return nil, nil
}

// keyString renders a mapping key as goccy's NodeToValue does when it
// builds a map[string]any: strings as is, null as "null", other scalars
// with fmt.Sprint of their value.
func keyString(k ast.Node) string {
	switch n := unwrap(k).(type) {
	case nil:
		return "null"
	case *ast.StringNode:
		return n.Value
	case *ast.NullNode:
		return "null"
	case *ast.MappingKeyNode:
		return keyString(n.Value)
	case *ast.LiteralNode:
		if n.Value != nil {
			return n.Value.Value
		}
		return ""
	case ast.ScalarNode:
		v := n.GetValue()
		if v == nil {
			return "null"
		}
		if s, ok := v.(string); ok {
			return s
		}
		return fmt.Sprint(v)
	}
	return k.String()
}

// isNil reports whether n is nil or a typed nil pointer.
func isNil(n ast.Node) bool {
	if n == nil {
		return true
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
