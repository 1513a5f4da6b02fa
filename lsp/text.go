package lsp

import (
	"net/url"
	"path/filepath"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/soni-dev/soni/diag"
)

// This file holds the conversions between the protocol's positions (lines
// and UTF-16 code units, from 0) and the compiler's (lines and runes,
// from 1), and between file URIs and paths.

// uriToPath turns a file URI into a clean absolute path; ok is false for
// another scheme.
func uriToPath(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return "", false
	}
	p := filepath.FromSlash(u.Path)
	if !filepath.IsAbs(p) {
		return "", false
	}
	return filepath.Clean(p), true
}

// pathToURI turns an absolute path into a file URI.
func pathToURI(path string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	return u.String()
}

// lineOf returns line n (from 0) of src without its newline, or "".
func lineOf(src string, n int) string {
	for i := 0; i < n; i++ {
		j := strings.IndexByte(src, '\n')
		if j < 0 {
			return ""
		}
		src = src[j+1:]
	}
	if j := strings.IndexByte(src, '\n'); j >= 0 {
		src = src[:j]
	}
	return strings.TrimSuffix(src, "\r")
}

// lines splits src into its lines, without newlines.
func lines(src string) []string {
	ls := strings.Split(src, "\n")
	for i, l := range ls {
		ls[i] = strings.TrimSuffix(l, "\r")
	}
	return ls
}

// utf16Len counts the UTF-16 code units of s.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if l := utf16.RuneLen(r); l > 0 {
			n += l
		} else {
			n++
		}
	}
	return n
}

// byteToUTF16 converts a byte offset within a line to UTF-16 units.
func byteToUTF16(line string, off int) int {
	if off > len(line) {
		off = len(line)
	}
	return utf16Len(line[:off])
}

// utf16ToByte converts a UTF-16 offset within a line to a byte offset.
func utf16ToByte(line string, units int) int {
	n := 0
	for i, r := range line {
		if n >= units {
			return i
		}
		l := utf16.RuneLen(r)
		if l < 0 {
			l = 1
		}
		n += l
	}
	return len(line)
}

// runeColToByte converts a 1-based rune column to a byte offset in line.
func runeColToByte(line string, col int) int {
	if col <= 1 {
		return 0
	}
	n := 0
	for i := range line {
		if n == col-1 {
			return i
		}
		n++
	}
	return len(line)
}

// offsetOf converts a protocol position to a byte offset in src.
func offsetOf(src string, p protocol.Position) int {
	off := 0
	for i := 0; i < int(p.Line); i++ {
		j := strings.IndexByte(src[off:], '\n')
		if j < 0 {
			return len(src)
		}
		off += j + 1
	}
	line := src[off:]
	if j := strings.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	return off + utf16ToByte(line, int(p.Character))
}

// positionOf converts a byte offset in src to a protocol position.
func positionOf(src string, off int) protocol.Position {
	if off > len(src) {
		off = len(src)
	}
	line := strings.Count(src[:off], "\n")
	start := strings.LastIndexByte(src[:off], '\n') + 1
	return protocol.Position{Line: protocol.UInteger(line), Character: protocol.UInteger(utf16Len(src[start:off]))}
}

// applyChange applies one content change to a document's text.
func applyChange(text string, change any) string {
	switch c := change.(type) {
	case protocol.TextDocumentContentChangeEventWhole:
		return c.Text
	case protocol.TextDocumentContentChangeEvent:
		if c.Range == nil {
			return c.Text
		}
		from, to := offsetOf(text, c.Range.Start), offsetOf(text, c.Range.End)
		if to < from {
			from, to = to, from
		}
		return text[:from] + c.Text + text[to:]
	}
	return text
}

// isNameByte reports whether c may be part of a name (slot, flow, step,
// response or action; step ids and flows may hold a dash).
func isNameByte(c byte) bool {
	return c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= utf8.RuneSelf
}

// nameSpan returns the byte span of the name that starts at or after the
// compiler position pos on its line: pos may point at a quote before it.
// ok is false when no name is there.
func nameSpan(line string, col int, name string) (from, to int, ok bool) {
	b := runeColToByte(line, col)
	if name != "" {
		if i := strings.Index(line[b:], name); i >= 0 {
			return b + i, b + i + len(name), true
		}
		if i := strings.LastIndex(line[:b], name); i >= 0 && b-i <= len(name) {
			return i, i + len(name), true
		}
		return 0, 0, false
	}
	for b < len(line) && (line[b] == '"' || line[b] == '\'') {
		b++
	}
	e := b
	for e < len(line) && isNameByte(line[e]) {
		e++
	}
	return b, e, e > b
}

// diagRange is the range a diagnostic underlines: the name or token that
// starts at its position, or the rest of the line when there is none.
func diagRange(src string, p diag.Pos) protocol.Range {
	if p.Line <= 0 {
		return protocol.Range{}
	}
	line := lineOf(src, p.Line-1)
	b := runeColToByte(line, p.Col)
	e := b
	switch {
	case b < len(line) && (line[b] == '"' || line[b] == '\''):
		q := line[b]
		e = b + 1
		for e < len(line) && line[e] != q {
			if line[e] == '\\' && q == '"' {
				e++
			}
			e++
		}
		if e < len(line) {
			e++
		}
	default:
		for e < len(line) && isNameByte(line[e]) {
			e++
		}
		if e == b {
			e = len(strings.TrimRight(line, " \t"))
			if e <= b {
				e = min(b+1, len(line))
			}
		}
	}
	ln := protocol.UInteger(p.Line - 1)
	return protocol.Range{
		Start: protocol.Position{Line: ln, Character: protocol.UInteger(byteToUTF16(line, b))},
		End:   protocol.Position{Line: ln, Character: protocol.UInteger(byteToUTF16(line, e))},
	}
}

// spanRange makes the range of bytes [from, to) of line n (from 0).
func spanRange(line string, n, from, to int) protocol.Range {
	return protocol.Range{
		Start: protocol.Position{Line: protocol.UInteger(n), Character: protocol.UInteger(byteToUTF16(line, from))},
		End:   protocol.Position{Line: protocol.UInteger(n), Character: protocol.UInteger(byteToUTF16(line, to))},
	}
}
