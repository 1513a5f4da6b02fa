package convtest

import (
	"bytes"
	"runtime"
	"sync"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// chunkedMin is the size from which a test file's cases are parsed on
// several goroutines. Parsing the YAML is most of the time soni test takes
// to load a large file, and goccy/go-yaml parses on one goroutine.
const chunkedMin = 256 << 10

// parseChunked parses a large test file's YAML in n pieces at once and
// joins their test_cases lists into the file one parse would give. Each
// piece is the file's lines before its first case, then blank lines in
// place of the cases of earlier pieces (so that every line and column
// stays where it is in the file), then a run of whole cases and the first
// line of the case after them; the last piece runs to the end of the file.
//
// It only splits where the file's layout makes a line that starts a case
// start one in any parse: an unquoted test_cases: key at the start of a
// line, with nothing after it, followed by a block list whose entries
// start at one indentation. A split inside a multi-line string or flow
// collection leaves it unclosed at the end of its piece, which does not
// parse. It reports false, and the caller parses the whole file, when the
// layout is any other, when a piece does not parse or when the file uses
// anchors or aliases (which may cross pieces).
func parseChunked(text []byte, n int) (*ast.File, bool) {
	lines := lineStarts(text)
	key, ok := casesKeyLine(text, lines)
	if !ok {
		return nil, false
	}
	entries := caseEntries(text, lines, key)
	if len(entries) < max(2*n, 2) {
		return nil, false
	}
	// n-1 cuts at the entries nearest to equal shares of the bytes.
	first := lines[entries[0]]
	var cuts []int // line indexes
	for c, e := 1, 0; c < n; c++ {
		target := first + (len(text)-first)*c/n
		for e < len(entries) && lines[entries[e]] < target {
			e++
		}
		if e == len(entries) {
			break
		}
		if len(cuts) == 0 || cuts[len(cuts)-1] != entries[e] {
			cuts = append(cuts, entries[e])
		}
	}
	if len(cuts) == 0 {
		return nil, false
	}
	return parsePieces(text, lines, append([]int{entries[0]}, cuts...))
}

// parsePieces parses text in pieces that start at the given lines (the
// first case, then each cut) and joins them.
func parsePieces(text []byte, lines, starts []int) (*ast.File, bool) {
	first := lines[starts[0]]
	files := make([]*ast.File, len(starts))
	errs := make([]error, len(starts))
	var wg sync.WaitGroup
	for i, start := range starts {
		// A piece ends with the first line of the next piece's first
		// case, so that its own last case is followed by what follows it
		// in the file (goccy/go-yaml reads a node's end from the next
		// token); that case is dropped below.
		end := len(text)
		if i+1 < len(starts) && starts[i+1]+1 < len(lines) {
			end = lines[starts[i+1]+1]
		}
		piece := make([]byte, 0, first+(start-starts[0])+end-lines[start])
		piece = append(piece, text[:first]...)
		piece = append(piece, bytes.Repeat([]byte{'\n'}, start-starts[0])...)
		piece = append(piece, text[lines[start]:end]...)
		wg.Add(1)
		go func() {
			defer wg.Done()
			files[i], errs[i] = parser.ParseBytes(piece, 0)
		}()
	}
	wg.Wait()
	var seqs []*ast.SequenceNode
	for i, f := range files {
		if errs[i] != nil {
			return nil, false
		}
		seq, ok := casesSequence(f)
		if !ok {
			return nil, false
		}
		seqs = append(seqs, seq)
	}
	if bytes.IndexByte(text, '&') >= 0 || bytes.IndexByte(text, '*') >= 0 {
		for _, f := range files {
			if hasAnchors(f) {
				return nil, false
			}
		}
	}
	// The last piece holds what follows the list: it is the file.
	last := seqs[len(seqs)-1]
	var values []ast.Node
	var heads []*ast.CommentGroupNode
	var entryNodes []*ast.SequenceEntryNode
	for i, s := range seqs {
		if len(s.ValueHeadComments) != len(s.Values) || len(s.Entries) != len(s.Values) {
			return nil, false
		}
		if i+1 < len(seqs) {
			// Drop the next piece's first case, checking that it is
			// the entry that starts on the line the next piece starts
			// on.
			n := len(s.Values) - 1
			if n < 1 || s.Entries[n] == nil || s.Entries[n].Start == nil || s.Entries[n].Start.Position == nil ||
				s.Entries[n].Start.Position.Line != starts[i+1]+1 {
				return nil, false
			}
			s.Values, s.ValueHeadComments, s.Entries = s.Values[:n], s.ValueHeadComments[:n], s.Entries[:n]
		}
		values = append(values, s.Values...)
		heads = append(heads, s.ValueHeadComments...)
		entryNodes = append(entryNodes, s.Entries...)
	}
	last.Start = seqs[0].Start
	last.Values, last.ValueHeadComments, last.Entries = values, heads, entryNodes
	return files[len(files)-1], true
}

// lineStarts returns the offset of the start of each line of text.
func lineStarts(text []byte) []int {
	starts := make([]int, 1, bytes.Count(text, []byte{'\n'})+1)
	for i, c := range text {
		if c == '\n' && i+1 < len(text) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// line returns line i of text without its line end.
func line(text []byte, lines []int, i int) []byte {
	end := len(text)
	if i+1 < len(lines) {
		end = lines[i+1]
	}
	return bytes.TrimSuffix(text[lines[i]:end], []byte{'\n'})
}

// casesKeyLine finds the one line that is the key test_cases: with
// nothing after it but a comment. It reports false when there is none or
// more than one, or when a line starts a document or a directive.
func casesKeyLine(text []byte, lines []int) (int, bool) {
	key := -1
	for i := range lines {
		l := line(text, lines, i)
		switch {
		case bytes.HasPrefix(l, []byte("---")), bytes.HasPrefix(l, []byte("...")), bytes.HasPrefix(l, []byte("%")):
			return 0, false
		case bytes.HasPrefix(l, []byte("test_cases:")):
			rest := bytes.TrimLeft(l[len("test_cases:"):], " ")
			if key >= 0 || len(rest) > 0 && rest[0] != '#' {
				return 0, false
			}
			key = i
		}
	}
	return key, key >= 0
}

// caseEntries returns the lines after the test_cases: key that start an
// entry of its block list: a '-' at the indentation of the first one,
// followed by a space or the line's end. It stops at the first line less
// indented, or as indented but not an entry.
func caseEntries(text []byte, lines []int, key int) []int {
	var out []int
	indent := -1
	for i := key + 1; i < len(lines); i++ {
		l := line(text, lines, i)
		body := bytes.TrimLeft(l, " ")
		if len(body) == 0 || body[0] == '#' {
			continue
		}
		k := len(l) - len(body)
		entry := body[0] == '-' && (len(body) == 1 || body[1] == ' ')
		if indent < 0 {
			if !entry {
				return nil
			}
			indent = k
		}
		switch {
		case k == indent && entry:
			out = append(out, i)
		case k <= indent:
			return out
		}
	}
	return out
}

// casesSequence returns the block list under a parsed piece's top-level
// test_cases key.
func casesSequence(f *ast.File) (*ast.SequenceNode, bool) {
	if len(f.Docs) != 1 {
		return nil, false
	}
	mv := casesPair(f.Docs[0].Body)
	if mv == nil {
		return nil, false
	}
	seq, ok := mv.Value.(*ast.SequenceNode)
	return seq, ok && !seq.IsFlowStyle
}

// hasAnchors reports whether a parsed piece holds an anchor or an alias.
func hasAnchors(f *ast.File) bool {
	found := false
	for _, doc := range f.Docs {
		ast.Walk(visitFunc(func(n ast.Node) bool {
			switch n.(type) {
			case *ast.AnchorNode, *ast.AliasNode:
				found = true
			}
			return !found
		}), doc)
	}
	return found
}

// visitFunc is an ast.Visitor that goes on into a node's children while
// it returns true.
type visitFunc func(ast.Node) bool

// Visit implements ast.Visitor.
func (f visitFunc) Visit(n ast.Node) ast.Visitor {
	if f(n) {
		return f
	}
	return nil
}

// pieces is how many pieces parseYAML parses a large file in: one per
// processor, up to 8.
func pieces() int {
	return min(runtime.GOMAXPROCS(0), 8)
}
