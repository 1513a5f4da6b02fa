package syntax

import (
	"bytes"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/parser"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/internal/yamlpos"
)

// chunkMin is the size from which a test file's cases are parsed in
// pieces: a file of 2,000 cases (600 KB) took goccy/go-yaml about 100 ms
// on one core, and its syntax tree (about 70 bytes for every byte of
// YAML) stayed alive until the whole file was decoded
// (docs/performance.md, "The synthetic file against LangGraph.js").
const chunkMin = 256 << 10

// pieceSize is about how many bytes of cases one piece holds: small
// enough that the syntax trees alive at a time (one piece's per core)
// stay a few megabytes.
const pieceSize = 32 << 10

// casePiece is a run of whole cases of a large test file: its bytes and
// the line (1-based) and byte offset where they start in the file.
type casePiece struct {
	text         []byte
	line, offset int
}

// parseTestsText parses a test file with goccy/go-yaml. A large file
// whose last key is test_cases, a block sequence, has only what comes
// before its cases parsed here (its head, which tells a test file from
// another YAML file); its cases are cut into pieces that Decode parses
// and converts one at a time on every core, each piece's tree dropped
// once converted. If the head does not parse, the file is parsed whole,
// so an error is always the whole file's.
func parseTestsText(text []byte) (file *ast.File, pieces []casePiece, err error) {
	if len(text) >= chunkMin {
		if head, pieces, ok := cutCases(text, pieceSize); ok {
			if f, err := parser.ParseBytes(head, 0); err == nil && headEndsInCases(f) {
				return f, pieces, nil
			}
		}
	}
	f, err := parser.ParseBytes(text, 0)
	return f, nil, err
}

// cutCases cuts a file laid out as caseStarts reads into its head and
// pieces of whole cases of about size bytes each.
func cutCases(text []byte, size int) (head []byte, pieces []casePiece, ok bool) {
	starts, ok := caseStarts(text)
	if !ok {
		return nil, nil, false
	}
	for i := 0; i < len(starts); {
		j := i + 1
		for j < len(starts) && starts[j].offset-starts[i].offset < size {
			j++
		}
		end := len(text)
		if j < len(starts) {
			end = starts[j].offset
		}
		pieces = append(pieces, casePiece{text: text[starts[i].offset:end], line: starts[i].line, offset: starts[i].offset})
		i = j
	}
	return text[:starts[0].offset], pieces, true
}

// headEndsInCases reports whether a file's head parsed to one document
// whose last key is test_cases with no value yet.
func headEndsInCases(f *ast.File) bool {
	if len(f.Docs) != 1 {
		return false
	}
	pairs, _ := yamlpos.Pairs(yamlpos.Unwrap(f.Docs[0].Body))
	if len(pairs) == 0 || keyOf(pairs[len(pairs)-1]) != "test_cases" {
		return false
	}
	switch yamlpos.Unwrap(pairs[len(pairs)-1].Value).(type) {
	case nil, *ast.NullNode:
		return true
	}
	return false
}

// casesKey is the line a piece is parsed under, as the list of the key
// test_cases it is in the file.
var casesKey = []byte("test_cases:\n")

// parsePiece parses a piece of cases as the value of a test_cases key,
// every token at the line and offset it has in the file, and returns
// its block sequence; ok is false when it does not parse to one.
func parsePiece(pc casePiece) (*ast.SequenceNode, bool) {
	src := make([]byte, 0, len(casesKey)+len(pc.text))
	src = append(append(src, casesKey...), pc.text...)
	tokens := lexer.Tokenize(string(src))
	// The key is line 1 of the piece and the piece's first case line 2:
	// every token moves to where it is in the file.
	dl, do := pc.line-2, pc.offset-len(casesKey)
	for _, tk := range tokens {
		if tk.Position != nil {
			tk.Position.Line += dl
			tk.Position.Offset += do
		}
	}
	f, err := parser.Parse(tokens, 0)
	if err != nil || len(f.Docs) != 1 {
		return nil, false
	}
	seq := testCasesSeq(f.Docs[0].Body)
	return seq, seq != nil
}

// testCasesSeq is the block sequence under a document's test_cases key,
// or nil.
func testCasesSeq(body ast.Node) *ast.SequenceNode {
	pairs, _ := yamlpos.Pairs(yamlpos.Unwrap(body))
	for _, mv := range pairs {
		if keyOf(mv) == "test_cases" {
			seq, _ := yamlpos.Unwrap(mv.Value).(*ast.SequenceNode)
			if seq != nil && !seq.IsFlowStyle {
				return seq
			}
		}
	}
	return nil
}

// caseStart is where a case of the test_cases sequence starts: its
// byte offset and its line (1-based).
type caseStart struct{ offset, line int }

// caseStarts finds the cases of a file laid out as soni writes and
// people type them: a test_cases key alone on a line at the left
// margin, then only its block sequence to the end of the file, each
// case a line that starts with the sequence's indentation and "- ".
// ok is false for any other layout: a document marker or directive,
// a tab in the indentation, or any line after the key indented less
// than the cases or at their indentation without starting one.
func caseStarts(text []byte) (starts []caseStart, ok bool) {
	indent := -1
	inCases := false
	line := 0
	for off := 0; off < len(text); {
		end := bytes.IndexByte(text[off:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += off
		}
		l := text[off:end]
		line++
		if bytes.HasPrefix(l, []byte("---")) || bytes.HasPrefix(l, []byte("...")) || bytes.HasPrefix(l, []byte("%")) {
			return nil, false
		}
		content := bytes.TrimLeft(l, " ")
		lead := len(l) - len(content)
		switch {
		case len(content) > 0 && content[0] == '\t':
			return nil, false
		case len(bytes.TrimSpace(content)) == 0 || content[0] == '#':
			// blank lines and comments belong to what is around them
		case !inCases:
			if lead == 0 && isTestCasesKeyLine(content) {
				inCases = true
			}
		case indent < 0:
			if !bytes.HasPrefix(content, []byte("- ")) {
				return nil, false
			}
			indent = lead
			starts = append(starts, caseStart{off, line})
		case lead < indent:
			return nil, false
		case lead == indent:
			if !bytes.HasPrefix(content, []byte("- ")) {
				return nil, false
			}
			starts = append(starts, caseStart{off, line})
		}
		off = end + 1
	}
	return starts, inCases && len(starts) > 0
}

// isTestCasesKeyLine reports whether a line is the key test_cases with
// its value on the next lines (a comment may follow the colon).
func isTestCasesKeyLine(l []byte) bool {
	rest, ok := bytes.CutPrefix(l, []byte("test_cases:"))
	if !ok {
		return false
	}
	rest = bytes.TrimSpace(rest)
	return len(rest) == 0 || rest[0] == '#'
}

// convertPieces parses a large file's pieces of cases on up to workers
// goroutines and converts their cases, dropping each piece's tree once
// converted: the test_cases list as dataOf converts it from the whole
// file's tree. It is nil when a piece does not parse.
func convertPieces(file string, pieces []casePiece, workers int) *Data {
	type result struct {
		items []*Data
		pos   diag.Pos
		ok    bool
	}
	results := make([]result, len(pieces))
	spread(workers, len(pieces), 1, func(i int) {
		seq, ok := parsePiece(pieces[i])
		if !ok {
			return
		}
		r := &results[i]
		r.ok, r.pos = true, yamlpos.NodePos(file, seq)
		c := converter{file: file, workers: 1}
		r.items = make([]*Data, len(seq.Values))
		for j := range seq.Values {
			// (goccy/go-yaml gives an empty block item a null node of
			// its own, so no item takes the piece's position.)
			r.items[j] = c.item(seq, j, r.pos)
		}
	})
	n := 0
	for _, r := range results {
		if !r.ok {
			return nil
		}
		n += len(r.items)
	}
	list := &Data{Kind: DataList, Pos: results[0].pos, Items: make([]*Data, 0, n)}
	for _, r := range results {
		list.Items = append(list.Items, r.items...)
	}
	return list
}
