// Package yamlsubset parses the plain subset of YAML that conversation test
// files are written in straight into the tree goccy/go-yaml's parser gives,
// several times faster and with a fraction of its allocations.
//
// The subset is a block mapping at the top, block mappings and lists
// (compact "- key: value" entries included), scalars on one line (plain,
// single-quoted, and double-quoted with the escapes \" \\ \/ \n \t), flow
// mappings and lists on one line, comments and blank lines. Parse refuses
// (ok false) anything else: tabs, document markers and directives,
// anchors, aliases, tags, block scalars (| and >), scalars over several
// lines, empty values, quoted or complex keys, duplicate keys, and
// whatever else the subset does not cover; the caller then parses with
// goccy/go-yaml, which also reports the errors. A document in the subset
// gives the tree the library gives, as far as a reader can see: the node
// kinds and flow styles, scalar values, and the type, value, line and
// column of every token (TestSameTreeAsGoccy and FuzzSameTreeAsGoccy hold
// both parsers to that). Node paths and comments are not kept.
package yamlsubset

import (
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// maxDepth bounds the nesting Parse follows; deeper documents are left to
// the library.
const maxDepth = 64

// Parse parses a document of the subset. Its scalars' values are
// substrings of text.
func Parse(text string) (f *ast.File, ok bool) {
	return new(Parser).Parse(text)
}

// Parser parses documents of the subset into memory it keeps from one
// parse to the next: each Parse reuses the nodes and tokens of the tree
// the previous one returned, which must no longer be in use. Reading many
// pieces of a file one after another then touches the memory of one
// piece's tree, not of the file's.
type Parser struct{ p parser }

// Parse is [Parse], in the parser's memory.
func (ps *Parser) Parse(text string) (f *ast.File, ok bool) {
	return ps.ParseSkipping(text, 0, 0)
}

// ParseSkipping is [Parser.Parse] of text with skip blank lines inserted
// before its line at (counted from 0): the tree's lines and columns are
// those, without the blank lines having to be written out. Offsets stay
// those of text. A piece of a file that is parsed on its own, after the
// file's header, keeps the lines it has in the file that way.
func (ps *Parser) ParseSkipping(text string, at, skip int) (f *ast.File, ok bool) {
	if strings.ContainsAny(text, "\t\r\x00") || !utf8.ValidString(text) || skip < 0 {
		return nil, false
	}
	p := &ps.p
	p.reset(text)
	p.skipAt, p.skip = at, skip
	if !p.split() {
		return nil, false
	}
	defer func() {
		if r := recover(); r != nil {
			if _, out := r.(outside); !out {
				panic(r)
			}
			f, ok = nil, false
		}
	}()
	if len(p.lines) == 0 || p.lines[0].indent != 0 {
		return nil, false
	}
	body, j := p.node(0, 0)
	if _, isMap := body.(*ast.MappingNode); !isMap || j != len(p.lines) {
		return nil, false
	}
	return &ast.File{Docs: []*ast.DocumentNode{ast.Document(nil, body)}}, true
}

// outside is the panic that unwinds a parse that left the subset.
type outside struct{}

func fail() { panic(outside{}) }

// line is a line with content: neither blank nor only a comment, which
// the subset never needs to see.
type line struct {
	no         int // counted from 0
	start, end int // the line's bytes in the text, without the '\n'
	indent     int // spaces before its first character
}

type parser struct {
	s     string
	lines []line
	depth int
	// The lines from skipAt on are numbered skip further (ParseSkipping).
	skipAt, skip int

	tokens  slab[token.Token]
	pos     slab[token.Position]
	bases   slab[ast.BaseNode]
	strs    slab[ast.StringNode]
	pairs   slab[ast.MappingValueNode]
	maps    slab[ast.MappingNode]
	seqs    slab[ast.SequenceNode]
	entries slab[ast.SequenceEntryNode]

	// A block collection's items are gathered on a stack (collections
	// nest) and its lists cut, at their final length, out of blocks
	// that the next parse reuses too.
	pairStack  []*ast.MappingValueNode
	nodeStack  []ast.Node
	entryStack []*ast.SequenceEntryNode
	pairLists  lists[*ast.MappingValueNode]
	nodeLists  lists[ast.Node]
	entryLists lists[*ast.SequenceEntryNode]
	comments   lists[*ast.CommentGroupNode]
}

// reset makes the parser ready to parse text, reusing its memory.
func (p *parser) reset(text string) {
	p.s, p.lines, p.depth = text, p.lines[:0], 0
	p.tokens.reset()
	p.pos.reset()
	p.bases.reset()
	p.strs.reset()
	p.pairs.reset()
	p.maps.reset()
	p.seqs.reset()
	p.entries.reset()
	p.pairStack, p.nodeStack, p.entryStack = p.pairStack[:0], p.nodeStack[:0], p.entryStack[:0]
	p.pairLists.reset()
	p.nodeLists.reset()
	p.entryLists.reset()
	p.comments.reset()
}

// slab hands out values allocated in blocks, which reset hands out again.
// Every value is assigned whole when it is handed out.
type slab[T any] struct {
	blocks [][]T
	block  int // the block values are handed out from
	used   int // the values handed out of it
}

func (s *slab[T]) new() *T {
	if s.block == len(s.blocks) || s.used == len(s.blocks[s.block]) {
		if s.block < len(s.blocks) {
			s.block++
		}
		if s.block == len(s.blocks) {
			n := 16
			if s.block > 0 {
				n = min(2*len(s.blocks[s.block-1]), 1024)
			}
			s.blocks = append(s.blocks, make([]T, n))
		}
		s.used = 0
	}
	s.used++
	return &s.blocks[s.block][s.used-1]
}

func (s *slab[T]) reset() { s.block, s.used = 0, 0 }

// lists hands out slices cut from blocks, which reset hands out again.
type lists[T any] struct {
	blocks [][]T
	block  int // the block slices are cut from
	used   int // the values of it handed out
}

// copy returns a copy of items in the blocks' memory, with no room to
// append in place.
func (l *lists[T]) copy(items []T) []T {
	out := l.cut(len(items))
	copy(out, items)
	return out
}

// zeros returns n zero values in the blocks' memory, with no room to
// append in place.
func (l *lists[T]) zeros(n int) []T {
	out := l.cut(n)
	clear(out)
	return out
}

func (l *lists[T]) cut(n int) []T {
	for l.block < len(l.blocks) && l.used+n > len(l.blocks[l.block]) {
		l.block++
		l.used = 0
	}
	if l.block == len(l.blocks) {
		size := 256
		if l.block > 0 {
			size = min(2*len(l.blocks[l.block-1]), 4096)
		}
		l.blocks = append(l.blocks, make([]T, max(size, n)))
		l.used = 0
	}
	out := l.blocks[l.block][l.used : l.used+n : l.used+n]
	l.used += n
	return out
}

func (l *lists[T]) reset() { l.block, l.used = 0, 0 }

// split cuts the text into lines; it reports false for a document marker
// or a directive.
func (p *parser) split() bool {
	s := p.s
	for no, start := 0, 0; start <= len(s); no++ {
		end := strings.IndexByte(s[start:], '\n')
		if end < 0 {
			end = len(s)
		} else {
			end += start
		}
		l := line{no: no, start: start, end: end}
		if no >= p.skipAt {
			l.no += p.skip
		}
		for l.start+l.indent < end && s[l.start+l.indent] == ' ' {
			l.indent++
		}
		body := s[l.start+l.indent : end]
		if l.indent == 0 && (strings.HasPrefix(body, "---") || strings.HasPrefix(body, "...") || strings.HasPrefix(body, "%")) {
			return false
		}
		if body != "" && body[0] != '#' {
			p.lines = append(p.lines, l)
		}
		if end == len(s) {
			break
		}
		start = end + 1
	}
	return true
}

// rest is line i from byte off of the line on.
func (p *parser) rest(i, off int) string {
	l := p.lines[i]
	return p.s[l.start+off : l.end]
}

// position is where byte off of line i is, as the library counts: lines
// from 1, columns in characters from 1.
func (p *parser) position(i, off int) *token.Position {
	l := p.lines[i]
	col := off + 1
	if prefix := p.s[l.start : l.start+off]; !ascii(prefix) {
		col = utf8.RuneCountInString(prefix) + 1
	}
	pos := p.pos.new()
	*pos = token.Position{Line: l.no + 1, Column: col, Offset: l.start + off + 1}
	return pos
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		fail()
	}
}

// isEntry reports whether s starts a block list entry.
func isEntry(s string) bool {
	return s != "" && s[0] == '-' && (len(s) == 1 || s[1] == ' ')
}

// keyEnd returns where the ':' that ends a block mapping key is in s, or
// -1 when s is no key.
func keyEnd(s string) int {
	for k := 0; k < len(s); k++ {
		switch s[k] {
		case ':':
			if k+1 == len(s) || s[k+1] == ' ' {
				return k
			}
		case '#':
			if k > 0 && s[k-1] == ' ' {
				return -1
			}
		}
	}
	return -1
}

// node parses the block node that starts at byte off of line i, and
// returns it with the next line with content after it.
func (p *parser) node(i, off int) (ast.Node, int) {
	p.enter()
	defer func() { p.depth-- }()
	rest := p.rest(i, off)
	switch {
	case isEntry(rest):
		return p.sequence(i, off)
	case rest[0] == '{' || rest[0] == '[' || rest[0] == '"' || rest[0] == '\'':
	case keyEnd(rest) >= 0:
		return p.mapping(i, off)
	}
	return p.inline(i, off), i + 1
}

// mapping parses a block mapping whose first key starts at byte off of
// line i.
func (p *parser) mapping(i, off int) (ast.Node, int) {
	m := p.maps.new()
	*m = ast.MappingNode{BaseNode: p.bases.new()}
	base := len(p.pairStack)
	var seen map[string]bool
	for {
		rest := p.rest(i, off)
		k := keyEnd(rest)
		if k <= 0 {
			fail()
		}
		key := p.key(i, off, rest[:k])
		if pairs := p.pairStack[base:]; len(pairs) < 16 {
			for _, mv := range pairs {
				if mv.Key.GetToken().Value == key.GetToken().Value {
					fail() // the library reports the duplicate
				}
			}
		} else {
			// Long mappings look duplicates up in a set.
			if seen == nil {
				seen = map[string]bool{}
				for _, mv := range pairs {
					seen[mv.Key.GetToken().Value] = true
				}
			}
			if seen[key.GetToken().Value] {
				fail()
			}
			seen[key.GetToken().Value] = true
		}
		colon := p.token(token.MappingValueType, ":", i, off+k)
		var value ast.Node
		var next int
		v := off + k + 1
		for v < len(rest)+off && rest[v-off] == ' ' {
			v++
		}
		if v == len(rest)+off || rest[v-off] == '#' {
			// The value is on the lines below: more indented, or a list
			// at the key's indentation.
			j := i + 1
			switch {
			case j < len(p.lines) && p.lines[j].indent > off:
				value, next = p.node(j, p.lines[j].indent)
			case j < len(p.lines) && p.lines[j].indent == off && isEntry(p.rest(j, off)):
				value, next = p.sequence(j, off)
			default:
				fail() // an empty value, whose position the library makes up
			}
		} else {
			value, next = p.inline(i, v), i+1
		}
		if m.Start == nil {
			m.Start = colon
		}
		mv := p.pairs.new()
		*mv = ast.MappingValueNode{BaseNode: p.bases.new(), Start: colon, Key: key, Value: value}
		p.pairStack = append(p.pairStack, mv)
		if next == len(p.lines) || p.lines[next].indent < off {
			m.Values = p.pairLists.copy(p.pairStack[base:])
			p.pairStack = p.pairStack[:base]
			return m, next
		}
		if p.lines[next].indent > off || isEntry(p.rest(next, off)) {
			fail()
		}
		i = next
	}
}

// key makes the node of a block mapping key.
func (p *parser) key(i, off int, text string) ast.MapKeyNode {
	if !plainKey(text) {
		fail()
	}
	n, ok := p.scalar(i, off, text, text).(ast.MapKeyNode)
	if !ok {
		fail()
	}
	return n
}

// plainKey reports whether a key is written in the characters the subset
// takes: letters, digits and _ - / : (no ':' first), and no character the
// library's duplicate check reads as a path.
func plainKey(s string) bool {
	if s[0] == ':' || s[0] == '-' {
		return false
	}
	for k := 0; k < len(s); k++ {
		c := s[k]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '/' || c == ':') {
			return false
		}
	}
	return true
}

// sequence parses a block list whose first '-' is at byte off of line i.
func (p *parser) sequence(i, off int) (ast.Node, int) {
	s := p.seqs.new()
	*s = ast.SequenceNode{BaseNode: p.bases.new()}
	base := len(p.nodeStack)
	// done gives the list its items.
	done := func() {
		s.Values = p.nodeLists.copy(p.nodeStack[base:])
		s.Entries = p.entryLists.copy(p.entryStack[base:])
		s.ValueHeadComments = p.comments.zeros(len(s.Values))
		p.nodeStack, p.entryStack = p.nodeStack[:base], p.entryStack[:base]
	}
	for {
		dash := p.token(token.SequenceEntryType, "-", i, off)
		if s.Start == nil {
			s.Start = dash
		}
		rest := p.rest(i, off)
		v := 1
		for v < len(rest) && rest[v] == ' ' {
			v++
		}
		var value ast.Node
		var next int
		if v == len(rest) || rest[v] == '#' {
			j := i + 1
			if j == len(p.lines) || p.lines[j].indent <= off {
				fail() // an empty entry
			}
			value, next = p.node(j, p.lines[j].indent)
		} else {
			if isEntry(rest[v:]) {
				fail() // "- - x"
			}
			value, next = p.node(i, off+v)
		}
		e := p.entries.new()
		*e = ast.SequenceEntryNode{BaseNode: p.bases.new(), Start: dash, Value: value}
		p.nodeStack = append(p.nodeStack, value)
		p.entryStack = append(p.entryStack, e)
		if next == len(p.lines) || p.lines[next].indent < off {
			done()
			return s, next
		}
		if p.lines[next].indent > off {
			fail()
		}
		if !isEntry(p.rest(next, off)) {
			// The next key of the mapping this list is the value of.
			done()
			return s, next
		}
		i = next
	}
}

// inline parses a scalar or a flow collection that starts at byte off of
// line i and takes the rest of the line, but for a comment.
func (p *parser) inline(i, off int) ast.Node {
	rest := p.rest(i, off)
	var n ast.Node
	var end int
	switch rest[0] {
	case '{', '[':
		n, end = p.flow(i, off, 0)
	case '"', '\'':
		n, end = p.quoted(i, off)
	default:
		text, _ := plain(rest, false)
		return p.scalar(i, off, text, text)
	}
	tail := rest[end:]
	trimmed := strings.TrimLeft(tail, " ")
	if trimmed != "" && (trimmed[0] != '#' || len(trimmed) == len(tail)) {
		fail() // a quoted key, or more after the value
	}
	return n
}

// plain returns the plain scalar at the start of s and where it ends: at
// the end of the line or a comment in a block, before the ',' ']' or '}'
// that ends it in a flow collection.
func plain(s string, flow bool) (text string, end int) {
	c := s[0]
	if strings.IndexByte("?:,[]{}#&*!|>'\"%@`", c) >= 0 || c == '-' && (len(s) == 1 || strings.IndexByte(" ,[]{}#", s[1]) >= 0) {
		fail() // an indicator
	}
	end = len(s)
	for k := 1; k < len(s); k++ {
		switch s[k] {
		case '#':
			if s[k-1] == ' ' {
				if flow {
					fail()
				}
				end = k
			}
		case ':':
			// "a: b: c" or "a:" as a value; in a flow, any ':'.
			if flow || k+1 == len(s) || s[k+1] == ' ' {
				fail()
			}
		case ',', '[', ']', '{', '}':
			if flow {
				end = k
			}
		}
		if end < len(s) {
			break
		}
	}
	text = strings.TrimRight(s[:end], " ")
	if !flow && end == len(s) && len(text) < end {
		fail() // spaces at the end of the line, which move the library's column
	}
	return text, end
}

// scalar makes the node of a plain scalar, typed as the library types it.
func (p *parser) scalar(i, off int, value, origin string) ast.Node {
	pos := p.position(i, off)
	tk := p.tokens.new()
	if c := value[0]; ('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') && !keyword(value) {
		// No number or keyword starts with a letter.
		*tk = token.Token{Type: token.StringType, CharacterType: token.CharacterTypeMiscellaneous, Indicator: token.NotIndicator, Value: value, Origin: origin, Position: pos}
	} else {
		*tk = *token.New(value, origin, pos)
	}
	switch tk.Type {
	case token.StringType:
		return p.str(tk)
	case token.NullType:
		return ast.Null(tk)
	case token.BoolType:
		return ast.Bool(tk)
	case token.IntegerType, token.BinaryIntegerType, token.OctetIntegerType, token.HexIntegerType:
		return ast.Integer(tk)
	case token.FloatType:
		return ast.Float(tk)
	case token.InfinityType:
		return ast.Infinity(tk)
	case token.NanType:
		return ast.Nan(tk)
	}
	fail() // "<<" and whatever else the library makes more of
	return nil
}

// keyword reports whether a word is one of the null and boolean words.
func keyword(s string) bool {
	switch s {
	case "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE":
		return true
	}
	return false
}

func (p *parser) str(tk *token.Token) *ast.StringNode {
	n := p.strs.new()
	*n = ast.StringNode{BaseNode: p.bases.new(), Token: tk, Value: tk.Value}
	return n
}

// token makes an indicator's token at byte off of line i.
func (p *parser) token(typ token.Type, value string, i, off int) *token.Token {
	tk := p.tokens.new()
	ind := token.BlockStructureIndicator
	if typ != token.SequenceEntryType && typ != token.MappingValueType {
		ind = token.FlowCollectionIndicator
	}
	*tk = token.Token{Type: typ, CharacterType: token.CharacterTypeIndicator, Indicator: ind, Value: value, Origin: value, Position: p.position(i, off)}
	return tk
}

// quoted parses the quoted scalar at byte off of line i, and returns it
// with the offset past its closing quote in the rest of the line.
func (p *parser) quoted(i, off int) (ast.Node, int) {
	rest := p.rest(i, off)
	q := rest[0]
	var b strings.Builder
	from := 1 // the start of the text not yet copied to b
	for k := 1; k < len(rest); k++ {
		c := rest[k]
		switch {
		case c == q && q == '\'' && k+1 < len(rest) && rest[k+1] == '\'':
			b.WriteString(rest[from : k+1])
			k++
			from = k + 1
		case c == q:
			value := rest[1:k]
			if b.Len() > 0 || from > 1 {
				b.WriteString(rest[from:k])
				value = b.String()
			}
			tk := p.tokens.new()
			typ := token.DoubleQuoteType
			if q == '\'' {
				typ = token.SingleQuoteType
			}
			*tk = token.Token{Type: typ, CharacterType: token.CharacterTypeIndicator, Indicator: token.QuotedScalarIndicator, Value: value, Origin: rest[:k+1], Position: p.position(i, off)}
			return p.str(tk), k + 1
		case c == '\\' && q == '"':
			if k+1 == len(rest) {
				fail()
			}
			var r string
			switch rest[k+1] {
			case '"', '\\', '/':
				r = rest[k+1 : k+2]
			case 'n':
				r = "\n"
			case 't':
				r = "\t"
			default:
				fail()
			}
			b.WriteString(rest[from:k])
			b.WriteString(r)
			k++
			from = k + 1
		}
	}
	fail() // a quoted scalar over several lines
	return nil, 0
}

// pairColon returns where the ':' of a "key: value" pair at the start of
// a flow list's item is, or -1.
func pairColon(s string) int {
	if s[0] == '{' || s[0] == '[' || s[0] == '"' || s[0] == '\'' {
		return -1
	}
	k := strings.IndexAny(s, ",[]{}:")
	if k < 0 || s[k] != ':' || k+1 == len(s) || s[k+1] != ' ' {
		return -1
	}
	return k
}

// flow parses the flow mapping or list at byte off of line i, and returns
// it with the offset past its end in the rest of the line at off.
func (p *parser) flow(i, off, depth int) (ast.Node, int) {
	if depth > maxDepth {
		fail()
	}
	rest := p.rest(i, off)
	skip := func(k int) int {
		for k < len(rest) && rest[k] == ' ' {
			k++
		}
		if k == len(rest) {
			fail() // a flow collection over several lines
		}
		return k
	}
	// value parses the value at k and returns the offset after it and
	// the spaces that follow.
	value := func(k int) (ast.Node, int) {
		var n ast.Node
		switch rest[k] {
		case '{', '[':
			var end int
			n, end = p.flow(i, off+k, depth+1)
			k += end
		case '"', '\'':
			var end int
			n, end = p.quoted(i, off+k)
			k += end
		default:
			text, end := plain(rest[k:], true)
			n = p.scalar(i, off+k, text, text)
			k += end
		}
		return n, skip(k)
	}
	if rest[0] == '[' {
		s := p.seqs.new()
		*s = ast.SequenceNode{BaseNode: p.bases.new(), Start: p.token(token.SequenceStartType, "[", i, off), IsFlowStyle: true, Values: []ast.Node{}}
		k := skip(1)
		var comma *token.Token
		for rest[k] != ']' {
			var v ast.Node
			var after int
			if c := pairColon(rest[k:]); c > 0 {
				// A single pair: a block-style mapping of one key.
				key := p.key(i, off+k, rest[k:k+c])
				colon := p.token(token.MappingValueType, ":", i, off+k+c)
				var pv ast.Node
				pv, after = value(skip(k + c + 1))
				mv := p.pairs.new()
				*mv = ast.MappingValueNode{BaseNode: p.bases.new(), Start: colon, Key: key, Value: pv}
				m := p.maps.new()
				*m = ast.MappingNode{BaseNode: p.bases.new(), Start: colon, Values: []*ast.MappingValueNode{mv}}
				v = m
			} else {
				v, after = value(k)
			}
			e := p.entries.new()
			*e = ast.SequenceEntryNode{BaseNode: p.bases.new(), Start: comma, Value: v}
			s.Values = append(s.Values, v)
			s.Entries = append(s.Entries, e)
			k = after
			switch rest[k] {
			case ',':
				comma = p.token(token.CollectEntryType, ",", i, off+k)
				if k = skip(k + 1); rest[k] == ']' {
					fail() // a trailing comma
				}
			case ']':
			default:
				fail()
			}
		}
		s.End = p.token(token.SequenceEndType, "]", i, off+k)
		return s, k + 1
	}
	m := p.maps.new()
	*m = ast.MappingNode{BaseNode: p.bases.new(), Start: p.token(token.MappingStartType, "{", i, off), IsFlowStyle: true, Values: []*ast.MappingValueNode{}}
	k := skip(1)
	for rest[k] != '}' {
		c := strings.IndexByte(rest[k:], ':')
		if c <= 0 || k+c+1 == len(rest) || rest[k+c+1] != ' ' {
			fail() // no key, or a ':' not followed by a space
		}
		key := p.key(i, off+k, rest[k:k+c])
		for _, mv := range m.Values {
			if mv.Key.GetToken().Value == key.GetToken().Value {
				fail()
			}
		}
		colon := p.token(token.MappingValueType, ":", i, off+k+c)
		v, after := value(skip(k + c + 1))
		mv := p.pairs.new()
		*mv = ast.MappingValueNode{BaseNode: p.bases.new(), Start: colon, Key: key, Value: v}
		m.Values = append(m.Values, mv)
		k = after
		switch rest[k] {
		case ',':
			if k = skip(k + 1); rest[k] == '}' {
				fail()
			}
		case '}':
		default:
			fail()
		}
	}
	m.End = p.token(token.MappingEndType, "}", i, off+k)
	return m, k + 1
}
