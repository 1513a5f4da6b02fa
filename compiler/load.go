package compiler

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/soni-dev/soni/internal/yamlpos"
	"github.com/soni-dev/soni/syntax"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/internal/safefile"
)

// Options are the compiler's limits. Zero values mean the defaults.
type Options struct {
	// MaxFileSize is the largest file read, in bytes (default 10 MiB).
	MaxFileSize int64
	// MaxAliasExpansion is how many nodes aliases may expand to in one file (default 100,000).
	MaxAliasExpansion int
	// MaxDepth is the deepest nesting allowed in a file (default 100).
	MaxDepth int
	// symbols asks for the symbol index (CompileSourcesIndexed).
	symbols bool
}

// The default limits.
const (
	DefaultMaxFileSize       = 10 << 20
	DefaultMaxAliasExpansion = 100_000
	DefaultMaxDepth          = 100
)

func (o Options) withDefaults() Options {
	if o.MaxFileSize <= 0 {
		o.MaxFileSize = DefaultMaxFileSize
	}
	if o.MaxAliasExpansion <= 0 {
		o.MaxAliasExpansion = DefaultMaxAliasExpansion
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = DefaultMaxDepth
	}
	return o
}

// parsed is one file after parsing: its source and YAML body.
type parsed struct {
	file *File
	body ast.Node
	// value is the body as a generic value, for the schema.
	value   any
	anchors map[string]ast.Node
}

// ProjectFiles lists the files of a project: the file itself, or every
// *.yaml and *.yml file below a directory in lexical path order, skipping
// hidden directories. Problems reading the tree are returned as diagnostics.
func ProjectFiles(path string) ([]string, diag.List) {
	var ds diag.List
	info, err := os.Stat(path)
	if err != nil {
		ds.Add(diag.Pos{File: filepath.ToSlash(path)}, diag.CodeFileRead, "", "cannot read %q: %s", path, errText(err))
		return nil, ds
	}
	if !info.IsDir() {
		return []string{path}, nil
	}
	var files []string
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			ds.Add(diag.Pos{File: filepath.ToSlash(p)}, diag.CodeFileRead, "", "cannot read %q: %s", p, errText(err))
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if p != path && strings.HasPrefix(name, ".") {
				return fs.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		ds.Add(diag.Pos{File: filepath.ToSlash(path)}, diag.CodeFileRead, "", "cannot read %q: %s", path, errText(err))
	}
	sort.Strings(files)
	return files, ds
}

func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// readFile reads one file within the size limit. Only regular files are
// read (a FIFO or device would block or never end): see package safefile.
func readFile(path string, opts Options) ([]byte, *diag.Diagnostic) {
	name := filepath.ToSlash(path)
	fail := func(code, format string, args ...any) ([]byte, *diag.Diagnostic) {
		d := diag.Diagnostic{Pos: diag.Pos{File: name, Line: 1, Col: 1}, Severity: diag.SeverityOf(code), Code: code, Message: fmt.Sprintf(format, args...)}
		return nil, &d
	}
	b, err := safefile.ReadFile(path, opts.MaxFileSize)
	var tl *safefile.TooLargeError
	switch {
	case errors.As(err, &tl) && tl.Size >= 0:
		return fail(diag.CodeFileLimit, "file %q is %s, over the %s size limit (raise it with --max-file-size)", name, size(tl.Size), size(opts.MaxFileSize))
	case errors.As(err, &tl):
		return fail(diag.CodeFileLimit, "file %q is over the %s size limit (raise it with --max-file-size)", name, size(opts.MaxFileSize))
	case err != nil:
		return fail(diag.CodeFileRead, "cannot read %q: %s", name, errText(err))
	}
	return b, nil
}

func size(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// parseFile parses one file's bytes, guarding against inputs that would
// make later phases misbehave: invalid UTF-8, tabs, deep nesting, several
// documents and alias bombs. It returns nil when the file has nothing to
// compile (empty, or an error was reported).
func parseFile(name string, src []byte, opts Options, ds *diag.List) *parsed {
	file := &File{Path: name, Src: src}
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(src) {
		line, col := invalidUTF8At(src)
		ds.Add(diag.Pos{File: name, Line: line, Col: col}, diag.CodeNotUTF8, "", "file %q is not UTF-8 text: invalid byte at line %d", name, line)
		return nil
	}
	if i := bytes.IndexByte(src, 0); i >= 0 {
		line, col := lineCol(src, i)
		ds.Add(diag.Pos{File: name, Line: line, Col: col}, diag.CodeNotUTF8, "", "file %q contains a NUL byte: it looks like a binary file", name)
		return nil
	}
	if len(bytes.TrimSpace(src)) == 0 {
		ds.Add(diag.Pos{File: name, Line: 1, Col: 1}, diag.CodeEmptyFile, "", "file %q is empty", name)
		return nil
	}
	for _, depthOf := range []func([]byte, int) (int, int, int){flowDepth, blockDepth} {
		if line, col, depth := depthOf(src, opts.MaxDepth); depth > opts.MaxDepth {
			ds.Add(diag.Pos{File: name, Line: line, Col: col}, diag.CodeNestingLimit, "", "nesting is deeper than %d levels", opts.MaxDepth)
			return nil
		}
	}
	f, err := parser.ParseBytes(src, 0, parser.AllowDuplicateMapKey())
	if err != nil {
		pos := diag.Pos{File: name, Line: 1, Col: 1}
		msg := err.Error()
		var yerr yaml.Error
		if errors.As(err, &yerr) {
			msg = yerr.GetMessage()
			if tk := yerr.GetToken(); tk != nil && tk.Position != nil {
				pos.Line, pos.Col = tk.Position.Line, tk.Position.Column
			}
		}
		if line, col, ok := tabIndent(src); ok {
			ds.Add(diag.Pos{File: name, Line: line, Col: col}, diag.CodeYAMLSyntax, "", "tab used for indentation: YAML indents with spaces only")
			return nil
		}
		d := ds.Add(pos, diag.CodeYAMLSyntax, "", "invalid YAML: %s", firstLine(msg))
		if q := unclosedQuote(msg); q != "" {
			d.Suggestion = q
		} else if pos.Line >= 1 {
			lines := bytes.Split(src, []byte("\n"))
			if pos.Line <= len(lines) {
				d.Suggestion = yamlHint(string(lines[pos.Line-1]))
			}
		}
		return nil
	}
	var body ast.Node
	for i, doc := range f.Docs {
		b := doc.Body
		if _, ok := b.(*ast.CommentGroupNode); ok {
			b = nil
		}
		if b == nil {
			continue
		}
		if body != nil {
			pos := yamlpos.NodePos(name, b)
			if doc.Start != nil && doc.Start.Position != nil {
				pos = diag.Pos{File: name, Line: doc.Start.Position.Line, Col: doc.Start.Position.Column}
			}
			ds.Add(pos, diag.CodeMultiDoc, "", "file %q holds more than one YAML document (document %d starts here); put each in its own file", name, i+1)
			return nil
		}
		body = b
	}
	if body == nil {
		ds.Add(diag.Pos{File: name, Line: 1, Col: 1}, diag.CodeEmptyFile, "", "file %q is empty", name)
		return nil
	}
	p := &parsed{file: file, body: body, anchors: map[string]ast.Node{}}
	if !p.checkTree(opts, ds) {
		return nil
	}
	p.value = p.toValue(body)
	return p
}

// checkTree walks the tree once (syntax.CheckTree): it records anchors,
// bounds the depth and computes how many nodes aliases expand to,
// refusing alias bombs before anything expands them.
func (p *parsed) checkTree(opts Options, ds *diag.List) bool {
	problem := syntax.CheckTree(p.body, opts.MaxDepth, opts.MaxAliasExpansion, func(name string, n ast.Node) {
		p.anchors[name] = n
	})
	if problem == nil {
		return true
	}
	code := diag.CodeAliasLimit
	if problem.Nesting {
		code = diag.CodeNestingLimit
	}
	ds.Add(yamlpos.NodePos(p.file.Path, problem.Node), code, "", "%s", problem.Message)
	return false
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	// goccy prefixes messages with [line:col]; the position is reported separately.
	if strings.HasPrefix(s, "[") {
		if i := strings.Index(s, "] "); i > 0 {
			s = s[i+2:]
		}
	}
	return s
}

func invalidUTF8At(src []byte) (int, int) {
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && n <= 1 {
			return lineCol(src, i)
		}
		i += n
	}
	return 1, 1
}

// lineCol converts a byte offset to a 1-based line and rune column.
func lineCol(src []byte, off int) (int, int) {
	line := 1 + bytes.Count(src[:off], []byte("\n"))
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	return line, 1 + utf8.RuneCount(src[start:off])
}

// tabIndent finds the first line whose indentation contains a tab.
func tabIndent(src []byte) (int, int, bool) {
	line := 1
	for len(src) > 0 {
		end := bytes.IndexByte(src, '\n')
		l := src
		if end >= 0 {
			l = src[:end]
		}
		for i, c := range l {
			if c == '\t' {
				return line, i + 1, true
			}
			if c != ' ' && c != '-' {
				break
			}
		}
		if end < 0 {
			break
		}
		src = src[end+1:]
		line++
	}
	return 0, 0, false
}

// flowDepth measures the deepest nesting of flow collections ([ and {)
// outside quoted strings and comments, stopping once it exceeds max, so that
// an adversarial file never reaches the recursive parser.
func flowDepth(src []byte, max int) (line, col, depth int) {
	var quote byte
	d := 0
	comment := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == '\n' {
			comment = false
			continue
		}
		if comment {
			continue
		}
		if quote != 0 {
			if c == '\\' && quote == '"' {
				i++
			} else if c == quote {
				quote = 0
			}
			continue
		}
		switch c {
		case '#':
			if i == 0 || src[i-1] == ' ' || src[i-1] == '\t' || src[i-1] == '\n' {
				comment = true
			}
		case '"', '\'':
			if i == 0 || bytes.IndexByte([]byte(" \t\n[{,:-"), src[i-1]) >= 0 {
				quote = c
			}
		case '[', '{':
			d++
			if d > max {
				l, c := lineCol(src, i)
				return l, c, d
			}
		case ']', '}':
			if d > 0 {
				d--
			}
		}
	}
	return 0, 0, d
}

// blockDepth estimates the deepest nesting of block collections, from
// indentation and from compact indicators ("- - - x", "? "), stopping once
// it exceeds limit. The YAML library's cost grows quadratically with such
// nesting before any depth check can run on its tree (40,000 compact "- "
// on one line took 10 s and 2.5 GB), so this runs first, in one linear pass.
// The estimate never exceeds the real depth: each deeper indentation and
// each compact indicator opens at least one collection, so a file this
// refuses is one the tree check would refuse too. The contents of block
// scalars (| and >) are skipped.
func blockDepth(src []byte, limit int) (line, col, depth int) {
	var stack []int // indentation of the open block levels
	scalar := -1    // indentation of the line that opened a block scalar
	deepest := 0
	for ln := 1; len(src) > 0; ln++ {
		end := bytes.IndexByte(src, '\n')
		text := src
		if end >= 0 {
			text = src[:end]
			src = src[end+1:]
		} else {
			src = nil
		}
		indent := 0
		for indent < len(text) && text[indent] == ' ' {
			indent++
		}
		rest := bytes.TrimRight(text[indent:], " \t\r")
		if len(rest) == 0 {
			continue
		}
		if scalar >= 0 {
			if indent > scalar {
				continue
			}
			scalar = -1
		}
		if rest[0] == '#' {
			continue
		}
		for len(stack) > 0 && stack[len(stack)-1] >= indent {
			stack = stack[:len(stack)-1]
		}
		stack = append(stack, indent)
		d := len(stack) - 1 // the first level is the document's root, at depth 0
		if d > limit {
			return ln, indent + 1, d
		}
		at := indent
		for len(rest) >= 2 && (rest[0] == '-' || rest[0] == '?' || rest[0] == ':') && (rest[1] == ' ' || rest[1] == '\t') {
			d++
			if d > limit {
				return ln, at + 1, d
			}
			i := 1
			for i < len(rest) && (rest[i] == ' ' || rest[i] == '\t') {
				i++
			}
			at += i
			rest = rest[i:]
		}
		deepest = max(deepest, d)
		if opensBlockScalar(rest) {
			scalar = indent
		}
	}
	return 0, 0, deepest
}

// opensBlockScalar reports whether a line's content ends with a block
// scalar header (| or >, with optional indentation and chomping indicators,
// and an optional comment), so that the lines indented below it are text.
func opensBlockScalar(rest []byte) bool {
	if i := bytes.Index(rest, []byte(" #")); i >= 0 {
		rest = bytes.TrimRight(rest[:i], " \t")
	}
	rest = bytes.TrimRight(rest, "+-0123456789")
	n := len(rest)
	if n == 0 || (rest[n-1] != '|' && rest[n-1] != '>') {
		return false
	}
	return n == 1 || rest[n-2] == ' ' || rest[n-2] == '\t' || rest[n-2] == ':'
}

// plainValue matches a "key: value" line (possibly a list item) and
// captures the value.
var plainValue = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:-\s+)?[A-Za-z_][A-Za-z0-9_-]*:\s+(\S.*?)\s*$`)
})

// yamlHint says how to fix the YAML mistakes flow authors make most, on
// the line where the parser gave up: a template that starts with "{" (a
// YAML mapping), text after a quoted value, and ": " inside a plain value.
// unclosedQuote returns the advice for a quoted scalar that never ends, from
// the parser's message, or "". The line alone cannot tell it from text after
// a closing quote: both start with a quote and do not end with one.
func unclosedQuote(msg string) string {
	switch {
	case strings.Contains(msg, "end character of double-quoted text"):
		return `the quote that opens the value is never closed: end the value with " and write \" for a quote inside it`
	case strings.Contains(msg, "end character of single-quoted text"):
		return `the quote that opens the value is never closed: end the value with ' and write '' for a quote inside it`
	}
	return ""
}

func yamlHint(line string) string {
	m := plainValue().FindStringSubmatch(line)
	if m == nil {
		return ""
	}
	v := m[1]
	if i := strings.Index(v, " #"); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	switch {
	case strings.HasPrefix(v, "{") && !strings.HasSuffix(v, "}"):
		return "a value that starts with '{' is a YAML mapping: put the whole template in quotes, as in \"" + strings.ReplaceAll(v, `"`, `\"`) + "\""
	case (strings.HasPrefix(v, `"`) || strings.HasPrefix(v, "'")) && !strings.HasSuffix(v, v[:1]):
		return "text follows the closing quote: put the whole value in quotes"
	case !strings.ContainsAny(v[:1], `"'[{|>&*!%@`+"`") && strings.Contains(v, ": "):
		return "a value that holds \": \" must be quoted, as in \"" + strings.ReplaceAll(v, `"`, `\"`) + "\""
	}
	return ""
}
