package rasaimport

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/soni-dev/soni/internal/yamlpos"
)

// kind is the YAML kind of a node.
type kind int

const (
	kNull kind = iota
	kScalar
	kMap
	kSeq
)

// node is a YAML value of a Rasa file with its position: the importer
// reads every construct through it, so that each report item can say
// where the construct is.
type node struct {
	kind kind
	// at is FILE:LINE of the node (the key's line for a mapping value).
	at loc
	// keys and vals are a mapping's entries, in order.
	keys []string
	vals []*node
	// items are a list's items.
	items []*node
	// v is a scalar's value: string, bool, int64 or float64.
	v any
	// text is a scalar as written (before typing).
	text string
}

// loc is a place in the Rasa project.
type loc struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

func (l loc) String() string {
	if l.Line == 0 {
		return l.File
	}
	return fmt.Sprintf("%s:%d", l.File, l.Line)
}

// get returns the value of key in a mapping, or nil.
func (n *node) get(key string) *node {
	if n == nil || n.kind != kMap {
		return nil
	}
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

// has reports whether a mapping has key.
func (n *node) has(key string) bool {
	if n == nil || n.kind != kMap {
		return false
	}
	for _, k := range n.keys {
		if k == key {
			return true
		}
	}
	return false
}

// str returns a scalar's text ("" for anything else); numbers and
// booleans are given as written.
func (n *node) str() string {
	if n == nil || n.kind != kScalar {
		return ""
	}
	if s, ok := n.v.(string); ok {
		return s
	}
	return n.text
}

// boolean returns a scalar's boolean value, reading the strings "true"
// and "false" as Rasa does; ok is false for anything else.
func (n *node) boolean() (v, ok bool) {
	if n == nil || n.kind != kScalar {
		return false, false
	}
	switch x := n.v.(type) {
	case bool:
		return x, true
	case string:
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "true":
			return true, true
		case "false":
			return false, true
		}
	}
	return false, false
}

// list returns a list's items; a scalar or mapping is a list of one, null
// is empty.
func (n *node) list() []*node {
	switch {
	case n == nil || n.kind == kNull:
		return nil
	case n.kind == kSeq:
		return n.items
	}
	return []*node{n}
}

// value returns the node as plain Go data: maps, slices and scalars.
func (n *node) value() any {
	if n == nil {
		return nil
	}
	switch n.kind {
	case kScalar:
		return n.v
	case kMap:
		m := make(map[string]any, len(n.keys))
		for i, k := range n.keys {
			m[k] = n.vals[i].value()
		}
		return m
	case kSeq:
		s := make([]any, len(n.items))
		for i, it := range n.items {
			s[i] = it.value()
		}
		return s
	}
	return nil
}

// parseYAML reads one Rasa YAML file. An empty file is a null node.
func parseYAML(file string, src []byte) (*node, error) {
	f, err := parser.ParseBytes(src, 0, parser.AllowDuplicateMapKey())
	if err != nil {
		msg := err.Error()
		line := 0
		var yerr yaml.Error
		if errors.As(err, &yerr) {
			msg = yerr.GetMessage()
			if tk := yerr.GetToken(); tk != nil && tk.Position != nil {
				line = tk.Position.Line
			}
		}
		return nil, fmt.Errorf("%s: invalid YAML: %s", loc{file, line}, strings.SplitN(msg, "\n", 2)[0])
	}
	var body ast.Node
	for _, doc := range f.Docs {
		if doc == nil || doc.Body == nil {
			continue
		}
		if _, ok := doc.Body.(*ast.CommentGroupNode); ok {
			continue
		}
		if body != nil {
			return nil, fmt.Errorf("%s: several YAML documents in one file: Rasa reads only one", file)
		}
		body = doc.Body
	}
	return convert(file, body, 0)
}

// maxDepth bounds the nesting of a Rasa file.
const maxDepth = 200

// convert turns a syntax tree into a node.
func convert(file string, n ast.Node, depth int) (*node, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("%s: nesting is deeper than %d levels", file, maxDepth)
	}
	line, _ := yamlpos.Pos(n)
	out := &node{at: loc{file, line}}
	switch x := yamlpos.Unwrap(n).(type) {
	case nil, *ast.NullNode:
		out.kind = kNull
	case *ast.AliasNode:
		return nil, fmt.Errorf("%s: YAML aliases (*%s) are not read by the importer: write the value out", out.at, x.Value)
	case *ast.MappingNode, *ast.MappingValueNode:
		out.kind = kMap
		pairs, _ := yamlpos.Pairs(x)
		for _, p := range pairs {
			k, ok := yamlpos.ScalarText(p.Key)
			if !ok {
				kl, _ := yamlpos.Pos(p.Key)
				return nil, fmt.Errorf("%s: a mapping key must be a plain value", loc{file, kl})
			}
			v, err := convert(file, p.Value, depth+1)
			if err != nil {
				return nil, err
			}
			if v.kind == kNull || v.kind == kMap || v.kind == kSeq {
				// A value's place is its key's line.
				kl, _ := yamlpos.Pos(p.Key)
				if kl > 0 {
					v.at.Line = kl
				}
			}
			if i := indexOf(out.keys, k); i >= 0 {
				out.vals[i] = v
				continue
			}
			out.keys = append(out.keys, k)
			out.vals = append(out.vals, v)
		}
	case *ast.SequenceNode:
		out.kind = kSeq
		for _, it := range x.Values {
			v, err := convert(file, it, depth+1)
			if err != nil {
				return nil, err
			}
			out.items = append(out.items, v)
		}
	case *ast.BoolNode:
		out.kind, out.v, out.text = kScalar, x.Value, x.GetToken().Value
	case *ast.IntegerNode:
		out.kind, out.text = kScalar, x.GetToken().Value
		switch v := x.Value.(type) {
		case int64:
			out.v = v
		case uint64:
			out.v = float64(v)
		default:
			out.v = out.text
		}
	case *ast.FloatNode:
		out.kind, out.v, out.text = kScalar, x.Value, x.GetToken().Value
	case *ast.InfinityNode, *ast.NanNode:
		out.kind, out.text = kScalar, x.GetToken().Value
		out.v = out.text
	default:
		s, ok := yamlpos.ScalarText(x)
		if !ok {
			return nil, fmt.Errorf("%s: unsupported YAML value (%s)", out.at, yamlpos.KindWord(x))
		}
		out.kind, out.v, out.text = kScalar, s, s
	}
	return out, nil
}

func indexOf(keys []string, k string) int {
	for i, x := range keys {
		if x == k {
			return i
		}
	}
	return -1
}

// scalarString formats a scalar value for messages and templates.
func scalarString(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}
