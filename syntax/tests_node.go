package syntax

import (
	"fmt"
	"math"
	"runtime"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/internal/suggest"
	"github.com/soni-dev/soni/internal/yamlpos"
)

// DataKind is the YAML kind of a [Data] value.
type DataKind uint8

// The kinds of [Data] values.
const (
	// DataNull is an explicit null (or an empty value: "key:").
	DataNull DataKind = iota
	DataString
	DataNumber
	DataBool
	DataList
	DataMap
	// DataAlias is an alias (*name): test and eval files never follow
	// one.
	DataAlias
	// DataOther is any other node (a directive, a bare tag...).
	DataOther
)

// The quoting styles of a scalar as written.
const (
	StylePlain  = "plain"
	StyleSingle = "single"
	StyleDouble = "double"
	// StyleBlock is a block scalar (| or >).
	StyleBlock = "block"
)

// Data is a value of free form in a test or eval file (action outputs,
// metadata, command arguments, slot values), kept with the positions where
// it was written, so that what reads it later reports problems there. A
// nil *Data is an absent value.
type Data struct {
	Kind DataKind
	// Pos is where the value starts: a mapping's first key, a block
	// scalar's indicator, an anchor.
	Pos diag.Pos
	// Text is a scalar's text as written (a string's value; a number's or
	// a boolean's token); Scalar is a number's or a boolean's Go value:
	// int64 (uint64 beyond int64 becomes float64), float64 or bool (a
	// string's value is Text).
	Text   string
	Scalar any
	// Items are a list's values; Entries a mapping's pairs, in order.
	Items   []*Data
	Entries []DataEntry
	// Flow is true for a list or mapping written in flow style ([...] or
	// {...}).
	Flow bool
	// Quote is a string scalar's quoting style (StylePlain, StyleSingle,
	// StyleDouble or StyleBlock), looking through a tag or an anchor.
	Quote string
	// Comments are written on their own lines before the value when it is
	// a list item (EncodeTests).
	Comments []string

	// form is how the scalar itself is written (a style, or "" when a
	// tag or anchor decorates it), from line, col. dashLine, dashCol are
	// the '-' of a block list item. (A DataOther node's Text names its
	// kind for messages.)
	form              string
	line, col         int32
	dashLine, dashCol int32
	// plainString is true for a string scalar that is not a block scalar.
	plainString bool
}

// DataEntry is one pair of a mapping.
type DataEntry struct {
	Key    string
	KeyPos diag.Pos
	Value  *Data
	// Comments are written on their own lines before the pair.
	Comments []string
}

// IsNull reports whether d is absent or a YAML null.
func (d *Data) IsNull() bool { return d == nil || d.Kind == DataNull }

// KindWord names d's kind for messages: "a mapping", "a list", "a string",
// "a number", "a boolean", "null", "an alias".
func (d *Data) KindWord() string {
	if d == nil {
		return "null"
	}
	switch d.Kind {
	case DataNull:
		return "null"
	case DataMap:
		return "a mapping"
	case DataList:
		return "a list"
	case DataString:
		return "a string"
	case DataNumber:
		return "a number"
	case DataBool:
		return "a boolean"
	case DataAlias:
		return "an alias"
	}
	return d.Text
}

// IsText reports whether d is a string, number or boolean scalar.
func (d *Data) IsText() bool {
	return d != nil && (d.Kind == DataString || d.Kind == DataNumber || d.Kind == DataBool)
}

// Problems adds a file's diagnostics with the codes of test files.
type Problems struct {
	Diags *diag.List
}

// Errorf adds an error at pos.
func (p Problems) Errorf(pos diag.Pos, code, format string, args ...any) *diag.Diagnostic {
	return p.Diags.Add(pos, code, "", format, args...)
}

// Text returns a scalar's text, or reports that what must be a string.
func (p Problems) Text(d *Data, what string) (string, bool) {
	if !d.IsText() {
		p.Errorf(d.at(), TestWrongType, "%s must be a string, not %s", what, d.KindWord())
		return "", false
	}
	return d.Text, true
}

// Map returns a mapping's pairs, or reports that what must be a mapping.
func (p Problems) Map(d *Data, what string) ([]DataEntry, bool) {
	switch {
	case d != nil && d.Kind == DataMap:
		return d.Entries, true
	case d != nil && d.Kind == DataAlias:
		p.Errorf(d.Pos, TestWrongType, "%s is an alias: test files do not follow YAML aliases", what)
		return nil, false
	}
	p.Errorf(d.at(), TestWrongType, "%s must be a mapping, not %s", what, d.KindWord())
	return nil, false
}

// List returns a list's items, or reports that what must be a list.
func (p Problems) List(d *Data, what string) ([]*Data, bool) {
	switch {
	case d != nil && d.Kind == DataList:
		return d.Items, true
	case d != nil && d.Kind == DataAlias:
		p.Errorf(d.Pos, TestWrongType, "%s is an alias: test files do not follow YAML aliases", what)
		return nil, false
	}
	p.Errorf(d.at(), TestWrongType, "%s must be a list, not %s", what, d.KindWord())
	return nil, false
}

// Value converts d to a Go value: string, int64, float64, bool, nil,
// []any or map[string]any. An alias or an unsupported node is reported.
func (p Problems) Value(d *Data) (any, bool) {
	if d == nil {
		return nil, true
	}
	switch d.Kind {
	case DataNull:
		return nil, true
	case DataString:
		return d.Text, true
	case DataNumber, DataBool:
		return d.Scalar, true
	case DataList:
		out := make([]any, 0, len(d.Items))
		for _, it := range d.Items {
			v, ok := p.Value(it)
			if !ok {
				return nil, false
			}
			out = append(out, v)
		}
		return out, true
	case DataMap:
		out := make(map[string]any, len(d.Entries))
		for _, e := range d.Entries {
			v, ok := p.Value(e.Value)
			if !ok {
				return nil, false
			}
			out[e.Key] = v
		}
		return out, true
	case DataAlias:
		p.Errorf(d.Pos, TestWrongType, "value is an alias: test files do not follow YAML aliases")
		return nil, false
	}
	p.Errorf(d.Pos, TestWrongType, "unsupported value %s", d.KindWord())
	return nil, false
}

// Go is d as a Go value, like [Problems.Value], for a value decoding
// already checked: an alias or an unsupported node gives nil.
func (d *Data) Go() any {
	v, _ := Problems{Diags: &diag.List{}}.Value(d)
	return v
}

// UnknownKey reports a key of where that is not among allowed, with the
// closest allowed key as the suggestion.
func (p Problems) UnknownKey(e DataEntry, where string, allowed []string) {
	dg := p.Errorf(e.KeyPos, TestUnknownKey, "unknown key %q in %s", e.Key, where)
	if s := suggest.Closest(e.Key, allowed); s != "" {
		dg.Suggestion = fmt.Sprintf("did you mean %q?", s)
	} else {
		dg.Suggestion = "allowed keys: " + strings.Join(allowed, ", ")
	}
}

// SlotList reads a list of NAME or {NAME: VALUE} (a single mapping or
// name is accepted for the list). withValues says the entries are
// presets, which a bare string cannot be.
func (p Problems) SlotList(d *Data, what string, withValues bool) []SlotValue {
	var items []*Data
	switch {
	case d != nil && d.Kind == DataList:
		items = d.Items
	case d != nil && d.Kind == DataMap:
		items = []*Data{d}
	case d != nil && d.plainString:
		if withValues {
			p.Errorf(d.Pos, TestWrongType, "%s must be a list of {slot: value} mappings, not a string", what)
			return nil
		}
		items = []*Data{d}
	default:
		p.Errorf(d.at(), TestWrongType, "%s must be a list of slot names or {slot: value} mappings, not %s", what, d.KindWord())
		return nil
	}
	var out []SlotValue
	for _, item := range items {
		if item != nil && item.Kind == DataMap {
			for _, e := range item.Entries {
				v, ok := p.Value(e.Value)
				if !ok {
					continue
				}
				out = append(out, SlotValue{Slot: e.Key, Value: v, HasValue: true, Pos: e.KeyPos})
			}
			continue
		}
		if !item.IsText() {
			p.Errorf(item.at(), TestWrongType, "an entry of %s must be a slot name or a {slot: value} mapping, not %s", what, item.KindWord())
			continue
		}
		out = append(out, SlotValue{Slot: item.Text, Pos: item.Pos})
	}
	return out
}

// at is d's position; an absent value has none.
func (d *Data) at() diag.Pos {
	if d == nil {
		return diag.Pos{}
	}
	return d.Pos
}

// dataOf converts a YAML node of file to Data. A long list (a large
// file's test cases) has its items converted on every core.
func dataOf(file string, n ast.Node) *Data {
	return converter{file: file, workers: runtime.GOMAXPROCS(0)}.data(n)
}

// converter converts the nodes of one file, a long list's items on up
// to workers goroutines (1 inside an item already converted on its
// own).
type converter struct {
	file    string
	workers int
}

// data is dataOf.
func (c converter) data(n ast.Node) *Data {
	file := c.file
	if n == nil {
		return nil
	}
	d := &Data{Pos: yamlpos.NodePos(file, n)}
	// How the scalar itself is written, for EncodeTests: a decorated
	// scalar (tag, anchor) has no form it can rewrite.
	switch x := n.(type) {
	case *ast.StringNode:
		if tk := x.Token; tk != nil && tk.Position != nil {
			d.form, d.line, d.col = quoteStyle(tk), int32(tk.Position.Line), int32(tk.Position.Column)
		}
	case *ast.LiteralNode:
		if x.Start != nil && x.Start.Position != nil {
			d.form, d.line, d.col = StyleBlock, int32(x.Start.Position.Line), int32(x.Start.Position.Column)
		}
	}
	switch x := yamlpos.Unwrap(n).(type) {
	case nil, *ast.NullNode:
		d.Kind = DataNull
	case *ast.StringNode:
		d.Kind, d.Text, d.plainString = DataString, x.Value, true
		d.Quote = StylePlain
		if x.Token != nil {
			d.Quote = quoteStyle(x.Token)
		}
	case *ast.LiteralNode:
		d.Kind, d.Quote = DataString, StyleBlock
		d.Text, _ = yamlpos.ScalarText(x)
	case *ast.IntegerNode:
		d.Kind, d.Text = DataNumber, x.GetToken().Value
		switch v := x.Value.(type) {
		case int64:
			d.Scalar = v
		case uint64:
			if v <= math.MaxInt64 {
				d.Scalar = int64(v)
			} else {
				d.Scalar = float64(v)
			}
		default:
			d.Scalar = d.Text
		}
	case *ast.FloatNode:
		d.Kind, d.Text, d.Scalar = DataNumber, x.GetToken().Value, x.Value
	case *ast.InfinityNode:
		d.Kind, d.Text, d.Scalar = DataNumber, x.GetToken().Value, x.Value
	case *ast.NanNode:
		d.Kind, d.Text, d.Scalar = DataNumber, x.GetToken().Value, math.NaN()
	case *ast.BoolNode:
		d.Kind, d.Text, d.Scalar = DataBool, x.GetToken().Value, x.Value
	case *ast.SequenceNode:
		d.Kind, d.Flow = DataList, x.IsFlowStyle
		d.Items = make([]*Data, len(x.Values))
		inner := converter{file: file, workers: 1}
		inParallel(c.workers, len(x.Values), func(i int) { d.Items[i] = inner.item(x, i, d.Pos) })
	case *ast.MappingNode:
		d.Kind, d.Flow = DataMap, x.IsFlowStyle
		d.Entries = make([]DataEntry, 0, len(x.Values))
		for _, mv := range x.Values {
			d.Entries = append(d.Entries, c.entry(mv))
		}
	case *ast.MappingValueNode:
		d.Kind, d.Flow = DataMap, x.IsFlowStyle
		d.Entries = []DataEntry{c.entry(x)}
	case *ast.AliasNode:
		d.Kind = DataAlias
	default:
		d.Kind, d.Text = DataOther, yamlpos.KindWord(x)
	}
	return d
}

// item converts a list's item i, with the position of its '-' in a
// block list; an item with no value is a null at the list's position.
func (c converter) item(x *ast.SequenceNode, i int, list diag.Pos) *Data {
	it := c.data(x.Values[i])
	if it == nil {
		it = &Data{Kind: DataNull, Pos: list}
	}
	if !x.IsFlowStyle && i < len(x.Entries) && x.Entries[i] != nil && x.Entries[i].Start != nil && x.Entries[i].Start.Position != nil {
		p := x.Entries[i].Start.Position
		it.dashLine, it.dashCol = int32(p.Line), int32(p.Column)
	}
	return it
}

// entry converts a mapping pair. A pair with no value ("key:") has a
// null value positioned at its key.
func (c converter) entry(mv *ast.MappingValueNode) DataEntry {
	e := DataEntry{Key: keyOf(mv), KeyPos: yamlpos.NodePos(c.file, mv.Key), Value: c.data(mv.Value)}
	if e.Value == nil {
		e.Value = &Data{Kind: DataNull, Pos: e.KeyPos}
	}
	return e
}

// keyOf returns the text of a mapping key.
func keyOf(mv *ast.MappingValueNode) string {
	k := ast.Node(mv.Key)
	if mk, ok := k.(*ast.MappingKeyNode); ok {
		k = mk.Value
	}
	switch x := yamlpos.Unwrap(k).(type) {
	case *ast.StringNode:
		return x.Value
	case nil:
		return ""
	default:
		if tk := x.GetToken(); tk != nil {
			return tk.Value
		}
	}
	return ""
}

// quoteStyle is the quoting style of a scalar's token.
func quoteStyle(tk *token.Token) string {
	switch tk.Type {
	case token.DoubleQuoteType:
		return StyleDouble
	case token.SingleQuoteType:
		return StyleSingle
	}
	return StylePlain
}
