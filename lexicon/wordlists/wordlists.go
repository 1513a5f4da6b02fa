// Package wordlists finds word lists declared in Go code, for the tests
// of the packages whose words must come from package lexicon
// (understand, understand/llm, values, vm): each of them has a test that
// asks Find for its own directory and fails on what it returns.
package wordlists

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// wordLike is a string a word list would hold: lower-case letters, with
// spaces, apostrophes or hyphens between them.
var wordLike = regexp.MustCompile(`^\p{Ll}[\p{Ll}' -]*$`)

// Find returns the word lists declared in the Go files of dir, test files
// aside, as "file:line: word, word, word". A word list is a composite
// literal (slice, array or map), a case clause, a call (wordSet("a", "b",
// "c")) or a chain of comparisons (w == "a" || w == "b" || w == "c") with
// three or more word-like string literals. A map's keys count when their
// values are constants (map[string]bool{"cancel": true}), not when they
// name the fields of a value built from variables. allowed holds, by file
// name, the lists that are names of soni's own protocols rather than words
// of a language, written as Find writes them after the colon.
func Find(dir string, allowed map[string][]string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no Go files in %q", dir)
	}
	var found []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		lists, err := File(f)
		if err != nil {
			return nil, err
		}
		base := filepath.Base(f)
		for _, l := range lists {
			if !slices.Contains(allowed[base], l.Words) {
				found = append(found, base+":"+strconv.Itoa(l.Line)+": "+l.Words)
			}
		}
	}
	sort.Strings(found)
	return found, nil
}

// List is one word list found in a file.
type List struct {
	Line  int
	Words string // the words, joined with ", "
}

// File returns the word lists of one Go file.
func File(file string) ([]List, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, 0)
	if err != nil {
		return nil, err
	}
	var out []List
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
		if len(words) >= 3 {
			out = append(out, List{Line: fset.Position(n.Pos()).Line, Words: strings.Join(words, ", ")})
		}
		return true
	})
	return out, nil
}

// orChain appends the word-like strings compared with == in a chain of
// ||, marking the chain's parts.
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
