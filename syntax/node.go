package syntax

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/token"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/internal/yamlpos"
	"github.com/soni-dev/soni/values"
)

// Pos is where a value is written: a file, a 1-based line and a 1-based
// column counted in runes.
type Pos = diag.Pos

// Mode says how columns inside a scalar map to columns in the file.
type Mode uint8

// The scalar modes.
const (
	// ModeApprox: only the scalar's own position is known.
	ModeApprox Mode = iota
	// ModeInline: a one-line scalar whose characters sit on the line from Pos on.
	ModeInline
	// ModeBlock: a literal block scalar; line n of the value is line Pos.Line+n-1, starting at Pos.Col.
	ModeBlock
	// ModeMapped: a scalar whose characters do not sit one for one in the
	// file (escapes, folded lines): the Str holds the position of each rune.
	ModeMapped
)

// filePos is where one rune of a scalar's value is in the file.
type filePos struct{ line, col int32 }

// Str is a positioned string from the source: a scalar, a key or a name.
// Numbers and booleans read as strings are written as in the source.
type Str struct {
	// V is the value.
	V string
	// Pos is where the value starts (after an opening quote; the first
	// line of a literal block's text).
	Pos Pos
	// Path is the value's place in the document, such as
	// "flows.book.steps[2].message".
	Path string
	// Mode says how positions inside the value are found (see At).
	Mode Mode
	// Set is true when the value was present in the source or set by a
	// writer.
	Set bool
	// at holds the file position of each rune of V (ModeMapped only).
	at *[]filePos
}

// S returns a Str set by a writer: the value, with no position.
func S(v string) Str { return Str{V: v, Set: true} }

// At returns the position of the rune at line and col within the value
// (a 1-based line and a 0-based rune column) when the mode allows it, else
// Pos.
func (s Str) At(line, col int) Pos {
	switch s.Mode {
	case ModeInline:
		if line <= 1 {
			return Pos{File: s.Pos.File, Line: s.Pos.Line, Col: s.Pos.Col + col}
		}
	case ModeBlock:
		if line < 1 {
			line = 1
		}
		return Pos{File: s.Pos.File, Line: s.Pos.Line + line - 1, Col: s.Pos.Col + col}
	case ModeMapped:
		if s.at == nil || len(*s.at) == 0 {
			return s.Pos
		}
		at := *s.at
		off := runeOffset(s.V, line, col)
		if off >= len(at) {
			last := at[len(at)-1]
			return Pos{File: s.Pos.File, Line: int(last.line), Col: int(last.col) + 1}
		}
		return Pos{File: s.Pos.File, Line: int(at[off].line), Col: int(at[off].col)}
	}
	return s.Pos
}

// runeOffset converts a 1-based line and 0-based rune column within v to
// a rune offset.
func runeOffset(v string, line, col int) int {
	off, l := 0, 1
	for _, r := range v {
		if l >= line {
			break
		}
		off++
		if r == '\n' {
			l++
		}
	}
	return off + col
}

// Count is a whole number as written in the source: Set is true when the
// key was present, and Pos is where its value is.
type Count struct {
	V   int
	Set bool
	Pos Pos
}

// Comment is what a YAML file says about one node in comments.
type Comment struct {
	// Head are the comment lines written on their own lines before the
	// node, without their "# " (a blank comment line is "").
	Head []string
	// Line is the comment written after the node on its line, without
	// its "# ".
	Line string
	// Foot are the comment lines written after the node's last entry or
	// item, at their indentation (a list's closing remarks).
	Foot []string
}

// Comments are the comments of a node of the model (a flow, a step, a
// response...) and of the values inside it that are not nodes of their
// own, by path relative to the node: "" is the node itself, "message" its
// message key, "trigger.intents[1]" the second intent. A nil Comments has
// no comments.
type Comments map[string]*Comment

// Get returns the comment at a relative path, or nil.
func (c Comments) Get(rel string) *Comment {
	if c == nil {
		return nil
	}
	return c[rel]
}

// AddHead adds comment lines before the node at a relative path ("" for
// the node itself). A line holding a newline is written as several lines.
func (c *Comments) AddHead(rel string, lines ...string) {
	at := c.at(rel)
	for _, l := range lines {
		at.Head = append(at.Head, strings.Split(l, "\n")...)
	}
}

// SetLine sets the comment written after the node at a relative path, on
// its line.
func (c *Comments) SetLine(rel, text string) { c.at(rel).Line = text }

func (c *Comments) at(rel string) *Comment {
	if *c == nil {
		*c = Comments{}
	}
	at := (*c)[rel]
	if at == nil {
		at = &Comment{}
		(*c)[rel] = at
	}
	return at
}

// Entry is one entry of a mapping, as the Reader reads it.
type Entry struct {
	// Key is the key, whose Path is the entry's path.
	Key Str
	// Value is the entry's value node.
	Value ast.Node
	// Bool is true when the key is a YAML boolean (true, True, FALSE...).
	Bool bool
}

// Reader reads values out of one file's syntax tree. It is lenient:
// values of the wrong shape read as absent, because the schema reports
// them with a better message. It reports duplicate keys to Diags, and
// records where every key and block list item starts, so that the file's
// comments can be attached to them (see AttachComments).
type Reader struct {
	// File is the file's name, as positions give it.
	File string
	// Lines are the file's lines, for the positions inside block and
	// quoted scalars.
	Lines [][]byte
	// Anchors are the file's anchored nodes by name, which aliases stand for.
	Anchors map[string]ast.Node
	// Diags receives the problems the reader finds (duplicate keys).
	Diags *diag.List
	// SkipMarks leaves out the record of where keys and items start, which
	// only AttachComments needs (the compiler reads no comments).
	SkipMarks bool

	marks []mark
}

// mark is where a key or a block list item starts, and its path.
type mark struct {
	line, col int
	path      string
}

// NewReader returns a reader for a file's source and its anchored nodes
// (nil to collect them from body, which must then be given).
func NewReader(file string, src []byte, body ast.Node, anchors map[string]ast.Node, ds *diag.List) *Reader {
	if anchors == nil {
		anchors = map[string]ast.Node{}
		collectAnchors(body, anchors)
	}
	if ds == nil {
		ds = &diag.List{}
	}
	return &Reader{File: file, Lines: splitLines(src), Anchors: anchors, Diags: ds}
}

func splitLines(src []byte) [][]byte {
	var out [][]byte
	for len(src) > 0 {
		i := bytes.IndexByte(src, '\n')
		if i < 0 {
			out = append(out, src)
			break
		}
		out = append(out, src[:i])
		src = src[i+1:]
	}
	return out
}

// collectAnchors records the anchored nodes below n.
func collectAnchors(n ast.Node, into map[string]ast.Node) {
	if n == nil {
		return
	}
	ast.Walk(anchorVisitor(into), n)
}

type anchorVisitor map[string]ast.Node

func (v anchorVisitor) Visit(n ast.Node) ast.Visitor {
	if a, ok := n.(*ast.AnchorNode); ok && a.Name != nil {
		v[a.Name.GetToken().Value] = a.Value
	}
	return v
}

// Unwrap follows anchors, tags and aliases to the node that holds the value.
func (r *Reader) Unwrap(n ast.Node) ast.Node {
	for i := 0; i < 64 && n != nil; i++ {
		switch x := n.(type) {
		case *ast.AnchorNode:
			n = x.Value
		case *ast.TagNode:
			n = x.Value
		case *ast.AliasNode:
			if x.Value == nil {
				return nil
			}
			n = r.Anchors[x.Value.GetToken().Value]
		default:
			return n
		}
	}
	return n
}

// viaAlias reports whether n reaches its value through an alias, so that
// the value is written elsewhere in the file.
func viaAlias(n ast.Node) bool {
	for i := 0; i < 64 && n != nil; i++ {
		switch x := n.(type) {
		case *ast.AnchorNode:
			n = x.Value
		case *ast.TagNode:
			n = x.Value
		case *ast.AliasNode:
			return true
		default:
			return false
		}
	}
	return false
}

// Pos returns where a node starts.
func (r *Reader) Pos(n ast.Node) Pos { return yamlpos.NodePos(r.File, n) }

// Entries lists a mapping's entries in order, expanding merge keys and
// reporting duplicate keys with both positions. It returns nil for a node
// that is not a mapping.
func (r *Reader) Entries(n ast.Node, path string) []Entry {
	return r.entries(n, path, true)
}

// entries is Entries; mark says whether to record where the keys start.
func (r *Reader) entries(n ast.Node, path string, mark bool) []Entry {
	m, ok := r.Unwrap(n).(*ast.MappingNode)
	if !ok {
		return nil
	}
	out := make([]Entry, 0, len(m.Values))
	seen := make(map[string]Pos, len(m.Values))
	var merged []Entry
	for _, mv := range m.Values {
		if _, isMerge := mv.Key.(*ast.MergeKeyNode); isMerge {
			v := r.Unwrap(mv.Value)
			if seq, ok := v.(*ast.SequenceNode); ok {
				for _, item := range seq.Values {
					merged = append(merged, r.entries(item, path, mark)...)
				}
			} else {
				merged = append(merged, r.entries(v, path, mark)...)
			}
			continue
		}
		k := r.Str(mv.Key, "")
		k.Path = Join(path, k.V)
		if prev, dup := seen[k.V]; dup {
			r.Diags.Add(k.Pos, diag.CodeDuplicateKey, k.Path, "key %q is already defined at %d:%d: remove or rename one of the two, as YAML keeps only one", k.V, prev.Line, prev.Col)
			continue
		}
		seen[k.V] = k.Pos
		if mark && !m.IsFlowStyle && !viaAlias(n) {
			r.mark(r.Pos(mv.Key), k.Path)
		}
		_, isBool := r.Unwrap(mv.Key).(*ast.BoolNode)
		out = append(out, Entry{Key: k, Value: mv.Value, Bool: isBool})
	}
	for _, e := range merged {
		if _, dup := seen[e.Key.V]; !dup {
			seen[e.Key.V] = e.Key.Pos
			e.Key.Path = Join(path, e.Key.V)
			out = append(out, e)
		}
	}
	return out
}

func (r *Reader) mark(p Pos, path string) {
	if p.Line > 0 && !r.SkipMarks {
		r.marks = append(r.marks, mark{line: p.Line, col: p.Col, path: path})
	}
}

// Join returns the path of a key inside the value at path.
func Join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// Index returns the path of a list item inside the list at path.
func Index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// Items returns a sequence's items (empty, not nil, for an empty
// sequence), or nil for anything else.
func (r *Reader) Items(n ast.Node) []ast.Node {
	if s, ok := r.Unwrap(n).(*ast.SequenceNode); ok {
		if s.Values == nil {
			return []ast.Node{}
		}
		return s.Values
	}
	return nil
}

// ItemsAt returns a sequence's items (empty, not nil, for an empty
// sequence), recording where each block item starts under path (for
// comments), or nil for anything else.
func (r *Reader) ItemsAt(n ast.Node, path string) []ast.Node {
	s, ok := r.Unwrap(n).(*ast.SequenceNode)
	if !ok {
		return nil
	}
	if !s.IsFlowStyle && !viaAlias(n) {
		for i, it := range s.Values {
			r.mark(r.ItemPos(s, i, it), Index(path, i))
		}
	}
	if s.Values == nil {
		return []ast.Node{}
	}
	return s.Values
}

// ItemPos returns the position of a sequence item's '-' when there is one.
func (r *Reader) ItemPos(seq ast.Node, i int, item ast.Node) Pos {
	if s, ok := r.Unwrap(seq).(*ast.SequenceNode); ok && i < len(s.Entries) && s.Entries[i] != nil && s.Entries[i].Start != nil && s.Entries[i].Start.Position != nil {
		p := s.Entries[i].Start.Position
		return Pos{File: r.File, Line: p.Line, Col: p.Column}
	}
	return r.Pos(item)
}

// Scalar returns a scalar node's value as Go data: string, int64, uint64,
// float64, bool or nil. ok is false for collections.
func (r *Reader) Scalar(n ast.Node) (any, bool) {
	switch x := r.Unwrap(n).(type) {
	case nil, *ast.NullNode:
		return nil, true
	case *ast.StringNode:
		return x.Value, true
	case *ast.LiteralNode:
		return x.Value.Value, true
	case *ast.IntegerNode:
		switch v := x.Value.(type) {
		case int64:
			return v, true
		case uint64:
			return v, true
		}
		return x.Value, true
	case *ast.FloatNode:
		return x.Value, true
	case *ast.BoolNode:
		return x.Value, true
	case *ast.InfinityNode:
		return x.Value, true
	case *ast.NanNode:
		return x.GetToken().Value, true
	}
	return nil, false
}

// Str returns a scalar as a positioned string; numbers and booleans are
// written as in the source. Set is false for collections and nulls.
func (r *Reader) Str(n ast.Node, path string) Str {
	s := Str{Path: path, Pos: r.Pos(n)}
	u := r.Unwrap(n)
	switch x := u.(type) {
	case *ast.StringNode:
		s.V, s.Set = x.Value, true
		tk := x.GetToken()
		if tk != nil && tk.Position != nil {
			switch tk.Type {
			case token.DoubleQuoteType:
				s.Pos.Col++
				if !strings.ContainsAny(tk.Origin, "\\\n") {
					s.Mode = ModeInline
				}
			case token.SingleQuoteType:
				s.Pos.Col++
				if !strings.ContainsAny(tk.Origin, "\n") && !strings.Contains(tk.Value, "'") {
					s.Mode = ModeInline
				}
			default:
				if !strings.Contains(strings.TrimSpace(tk.Origin), "\n") {
					s.Mode = ModeInline
				}
			}
			if u != n {
				// Through an alias: positions are those of the anchor's value.
				s.Pos = r.Pos(x)
				if tk.Type == token.DoubleQuoteType || tk.Type == token.SingleQuoteType {
					s.Pos.Col++
				}
			}
			if s.Mode == ModeApprox {
				origin := tk.Origin
				if tk.Type == token.DoubleQuoteType {
					// goccy's Origin drops the digits of a \u escape:
					// read the string from the file.
					origin = r.quoted(tk.Position.Line, tk.Position.Column)
				}
				r.mapRunes(&s, origin, tk.Position.Line, tk.Position.Column)
			}
		}
	case *ast.LiteralNode:
		s.V, s.Set = x.Value.Value, true
		if x.Start != nil && x.Start.Position != nil && x.Start.Value != "" && x.Start.Value[0] == '|' {
			line := x.Start.Position.Line + 1
			if line-1 < len(r.Lines) {
				// The block's indentation: the first line with text in the
				// file, less the spaces the value keeps on it (more with an
				// indentation indicator such as |2).
				ind, k := 0, 0
				vlines := strings.Split(s.V, "\n")
				for ; k < len(vlines) && line-1+k < len(r.Lines); k++ {
					if strings.TrimSpace(vlines[k]) != "" {
						l := r.Lines[line-1+k]
						for ind < len(l) && l[ind] == ' ' {
							ind++
						}
						ind -= len(vlines[k]) - len(strings.TrimLeft(vlines[k], " "))
						break
					}
				}
				s.Pos = Pos{File: r.File, Line: line, Col: max(ind, 0) + 1}
				s.Mode = ModeBlock
			}
		} else if x.Start != nil && x.Start.Position != nil && x.Value != nil {
			// A folded block (>): its lines are joined, so each rune is
			// looked up in the block's text, which starts on the next line.
			if vt := x.Value.GetToken(); vt != nil {
				r.mapRunes(&s, vt.Origin, x.Start.Position.Line+1, 1)
			}
		}
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode:
		s.V, s.Set = x.GetToken().Value, true
		s.Mode = ModeInline
	}
	return s
}

// quoted returns the source text of the double-quoted string whose
// opening quote is at line:col (1-based; col counts runes), up to and
// including its closing quote, or "" when it cannot be read.
func (r *Reader) quoted(line, col int) string {
	if line < 1 || line > len(r.Lines) {
		return ""
	}
	var b strings.Builder
	first := []rune(string(r.Lines[line-1]))
	if col < 1 || col > len(first) || first[col-1] != '"' {
		return ""
	}
	b.WriteRune('"')
	esc := false
	rest := first[col:]
	for l := line; ; {
		for _, c := range rest {
			b.WriteRune(c)
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				return b.String()
			}
		}
		l++
		if l > len(r.Lines) {
			return ""
		}
		b.WriteByte('\n')
		esc = false
		rest = []rune(string(r.Lines[l-1]))
	}
}

// mapRunes gives s the file position of each rune of its value, for a
// scalar whose characters do not sit one for one in the file (escapes,
// folded or continued lines). origin is the scalar's source text; its
// first character that is not white space is at line:col. Each rune of the
// value that is not white space is found at the next equal character of
// the source; one that is not there (an escape such as \u00e9) takes the
// current place. White space takes the current place. Names, braces and
// operators, which diagnostics point at, are so found exactly.
func (r *Reader) mapRunes(s *Str, origin string, line, col int) {
	src := []rune(origin)
	i := 0
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	if i == len(src) {
		return
	}
	// Positions of the source runes from i on.
	pos := make([]filePos, len(src)-i)
	l, c := line, col
	for j := i; j < len(src); j++ {
		pos[j-i] = filePos{int32(l), int32(c)}
		if src[j] == '\n' {
			l, c = l+1, 1
		} else {
			c++
		}
	}
	src = src[i:]
	at := make([]filePos, 0, len(s.V))
	cur := 0
	for _, ch := range s.V {
		if ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' {
			at = append(at, pos[min(cur, len(pos)-1)])
			continue
		}
		j := cur
		for j < len(src) && src[j] != ch {
			j++
		}
		if j < len(src) {
			at = append(at, pos[j])
			cur = j + 1
			continue
		}
		at = append(at, pos[min(cur, len(pos)-1)])
	}
	s.at = &at
	s.Mode = ModeMapped
}

// Bool returns a scalar bool (false for anything else).
func (r *Reader) Bool(n ast.Node) bool {
	v, _ := r.Scalar(n)
	b, _ := v.(bool)
	return b
}

// Number returns a scalar number.
func (r *Reader) Number(n ast.Node) (float64, bool) {
	v, _ := r.Scalar(n)
	return values.Float64(v)
}

// Count reads a whole number and where it is written; a value that is
// not a whole number (the schema reports it) reads as not set.
func (r *Reader) Count(n ast.Node) Count {
	f, ok := r.Number(n)
	if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<31 {
		return Count{}
	}
	return Count{V: int(f), Set: true, Pos: r.Pos(n)}
}

// StrList reads a list of strings; a single string counts as a list of one.
func (r *Reader) StrList(n ast.Node, path string) []Str {
	items := r.ItemsAt(n, path)
	if items == nil {
		if s := r.Str(n, path); s.Set {
			return []Str{s}
		}
		return nil
	}
	out := make([]Str, 0, len(items))
	for i, it := range items {
		if s := r.Str(it, Index(path, i)); s.Set {
			out = append(out, s)
		}
	}
	return out
}

// Generic converts any node to Go data: the scalars of Scalar,
// []any and map[string]any.
func (r *Reader) Generic(n ast.Node) any { return r.generic(n, "", false) }

// GenericAt is Generic for the value at path, recording where its keys
// and block list items start (for comments).
func (r *Reader) GenericAt(n ast.Node, path string) any { return r.generic(n, path, true) }

func (r *Reader) generic(n ast.Node, path string, mark bool) any {
	if v, ok := r.Scalar(n); ok {
		return v
	}
	var items []ast.Node
	if mark {
		items = r.ItemsAt(n, path)
	} else {
		items = r.Items(n)
	}
	if items != nil {
		out := make([]any, len(items))
		for i, it := range items {
			out[i] = r.generic(it, Index(path, i), mark)
		}
		return out
	}
	m := map[string]any{}
	for _, e := range r.entries(n, path, mark) {
		m[e.Key.V] = r.generic(e.Value, e.Key.Path, mark)
	}
	return m
}

// AttachComments reads the comments of src and gives each to the key or
// block list item the Reader has read that it belongs to: a comment on
// its own line goes to the first key or item that starts on a later line,
// a comment after a value to the innermost key or item on its line.
// Comments after the last key are the file's foot. It returns the
// comments by the path of their node ("" for the document itself).
func (r *Reader) AttachComments(src []byte) (byPath map[string]*Comment, foot []string) {
	marks := r.marks
	sort.SliceStable(marks, func(i, j int) bool {
		if marks[i].line != marks[j].line {
			return marks[i].line < marks[j].line
		}
		return marks[i].col < marks[j].col
	})
	byPath = map[string]*Comment{}
	get := func(path string) *Comment {
		c := byPath[path]
		if c == nil {
			c = &Comment{}
			byPath[path] = c
		}
		return c
	}
	lastLine := 0
	for _, tk := range lexer.Tokenize(string(src)) {
		if tk.Type != token.CommentType || tk.Position == nil {
			continue
		}
		text := strings.TrimPrefix(strings.TrimPrefix(tk.Value, "#"), " ")
		line := tk.Position.Line
		if line == lastLine {
			continue
		}
		lastLine = line
		own := r.ownLine(line, tk.Position.Column)
		if !own {
			// The innermost mark on this line before the comment.
			k := sort.Search(len(marks), func(i int) bool { return marks[i].line >= line })
			best := -1
			for ; k < len(marks) && marks[k].line == line; k++ {
				if marks[k].col < tk.Position.Column {
					best = k
				}
			}
			if best >= 0 {
				c := get(marks[best].path)
				if c.Line != "" {
					c.Line += "; "
				}
				c.Line += text
				continue
			}
		}
		k := sort.Search(len(marks), func(i int) bool { return marks[i].line > line })
		col := tk.Position.Column
		if k == len(marks) || marks[k].col < col {
			// Indented deeper than what follows: the foot of the
			// collection that holds the last node at its indentation.
			if parent, ok := footOf(marks[:k], col); ok && parent != "" {
				c := get(parent)
				c.Foot = append(c.Foot, text)
				continue
			}
		}
		if k == len(marks) {
			foot = append(foot, text)
			continue
		}
		c := get(marks[k].path)
		c.Head = append(c.Head, text)
	}
	return byPath, foot
}

// footOf returns the path of the collection a comment at column col
// ends: the parent of the last of before (the marks before it) that starts
// at that column. ok is false when no such mark is open.
func footOf(before []mark, col int) (string, bool) {
	for i := len(before) - 1; i >= 0; i-- {
		m := before[i]
		if m.col < col {
			return "", false
		}
		if m.col == col {
			return parentPath(m.path), true
		}
	}
	return "", false
}

// parentPath returns the path of the collection that holds the value at path.
func parentPath(path string) string {
	if strings.HasSuffix(path, "]") {
		if i := strings.LastIndexByte(path, '['); i >= 0 {
			return path[:i]
		}
	}
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[:i]
	}
	return ""
}

// ownLine reports whether only white space comes before column col of a line.
func (r *Reader) ownLine(line, col int) bool {
	if line < 1 || line > len(r.Lines) {
		return true
	}
	rs := []rune(string(r.Lines[line-1]))
	for i := 0; i < col-1 && i < len(rs); i++ {
		if rs[i] != ' ' && rs[i] != '\t' {
			return false
		}
	}
	return true
}

// Map is a mapping of the writer tree, whose keys keep their order.
type Map struct {
	Entries []MapEntry
	// Flow writes the mapping on one line, {a: 1, b: 2}, when its values
	// are scalars and none has a comment.
	Flow bool
	// Tail are comments written after the last entry.
	Tail []string
}

// MapEntry is one key of a Map.
type MapEntry struct {
	Key string
	// Value is a scalar (string, Raw, bool, int, int64, uint64, float64,
	// nil), a *Map or a *Seq.
	Value any
	// Comments are written on their own lines before the entry.
	Comments []string
	// Trailing is written after the entry's key line ("# soni:ignore ...").
	Trailing string
}

// Seq is a list of the writer tree.
type Seq struct {
	Items []SeqItem
	// Flow writes the list on one line, [a, b], when its items are
	// scalars and none has a comment.
	Flow bool
	// Tail are comments written after the last item.
	Tail []string
}

// SeqItem is one item of a Seq.
type SeqItem struct {
	Value any
	// Comments are written on their own lines before the item.
	Comments []string
	// Trailing is written after the item's first line.
	Trailing string
}

// Raw is a scalar written as it is.
type Raw string

// Add appends an entry and returns it, for its comments.
func (m *Map) Add(key string, val any) *MapEntry {
	m.Entries = append(m.Entries, MapEntry{Key: key, Value: val})
	return &m.Entries[len(m.Entries)-1]
}

// Get returns the value of a key, or nil.
func (m *Map) Get(key string) any {
	for _, e := range m.Entries {
		if e.Key == key {
			return e.Value
		}
	}
	return nil
}

// Add appends an item with the comments written before it.
func (s *Seq) Add(val any, comments ...string) *SeqItem {
	s.Items = append(s.Items, SeqItem{Value: val, Comments: comments})
	return &s.Items[len(s.Items)-1]
}

// plain matches the strings written without quotes.
var plain = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_./-]*$`) })

// Quote writes a string scalar: plain when it is a simple word that YAML
// reads back as the same string, else double-quoted.
func Quote(s string) string {
	if plain().MatchString(s) {
		switch strings.ToLower(s) {
		case "true", "false", "yes", "no", "on", "off", "y", "n", "null", "nan", "inf":
		default:
			return s
		}
	}
	return strconv.Quote(s)
}

// Scalar writes a scalar value of the writer tree.
func Scalar(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return Quote(x)
	case Raw:
		return string(x)
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case float64:
		if math.IsInf(x, 1) {
			return ".inf"
		} else if math.IsInf(x, -1) {
			return "-.inf"
		} else if math.IsNaN(x) {
			return ".nan"
		}
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return strconv.Quote(fmt.Sprint(v))
}

// Emit writes a document: the header comments, then a top-level mapping.
func Emit(m *Map, header []string) []byte {
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
func writeMap(b *strings.Builder, m *Map, indent string) {
	for _, e := range m.Entries {
		for _, c := range e.Comments {
			writeComment(b, indent, c)
		}
		b.WriteString(indent)
		writeEntry(b, e, indent)
	}
	for _, c := range m.Tail {
		writeComment(b, indent, c)
	}
}

// writeEntry writes "key: value" (the indent already written).
func writeEntry(b *strings.Builder, e MapEntry, indent string) {
	b.WriteString(Quote(e.Key))
	b.WriteString(":")
	trailing := ""
	if e.Trailing != "" {
		trailing = "  # " + e.Trailing
	}
	if inline, ok := inlineValue(e.Value); ok {
		b.WriteString(" ")
		b.WriteString(inline)
		b.WriteString(trailing)
		b.WriteString("\n")
		return
	}
	b.WriteString(trailing)
	b.WriteString("\n")
	switch x := e.Value.(type) {
	case *Map:
		writeMap(b, x, indent+"  ")
	case *Seq:
		writeSeq(b, x, indent+"  ")
	}
}

// inlineValue returns a value written on its key's line.
func inlineValue(v any) (string, bool) {
	switch x := v.(type) {
	case *Map:
		if len(x.Entries) == 0 {
			return "{}", true
		}
		if !x.Flow || len(x.Tail) > 0 {
			return "", false
		}
		parts := make([]string, 0, len(x.Entries))
		for _, e := range x.Entries {
			s, ok := inlineValue(e.Value)
			if !ok || len(e.Comments) > 0 || e.Trailing != "" {
				return "", false
			}
			parts = append(parts, Quote(e.Key)+": "+s)
		}
		return "{" + strings.Join(parts, ", ") + "}", true
	case *Seq:
		if len(x.Items) == 0 && len(x.Tail) == 0 {
			return "[]", true
		}
		if !x.Flow || len(x.Tail) > 0 {
			return "", false
		}
		parts := make([]string, 0, len(x.Items))
		for _, it := range x.Items {
			s, ok := inlineValue(it.Value)
			if !ok || len(it.Comments) > 0 || it.Trailing != "" {
				return "", false
			}
			parts = append(parts, s)
		}
		return "[" + strings.Join(parts, ", ") + "]", true
	}
	return Scalar(v), true
}

// writeSeq writes the items of s, each "- " at indent.
func writeSeq(b *strings.Builder, s *Seq, indent string) {
	for _, it := range s.Items {
		for _, c := range it.Comments {
			writeComment(b, indent, c)
		}
		b.WriteString(indent)
		b.WriteString("-")
		if inline, ok := inlineValue(it.Value); ok {
			b.WriteString(" ")
			b.WriteString(inline)
			if it.Trailing != "" {
				b.WriteString("  # " + it.Trailing)
			}
			b.WriteString("\n")
			continue
		}
		switch x := it.Value.(type) {
		case *Map:
			// The first entry goes on the dash's line; the others are
			// indented under it. A comment before the first entry, or one
			// after the dash, goes on its own line, under the dash.
			for i, e := range x.Entries {
				if i == 0 {
					if len(e.Comments) > 0 || it.Trailing != "" {
						if it.Trailing != "" {
							b.WriteString("  # " + it.Trailing)
						}
						b.WriteString("\n")
						for _, c := range e.Comments {
							writeComment(b, indent+"  ", c)
						}
						b.WriteString(indent + "  ")
					} else {
						b.WriteString(" ")
					}
					writeEntry(b, e, indent+"  ")
					continue
				}
				for _, c := range e.Comments {
					writeComment(b, indent+"  ", c)
				}
				b.WriteString(indent + "  ")
				writeEntry(b, e, indent+"  ")
			}
			for _, c := range x.Tail {
				writeComment(b, indent+"  ", c)
			}
		case *Seq:
			if it.Trailing != "" {
				b.WriteString("  # " + it.Trailing)
			}
			b.WriteString("\n")
			writeSeq(b, x, indent+"  ")
		}
	}
	for _, c := range s.Tail {
		writeComment(b, indent, c)
	}
}
