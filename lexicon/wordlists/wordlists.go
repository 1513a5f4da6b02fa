// Package wordlists finds words of a language written in Go code, for
// the tests of the packages whose words must come from package lexicon
// (understand, understand/llm, values, vm): each of them has a test,
// TestNoWordLists, that calls Check for its own directory.
//
// Two things are words in code: a word list (a slice, array or map
// literal with a word-like string literal, or a struct literal, call or
// chain of comparisons with three or more) and a word comparison (a
// string compared with a word-like literal, or with an untyped constant
// of the package that holds one: w == "the", case "or":,
// strings.HasPrefix(w, "night"), unit["night"]). The only words a
// package may compare are the names of soni's own protocols, listed
// with what they name in Protocol, the one allow-list.
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
// spaces, apostrophes or hyphens between them (and spaces around them:
// " as ").
var wordLike = regexp.MustCompile(`^\p{Ll}[\p{Ll}' -]*$`)

// Find returns the word lists and word comparisons in the Go files of
// dir, test files aside, as "file:line: word, word, word", leaving out
// those that allowed holds for their file (written as Find writes them
// after the colon). A word list is a slice, array or map literal (with
// the slices and maps it holds) with one word-like string literal or
// more, or a struct literal, a call (wordSet("a", "b", "c")) or a chain
// of comparisons (w == "a" || w == "b" || w == "c") with three or more;
// a map's keys count when their values are constants
// (map[string]bool{"cancel": true}), not when they name the
// fields of a value built from variables. A word comparison is an == or
// != with a word-like string on one side, a case clause with one, a
// lookup by one (unit["night"]), or a call of package strings, bytes or
// slices that compares with one (strings.HasPrefix(w, "night"),
// slices.Contains(words, "of")). An
// untyped constant the package declares with a word-like value counts as
// the word; a typed one (a CommandKind "affirm") names a value of a
// protocol's type.
func Find(dir string, allowed map[string][]string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no Go files in %q", dir)
	}
	// The word constants of the package's files, which any of them may
	// compare.
	consts := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, 0)
		if err != nil {
			return nil, err
		}
		for k, v := range wordConsts(parsed) {
			consts[k] = v
		}
	}
	var found []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		lists, err := inFile(f, consts)
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

// List is one word list or word comparison found in a file.
type List struct {
	Line  int
	Words string // the words, joined with ", "
}

// comparers are the functions of packages strings, bytes and slices
// whose word-like argument is a word compared with the other.
var comparers = map[string]bool{
	"HasPrefix": true, "HasSuffix": true, "Contains": true, "EqualFold": true,
	"TrimPrefix": true, "TrimSuffix": true, "CutPrefix": true, "CutSuffix": true,
	"Index": true, "LastIndex": true, "Count": true, "Cut": true, "Compare": true,
}

// File returns the word lists and word comparisons of one Go file.
func File(file string) ([]List, error) {
	return inFile(file, nil)
}

// inFile is File with the word constants the file's package declares in
// its other files: a name the file does not declare itself (Obj is nil)
// is one of them.
func inFile(file string, pkgConsts map[string]string) ([]List, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, 0)
	if err != nil {
		return nil, err
	}
	consts := wordConsts(f)
	word := func(words []string, e ast.Expr) []string {
		if id, ok := e.(*ast.Ident); ok && id.Obj == nil && pkgConsts[id.Name] != "" {
			return append(words, pkgConsts[id.Name])
		}
		if id, ok := e.(*ast.Ident); ok && consts[id.Name] != "" && id.Obj != nil && id.Obj.Kind == ast.Con {
			return append(words, consts[id.Name])
		}
		return appendWord(words, e)
	}
	var out []List
	add := func(n ast.Node, words []string, min int) {
		if len(words) >= min {
			out = append(out, List{Line: fset.Position(n.Pos()).Line, Words: strings.Join(words, ", ")})
		}
	}
	inChain, inList := map[ast.Node]bool{}, map[ast.Node]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.BinaryExpr:
			switch {
			case x.Op == token.LOR && !inChain[x]:
				// A chain of three or more is a list; each of its
				// comparisons is found on its own below as well.
				add(x, orChain(nil, x, inChain, word), 3)
			case x.Op == token.EQL || x.Op == token.NEQ:
				add(x, word(word(nil, x.X), x.Y), 1)
			}
		case *ast.CompositeLit:
			if inList[x] {
				return true
			}
			// A slice, array or map of words is a list, however short;
			// a struct's fields are not.
			min := 3
			if !isStruct(x) {
				min = 1
			}
			add(x, listWords(nil, x, inList), min)
		case *ast.IndexExpr:
			// A lookup by a word: unit["night"].
			add(x, word(nil, x.Index), 1)
		case *ast.CaseClause:
			var words []string
			for _, e := range x.List {
				words = word(words, e)
			}
			add(x, words, 1)
		case *ast.CallExpr:
			var words []string
			for _, e := range x.Args {
				words = word(words, e)
			}
			if sel, ok := x.Fun.(*ast.SelectorExpr); ok && comparers[sel.Sel.Name] {
				if pkg, ok := sel.X.(*ast.Ident); ok && (pkg.Name == "strings" || pkg.Name == "bytes" || pkg.Name == "slices") {
					add(x, words, 1)
					return true
				}
			}
			add(x, words, 3)
		}
		return true
	})
	return out, nil
}

// listWords appends the word-like strings of a composite literal, and
// of the composite literals it holds ([][]string{{"as"}, {"for"}}),
// marking those.
func listWords(words []string, x *ast.CompositeLit, in map[ast.Node]bool) []string {
	for _, e := range x.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if constant(kv.Value) {
				words = appendWord(words, kv.Key)
			}
			e = kv.Value
		}
		if c, ok := e.(*ast.CompositeLit); ok {
			in[c] = true
			if nested(x) {
				words = listWords(words, c, in)
			}
			continue
		}
		words = appendWord(words, e)
	}
	return words
}

// nested reports whether the elements of a composite literal are slices,
// arrays or maps (whose words are the literal's), not structs.
func nested(x *ast.CompositeLit) bool {
	var elem ast.Expr
	switch t := x.Type.(type) {
	case *ast.ArrayType:
		elem = t.Elt
	case *ast.MapType:
		elem = t.Value
	}
	switch elem.(type) {
	case *ast.ArrayType, *ast.MapType:
		return true
	}
	return false
}

// isStruct reports whether a composite literal may be a struct's: its
// type is neither a slice, an array nor a map.
func isStruct(x *ast.CompositeLit) bool {
	switch x.Type.(type) {
	case *ast.ArrayType, *ast.MapType:
		return false
	}
	return true
}

// wordConsts maps the untyped constants a file declares with a
// word-like string value to that value.
func wordConsts(f *ast.File) map[string]string {
	m := map[string]string{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			if vs.Type != nil {
				// A typed constant (a CommandKind "affirm") is a value of
				// a protocol's type, not a word.
				continue
			}
			for i, name := range vs.Names {
				if i < len(vs.Values) {
					if w := appendWord(nil, vs.Values[i]); len(w) == 1 {
						m[name.Name] = w[0]
					}
				}
			}
		}
	}
	return m
}

// orChain appends the word-like strings compared with == in a chain of
// ||, marking the chain's parts.
func orChain(words []string, e ast.Expr, in map[ast.Node]bool, word func([]string, ast.Expr) []string) []string {
	switch x := e.(type) {
	case *ast.ParenExpr:
		return orChain(words, x.X, in, word)
	case *ast.BinaryExpr:
		switch x.Op {
		case token.LOR:
			in[x] = true
			return orChain(orChain(words, x.X, in, word), x.Y, in, word)
		case token.EQL:
			return word(words, x.Y)
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
	if err != nil || !wordLike.MatchString(strings.TrimSpace(s)) {
		return words
	}
	return append(words, s)
}
