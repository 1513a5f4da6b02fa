package lsp

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/convtest"
	"github.com/soni-dev/soni/diag"
)

// project is one soni project the server has compiled: the files it read
// (the open documents' unsaved text over the files on disk), what the
// compiler said, its symbol index and the references in its test files.
type project struct {
	// dir is the project's directory, or its one file.
	dir   string
	files []string
	srcs  map[string]string
	res   *compiler.Result
	// syms and tests are built when a request first needs them after a
	// compile (index), not on every change: tests are the references
	// found in the project's conversation test files.
	indexed   bool
	syms      *compiler.Symbols
	tests     []testRef
	testFiles []string
	// lastGood is the last compile in which every file parsed, and
	// goodSyms its index: completion falls back on them while a file has
	// a YAML error (its definitions are missing from the current one).
	lastGood *compiler.Result
	goodSyms *compiler.Symbols
	// published holds, per file, the diagnostics last sent, so that a
	// change sends only the files whose diagnostics changed.
	published map[string]string
}

// testRef is a name written in a conversation test file.
type testRef struct {
	ID  compiler.SymbolID
	Pos diag.Pos
}

// diskFile is a file read from disk, kept until it changes.
type diskFile struct {
	mod  time.Time
	size int64
	src  string
}

// testCache is a test file's references, kept while its text is the same.
type testCache struct {
	src  string
	refs []convtest.Ref
}

// source returns a file's text: the open document's, else the file's on
// disk (cached while its size and time do not change).
func (s *Server) source(path string) (string, bool) {
	if d, ok := s.docs[path]; ok {
		return d.text, true
	}
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() || info.Size() > s.maxFileSize() {
		return "", false
	}
	if c, ok := s.disk[path]; ok && c.mod.Equal(info.ModTime()) && c.size == info.Size() {
		return c.src, true
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	s.disk[path] = diskFile{mod: info.ModTime(), size: info.Size(), src: string(b)}
	return string(b), true
}

func (s *Server) maxFileSize() int64 {
	if s.opts.MaxFileSize > 0 {
		return s.opts.MaxFileSize
	}
	return compiler.DefaultMaxFileSize
}

// projectDir returns the project a file belongs to, by the rules soni
// validate and soni test use: a test file's flows: key names it; else the
// nearest directory from the file's up that directly holds flow files,
// widened to its parent while the parent is one project by
// compiler.SplitProjects (a project laid out as flows/ and domain/), but
// never above the workspace folder that holds the file, a repository's
// root, the home or the temporary directory. A flow file with no such
// directory is a project of its own.
func (s *Server) projectDir(path string) string {
	if d, ok := s.owner[path]; ok {
		return d
	}
	d := s.findProject(path)
	s.owner[path] = d
	return d
}

func (s *Server) findProject(path string) string {
	if src, ok := s.source(path); ok && convtest.IsTestFile([]byte(src)) {
		if f, _ := convtest.ParseFile(path, []byte(src)); f != nil && strings.TrimSpace(f.Flows) != "" {
			p := f.Flows
			if !filepath.IsAbs(p) {
				p = filepath.Join(filepath.Dir(path), filepath.FromSlash(p))
			}
			if _, err := os.Stat(p); err == nil {
				return filepath.Clean(p)
			}
		}
	}
	limit := s.rootOf(path)
	cur := filepath.Dir(path)
	found := ""
	for !neverProject(cur) {
		if s.hasFlowFiles(cur) {
			found = cur
			break
		}
		if cur == limit || stopDir(cur) {
			break
		}
		cur = filepath.Dir(cur)
	}
	if found == "" {
		return path
	}
	for found != limit && !stopDir(found) {
		parent := filepath.Dir(found)
		if limit != "" && !within(parent, limit) {
			break
		}
		parts := compiler.SplitProjects(parent, s.opts)
		if len(parts) != 1 || filepath.Clean(parts[0]) != parent {
			break
		}
		found = parent
	}
	return found
}

// rootOf returns the workspace folder that holds path, the deepest one, or "".
func (s *Server) rootOf(path string) string {
	best := ""
	for _, r := range s.roots {
		if within(path, r) && len(r) > len(best) {
			best = r
		}
	}
	return best
}

// hasFlowFiles reports whether dir directly holds a YAML file that is not
// a conversation test or an eval file.
func (s *Server) hasFlowFiles(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !(strings.HasSuffix(n, ".yaml") || strings.HasSuffix(n, ".yml")) {
			continue
		}
		src, ok := s.source(filepath.Join(dir, n))
		if ok && !convtest.IsTestFile([]byte(src)) && !compiler.IsEvalFile([]byte(src)) {
			return true
		}
	}
	return false
}

// stopDir reports whether the search for a project stops at dir: a
// repository's top, or a directory that is never a project.
func stopDir(dir string) bool {
	if neverProject(dir) {
		return true
	}
	for _, vcs := range []string{".git", ".hg", ".svn"} {
		if _, err := os.Lstat(filepath.Join(dir, vcs)); err == nil {
			return true
		}
	}
	return false
}

// neverProject reports whether dir is one that is never taken for a
// project, as soni test never takes it: the root, the home or the
// temporary directory, which hold unrelated YAML files (compiling every
// YAML file below the home directory helps nobody). A flow file there is
// a project of its own.
func neverProject(dir string) bool {
	if filepath.Dir(dir) == dir {
		return true
	}
	home, _ := os.UserHomeDir()
	return (home != "" && dir == filepath.Clean(home)) || dir == filepath.Clean(os.TempDir()) || dir == "/tmp"
}

// within reports whether path is dir or below it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// compile compiles the project at dir from the open documents and the
// files on disk, and indexes it.
func (s *Server) compile(dir string) *project {
	p := s.projects[dir]
	if p == nil {
		p = &project{dir: dir, published: map[string]string{}}
		s.projects[dir] = p
	}
	files, _ := compiler.ProjectFiles(dir)
	p.files = p.files[:0]
	p.srcs = make(map[string]string, len(files))
	var inputs []compiler.Source
	var testFiles []string
	for _, f := range files {
		f = filepath.Clean(f)
		src, ok := s.source(f)
		if !ok {
			continue
		}
		p.files = append(p.files, f)
		p.srcs[f] = src
		if bytes.Contains([]byte(src), []byte("test_cases")) && convtest.IsTestFile([]byte(src)) {
			testFiles = append(testFiles, f)
		}
		inputs = append(inputs, compiler.Source{Name: f, Src: []byte(src)})
	}
	p.res = compiler.CompileSourcesIndexed(inputs, s.opts)
	p.indexed, p.syms, p.tests, p.testFiles = false, nil, nil, testFiles
	if parsed(p.res) {
		p.lastGood, p.goodSyms = p.res, nil
	}
	return p
}

// parsed reports whether every file of a compile could be read and
// parsed.
func parsed(r *compiler.Result) bool {
	for _, d := range r.Diags {
		switch d.Code {
		case diag.CodeFileRead, diag.CodeFileLimit, diag.CodeYAMLSyntax, diag.CodeMultiDoc, diag.CodeAliasLimit, diag.CodeNestingLimit, diag.CodeNotUTF8:
			return false
		}
	}
	return true
}

// completionSymbols returns the index completion reads: the current
// one, or while a file does not parse, the last one in which all did.
func (p *project) completionSymbols() *compiler.Symbols {
	if p.lastGood == nil || p.lastGood == p.res {
		return p.syms
	}
	if p.goodSyms == nil {
		p.goodSyms = p.lastGood.Symbols()
	}
	return p.goodSyms
}

// index builds the project's symbol index and resolves its test files'
// names, once per compile.
func (s *Server) index(p *project) {
	if p.indexed {
		return
	}
	p.indexed = true
	p.syms = p.res.Symbols()
	p.tests = s.testRefs(p, p.testFiles)
}

// testRefs resolves the names the project's test files write.
func (s *Server) testRefs(p *project, files []string) []testRef {
	var out []testRef
	for _, f := range files {
		src := p.srcs[f]
		c := s.tests[f]
		if c == nil || c.src != src {
			c = &testCache{src: src}
			if tf, _ := convtest.ParseFile(f, []byte(src)); tf != nil {
				for _, tc := range tf.Cases {
					for _, st := range tc.Steps {
						c.refs = append(c.refs, st.Refs()...)
					}
				}
				for _, st := range append(append([]*convtest.Stub(nil), tf.Stubs...), tf.ValidatorStubs...) {
					c.refs = append(c.refs, convtest.Ref{Kind: "action", Name: st.Action, Pos: st.Pos})
				}
			}
			s.tests[f] = c
		}
		for _, r := range c.refs {
			if id, ok := p.resolveTestRef(r); ok {
				out = append(out, testRef{ID: id, Pos: r.Pos})
			}
		}
	}
	return out
}

// resolveTestRef finds what a test file's name stands for: a slot is the
// conversation slot of that name, else the named flow's, else the first
// flow's that has it.
func (p *project) resolveTestRef(r convtest.Ref) (compiler.SymbolID, bool) {
	if p.syms == nil {
		return compiler.SymbolID{}, false
	}
	want := func(id compiler.SymbolID) bool { return p.def(id) != nil }
	switch r.Kind {
	case "flow":
		id := compiler.SymbolID{Kind: compiler.SymbolFlow, Name: r.Name}
		return id, want(id)
	case "action":
		id := compiler.SymbolID{Kind: compiler.SymbolAction, Name: r.Name}
		return id, want(id)
	case "response":
		id := compiler.SymbolID{Kind: compiler.SymbolResponse, Name: r.Name}
		return id, want(id)
	case "slot":
		id := compiler.SymbolID{Kind: compiler.SymbolSlot, Name: r.Name}
		if want(id) {
			return id, true
		}
		if r.Flow != "" {
			id.Scope = r.Flow
			if want(id) {
				return id, true
			}
		}
		for _, d := range p.syms.Defs {
			if d.ID.Kind == compiler.SymbolSlot && d.ID.Name == r.Name {
				return d.ID, true
			}
		}
	}
	return compiler.SymbolID{}, false
}

// def returns the definition of id, or nil.
func (p *project) def(id compiler.SymbolID) *compiler.Definition {
	if p.syms == nil {
		return nil
	}
	for _, d := range p.syms.Defs {
		if d.ID == id {
			return d
		}
	}
	return nil
}
