package convtest

import (
	"bytes"
	"runtime"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/soni-dev/soni/convtest/internal/yamlsubset"
)

// piecedMin is the size from which a test file in the YAML subset is read
// in pieces, and pieceSize about the size of a piece.
const (
	piecedMin = 128 << 10
	pieceSize = 16 << 10
)

// decodePieces reads a large test file written in the YAML subset of
// internal/yamlsubset in pieces of a few dozen cases, on every processor:
// each piece (the file's lines before its first case, then a run of cases,
// its lines numbered as in the file) is parsed and decoded on its own, and the pieces' cases are joined. Only one piece's
// syntax tree per processor is alive at a time, where a whole parse held
// the tree of the file, forty times its size.
//
// It reports false, and the caller reads the file whole, unless the file
// is one that gives the same File in one piece: its test_cases list
// (parseChunked's layout) runs to the end of the file, every piece is in
// the subset and decodes without a diagnostic into as many cases as it
// has, and no case name repeats. A file with any problem is thus always
// read whole, and its messages are those of one parse.
func decodePieces(path string, src []byte) (*File, bool) {
	return decodeInPieces(path, src, piecedMin, pieceSize)
}

// decodeInPieces is decodePieces for files of minSize bytes or more, in
// pieces of about size bytes.
func decodeInPieces(path string, src []byte, minSize, size int) (*File, bool) {
	text := bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	if len(text) < minSize || !utf8.Valid(text) || bytes.IndexByte(text, 0) >= 0 {
		return nil, false
	}
	if bytes.Contains(text, []byte("\r\n")) {
		text = bytes.ReplaceAll(text, []byte("\r\n"), []byte("\n"))
	}
	lines := lineStarts(text)
	key, ok := casesKeyLine(text, lines)
	if !ok {
		return nil, false
	}
	entries := caseEntries(text, lines, key)
	if len(entries) < 2 || !listRunsToEnd(text, lines, entries) {
		return nil, false
	}
	// groups[i] is the index in entries of piece i's first case.
	groups := []int{0}
	for e := range entries {
		if lines[entries[e]]-lines[entries[groups[len(groups)-1]]] >= size {
			groups = append(groups, e)
		}
	}
	header := text[:lines[entries[0]]]
	files := make([]*File, len(groups))
	var refused atomic.Bool
	// Each worker parses its pieces one after another in the memory of
	// one parser: a piece's tree is dead once the piece is decoded (a
	// File keeps no node), and reusing it spares the process from
	// touching new memory for every piece.
	workers := runtime.GOMAXPROCS(0)
	parsers := make([]yamlsubset.Parser, workers)
	inParallel(workers, len(groups), func(w, i int) {
		if refused.Load() {
			return
		}
		from, to := groups[i], len(entries)
		end := len(text)
		if i+1 < len(groups) {
			to = groups[i+1]
			end = lines[entries[to]]
		}
		start := entries[from]
		var b strings.Builder
		b.Grow(len(header) + end - lines[start])
		b.Write(header)
		b.Write(text[lines[start]:end])
		// The piece's lines are numbered as in the file: as if the
		// lines of the cases before it stood between the header (the
		// lines before the first case) and the piece.
		doc, ok := parsers[w].ParseSkipping(b.String(), entries[0], start-entries[0])
		if !ok {
			refused.Store(true)
			return
		}
		f, ds, _ := decodeDoc(path, src, yamlDoc{file: doc}, false)
		if f == nil || len(ds) > 0 || len(f.Cases) != to-from {
			refused.Store(true)
			return
		}
		files[i] = f
	})
	if refused.Load() {
		return nil, false
	}
	f := files[0]
	for _, p := range files[1:] {
		f.Cases = append(f.Cases, p.Cases...)
	}
	seen := make(map[string]bool, len(f.Cases))
	for _, c := range f.Cases {
		if seen[c.Name] {
			return nil, false // the whole decode reports it
		}
		seen[c.Name] = true
	}
	yamlParses.Add(1)
	return f, true
}

// listRunsToEnd reports whether nothing but the list's entries follows its
// first entry: no line with content is indented as the list's entries
// are, or less, other than an entry.
func listRunsToEnd(text []byte, lines, entries []int) bool {
	first := line(text, lines, entries[0])
	indent := len(first) - len(bytes.TrimLeft(first, " "))
	next := 1 // the next entry to expect
	for i := entries[0] + 1; i < len(lines); i++ {
		if next < len(entries) && i == entries[next] {
			next++
			continue
		}
		l := line(text, lines, i)
		body := bytes.TrimLeft(l, " ")
		if len(body) > 0 && body[0] != '#' && len(l)-len(body) <= indent {
			return false
		}
	}
	return true
}
