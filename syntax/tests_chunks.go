package syntax

import (
	"bytes"
	"runtime"
	"sync"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/soni-dev/soni/internal/yamlpos"
)

// chunkMin is the size from which a test file's cases are parsed on
// every core: a file of 2,000 cases (600 KB) took goccy/go-yaml about
// 100 ms on one core, while the cases then ran on both
// (docs/performance.md, "Large test files").
const chunkMin = 256 << 10

// parseTestsText parses a test file with goccy/go-yaml. A large file
// whose last key is test_cases, a block sequence, is cut between its
// cases into one piece a core; each piece is parsed by goccy/go-yaml
// with its lines where they are in the file, and the pieces' cases are
// joined into the first piece's sequence. Anything else, and any piece
// that does not parse, is parsed whole, so an error is always the
// whole file's.
func parseTestsText(text []byte) (*ast.File, error) {
	if n := runtime.GOMAXPROCS(0); n > 1 && len(text) >= chunkMin {
		if f, ok := parseInPieces(text, n); ok {
			return f, nil
		}
	}
	return parser.ParseBytes(text, 0)
}

// parseInPieces is parseTestsText's parse on n cores; ok is false when
// the file has not the layout it cuts, or a piece fails.
func parseInPieces(text []byte, n int) (*ast.File, bool) {
	starts, ok := caseStarts(text)
	if !ok || len(starts) < 2*n {
		return nil, false
	}
	// The pieces start at a case each: the first holds everything
	// before its cases too.
	cuts := make([]int, 0, n+1)
	cuts = append(cuts, 0)
	for i := 1; i < n; i++ {
		cuts = append(cuts, starts[i*len(starts)/n].offset)
	}
	cuts = append(cuts, len(text))
	files := make([]*ast.File, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			piece := text[cuts[i]:cuts[i+1]]
			if i > 0 {
				// The key on the line before the piece's first case, and
				// empty lines before it, so that goccy gives every token
				// the line and column it has in the file.
				line := starts[i*len(starts)/n].line
				head := append(bytes.Repeat([]byte{'\n'}, line-2), "test_cases:\n"...)
				piece = append(head, piece...)
			}
			files[i], errs[i] = parser.ParseBytes(piece, 0)
		})
	}
	wg.Wait()
	var cases *ast.SequenceNode
	for i, f := range files {
		if errs[i] != nil || len(f.Docs) != 1 {
			return nil, false
		}
		seq := testCasesSeq(f.Docs[0].Body)
		if seq == nil {
			return nil, false
		}
		if i == 0 {
			cases = seq
			continue
		}
		cases.Values = append(cases.Values, seq.Values...)
		cases.Entries = append(cases.Entries, seq.Entries...)
	}
	return files[0], true
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
