package lexicon

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// languageDirs are the packages whose Go files may hold no word list:
// their words come from this package.
var languageDirs = []string{"../values", "../vm", "../understand", "../understand/llm"}

// notLanguage are the lists of lower-case strings in those packages that
// are names of soni's own protocols, not words of a language, by file:
// the model grammar's command keywords and the JSON field names of the
// model's structured answer.
var notLanguage = map[string][]string{
	"parse.go": {
		"chitchat, affirm, deny, fallback, help",
		"affirm, deny, chitchat, fallback, help",
	},
	"structured.go": {"kind, flow, flows, slot, value"},
}

// wordLike is a string a word list would hold: lower-case letters, with
// spaces, apostrophes or hyphens between them.
var wordLike = regexp.MustCompile(`^\p{Ll}[\p{Ll}' -]*$`)

// TestNoWordListsInCode fails when a Go file (tests aside) of a package
// in languageDirs declares a word list again: a composite literal (slice,
// array or map), a case clause, a call (wordSet("a", "b", "c")) or a
// chain of comparisons (w == "a" || w == "b" || w == "c") with three or
// more word-like string literals. A map's keys count when their values are constants
// (map[string]bool{"cancel": true, ...}), not when they name fields of
// a value built from variables. Such words belong in en.yaml or es.yaml.
func TestNoWordListsInCode(t *testing.T) {
	var found []string
	for _, dir := range languageDirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		require.NotEmpty(t, files, dir)
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			found = append(found, wordLists(t, f)...)
		}
	}
	sort.Strings(found)
	assert.Empty(t, found, "word lists in code: move them to the lexicon (en.yaml, es.yaml)")
}

// wordLists returns the word lists declared in one file, as
// "file:line: words".
func wordLists(t *testing.T, file string) []string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, 0)
	require.NoError(t, err)
	var out []string
	inChain := map[ast.Node]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		var words []string
		switch x := n.(type) {
		case *ast.BinaryExpr:
			if x.Op != token.LOR || inChain[x] {
				return true
			}
			words = orChain(words, x, inChain)
		case *ast.CompositeLit:
			for _, e := range x.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if constant(kv.Value) {
						words = appendWord(words, kv.Key)
					}
					words = appendWord(words, kv.Value)
					continue
				}
				words = appendWord(words, e)
			}
		case *ast.CaseClause:
			for _, e := range x.List {
				words = appendWord(words, e)
			}
		case *ast.CallExpr:
			for _, e := range x.Args {
				words = appendWord(words, e)
			}
		default:
			return true
		}
		if len(words) < 3 {
			return true
		}
		base := filepath.Base(file)
		if slices.Contains(notLanguage[base], strings.Join(words, ", ")) {
			return true
		}
		out = append(out, base+":"+strconv.Itoa(fset.Position(n.Pos()).Line)+": "+strings.Join(words, ", "))
		return true
	})
	return out
}

// orChain appends the word-like strings compared with == in a chain of
// || ("w == "a" || w == "b" || ..."), marking the chain's parts.
func orChain(words []string, e ast.Expr, in map[ast.Node]bool) []string {
	switch x := e.(type) {
	case *ast.ParenExpr:
		return orChain(words, x.X, in)
	case *ast.BinaryExpr:
		switch x.Op {
		case token.LOR:
			in[x] = true
			return orChain(orChain(words, x.X, in), x.Y, in)
		case token.EQL:
			return appendWord(words, x.Y)
		}
	}
	return words
}

// constant reports whether a map value is a literal or true/false.
func constant(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		return x.Name == "true" || x.Name == "false"
	case *ast.UnaryExpr:
		return constant(x.X)
	}
	return false
}

func appendWord(words []string, e ast.Expr) []string {
	b, ok := e.(*ast.BasicLit)
	if !ok || b.Kind != token.STRING {
		return words
	}
	s, err := strconv.Unquote(b.Value)
	if err != nil || !wordLike.MatchString(s) {
		return words
	}
	return append(words, s)
}

// TestWordListScanFindsLists checks the scan on the kinds of list it must
// find and the kinds it must leave.
func TestWordListScanFindsLists(t *testing.T) {
	dir := t.TempDir()
	src := `package x

var cancel = []string{"cancel", "stop", "never mind"}
var set = map[string]bool{"yes": true, "yeah": true, "yep": true}
var nums = map[string]int{"one": 1, "two": 2, "three": 3}
var phrases = [][]string{{"i", "want", "to"}}

func f(w string, a, b any) map[string]any {
	switch w {
	case "hi", "hello", "hey":
	}
	_ = []string{"ok", "x"}
	_ = []string{"A", "B", "C"}
	_ = wordSet("too", "also", "aswell")
	_ = w == "x" || (w == "cancel" || w == "cancelar") || w == "cancela"
	return map[string]any{"slot": a, "flow": b, "value": w}
}
`
	path := filepath.Join(dir, "x.go")
	require.NoError(t, writeFile(path, src))
	got := wordLists(t, path)
	assert.Equal(t, []string{
		"x.go:3: cancel, stop, never mind",
		"x.go:4: yes, yeah, yep",
		"x.go:5: one, two, three",
		"x.go:6: i, want, to",
		"x.go:10: hi, hello, hey",
		"x.go:14: too, also, aswell",
		"x.go:15: x, cancel, cancelar, cancela",
	}, got)
}
