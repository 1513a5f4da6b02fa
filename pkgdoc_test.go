package soni_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goPackage is one package of the module, as its files declare it.
type goPackage struct {
	dir string // slash-separated, relative to the module root
	doc string
	// names are its top-level declarations; members, per type, its
	// methods and fields (an interface's methods too).
	names   map[string]bool
	members map[string]map[string]bool
}

// modulePackages parses every package of the module, test files aside.
func modulePackages(t *testing.T) map[string]*goPackage {
	t.Helper()
	pkgs := map[string]*goPackage{}
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if p != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "node_modules") {
			return filepath.SkipDir
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return err
		}
		fset := token.NewFileSet()
		parsed := map[string][]*ast.File{} // by package name
		for _, e := range entries {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, filepath.Join(p, e.Name()), nil, parser.ParseComments)
			if err != nil {
				return err
			}
			parsed[f.Name.Name] = append(parsed[f.Name.Name], f)
		}
		for _, files := range parsed {
			gp := &goPackage{dir: filepath.ToSlash(p), names: map[string]bool{}, members: map[string]map[string]bool{}}
			member := func(typ, name string) {
				if gp.members[typ] == nil {
					gp.members[typ] = map[string]bool{}
				}
				gp.members[typ][name] = true
			}
			for _, f := range files {
				if f.Doc != nil && strings.HasPrefix(f.Doc.Text(), "Package ") {
					gp.doc = f.Doc.Text()
				}
				for _, decl := range f.Decls {
					switch decl := decl.(type) {
					case *ast.FuncDecl:
						if decl.Recv == nil {
							gp.names[decl.Name.Name] = true
							continue
						}
						typ := decl.Recv.List[0].Type
						for {
							switch x := typ.(type) {
							case *ast.StarExpr:
								typ = x.X
								continue
							case *ast.IndexExpr:
								typ = x.X
								continue
							case *ast.IndexListExpr:
								typ = x.X
								continue
							}
							break
						}
						if id, ok := typ.(*ast.Ident); ok {
							member(id.Name, decl.Name.Name)
						}
					case *ast.GenDecl:
						for _, spec := range decl.Specs {
							switch spec := spec.(type) {
							case *ast.TypeSpec:
								gp.names[spec.Name.Name] = true
								var fields *ast.FieldList
								switch tt := spec.Type.(type) {
								case *ast.StructType:
									fields = tt.Fields
								case *ast.InterfaceType:
									fields = tt.Methods
								}
								if fields != nil {
									for _, fl := range fields.List {
										for _, n := range fl.Names {
											member(spec.Name.Name, n.Name)
										}
										if len(fl.Names) == 0 { // embedded
											if id, ok := fl.Type.(*ast.Ident); ok {
												member(spec.Name.Name, id.Name)
											}
										}
									}
								}
							case *ast.ValueSpec:
								for _, n := range spec.Names {
									gp.names[n.Name] = true
								}
							}
						}
					}
				}
			}
			if prev := pkgs[gp.dir]; prev != nil && prev.doc != "" && gp.doc == "" {
				continue // a directory's other package (main beside a library) keeps the documented one
			}
			pkgs[gp.dir] = gp
		}
		return nil
	})
	require.NoError(t, err)
	return pkgs
}

var (
	// docLink is a Go doc link: [Name], [Type.Method], [pkg.Name], [*pkg.Type].
	docLink = regexp.MustCompile(`\[\*?([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\]`)
	// qualified is a package-qualified name in prose: vm.Understander,
	// ir.Program.Flow.
	qualified = regexp.MustCompile(`(?:^|[^\w./])([a-z][a-z0-9]*)\.([A-Z]\w*)(?:\.([A-Z]\w*))?`)
	// pathLike is a word that may name a file or directory: it has a slash
	// or a file extension.
	pathLike  = regexp.MustCompile(`[\w.*<>-]*(?:/[\w.*<>-]+)+/?|\.?[\w*-]+(?:\.[\w-]+)*\.(?:go|md|yaml|yml|json|txtar|tmpl|sh|sql|proto)\b`)
	extension = regexp.MustCompile(`\.(?:go|md|yaml|yml|json|txtar|tmpl|sh|sql|proto)$`)
)

// placeholder reports whether a path stands for any file: a segment in
// capitals (DIR/ID.json), or a bare pattern (*.yaml).
func placeholder(p string) bool {
	for _, seg := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '.' }) {
		if len(seg) >= 2 && strings.IndexFunc(seg, func(r rune) bool { return !unicode.IsUpper(r) && r != '_' && !unicode.IsDigit(r) }) < 0 {
			return true
		}
		if strings.ContainsAny(seg, "<>") {
			return true
		}
	}
	base := path.Base(p)
	return strings.HasPrefix(base, "*.") || strings.HasPrefix(p, "*")
}

// exists reports whether a path named in the doc of the package in dir is
// there: relative to the package, to the module root or to docs/, as a
// glob pattern when it has one. A bare name of a Go file is the package's;
// another bare name (domain.yml) may be any file of the repository (base
// holds their names).
func exists(dir, p string, base map[string]bool) bool {
	p = strings.TrimSuffix(p, "/")
	if !strings.Contains(p, "/") && !strings.HasSuffix(p, ".go") && base[p] {
		return true
	}
	for _, base := range []string{dir, ".", "docs"} {
		full := filepath.Join(base, filepath.FromSlash(p))
		if strings.ContainsAny(p, "*?[") {
			if m, _ := filepath.Glob(full); len(m) > 0 {
				return true
			}
			continue
		}
		if _, err := os.Stat(full); err == nil {
			return true
		}
	}
	return false
}

// TestPackageDocsNameWhatExists checks every package doc of the module:
// each file path it names is in the repository, and each identifier it
// names (a doc link, or a name qualified by one of the module's packages)
// is declared. A doc that names a file or a name that went away is false.
func TestPackageDocsNameWhatExists(t *testing.T) {
	pkgs := modulePackages(t)
	base := map[string]bool{}
	require.NoError(t, filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		base[d.Name()] = true
		return err
	}))
	byName := map[string][]*goPackage{}
	for _, p := range pkgs {
		byName[path.Base(p.dir)] = append(byName[path.Base(p.dir)], p)
	}
	byName["soni"] = append(byName["soni"], pkgs["."])
	// declares reports whether one of the module's packages called pkg
	// declares name (and member, when given).
	declares := func(pkg, name, member string) (known, ok bool) {
		for _, p := range byName[pkg] {
			if p.names[name] && (member == "" || p.members[name][member]) {
				return true, true
			}
		}
		return len(byName[pkg]) > 0, false
	}
	dirs := make([]string, 0, len(pkgs))
	for d := range pkgs {
		dirs = append(dirs, d)
	}
	slices.Sort(dirs)
	checked := 0
	for _, dir := range dirs {
		p := pkgs[dir]
		if p.doc == "" {
			continue
		}
		doc := p.doc
		// A URL is not a path of the repository.
		doc = regexp.MustCompile(`\w+://\S+`).ReplaceAllString(doc, " ")
		for _, m := range docLink.FindAllStringSubmatch(doc, -1) {
			parts := strings.Split(m[1], ".")
			checked++
			switch {
			case p.names[parts[0]]:
				if len(parts) > 1 {
					assert.True(t, p.members[parts[0]][parts[1]], "%s: the package doc links %s, but %s has no %s", dir, m[0], parts[0], parts[1])
				}
			case len(parts) >= 2:
				member := ""
				if len(parts) > 2 {
					member = parts[2]
				}
				if known, ok := declares(parts[0], parts[1], member); known {
					assert.True(t, ok, "%s: the package doc links %s, which package %s does not declare", dir, m[0], parts[0])
				}
			default:
				t.Errorf("%s: the package doc links %s, which the package does not declare", dir, m[0])
			}
		}
		for _, m := range qualified.FindAllStringSubmatch(doc, -1) {
			if known, ok := declares(m[1], m[2], m[3]); known {
				checked++
				assert.True(t, ok, "%s: the package doc names %s.%s, which package %s does not declare", dir, m[1], strings.TrimSuffix(m[2]+"."+m[3], "."), m[1])
			}
		}
		for _, w := range pathLike.FindAllString(doc, -1) {
			w = strings.TrimRight(w, ".,;:")
			if w == "" || strings.HasPrefix(w, "/") || strings.HasPrefix(w, ".") && !strings.Contains(w, "/") || placeholder(w) {
				// An absolute path is the system's or a URL's; a hidden
				// file (.soni-import.json) one that a program writes.
				continue
			}
			first := strings.SplitN(w, "/", 2)[0]
			// A word with a slash is a path when it starts at a directory
			// of the repository or the package ("and/or" is not); a word
			// with a file extension always is.
			if !extension.MatchString(w) && !exists(dir, first, nil) {
				continue
			}
			checked++
			assert.True(t, exists(dir, w, base), "%s: the package doc names %q, which is not in the repository", dir, w)
		}
	}
	t.Logf("%d paths and names checked", checked)
	assert.Greater(t, checked, 50, "the test found the docs' paths and names")
}
