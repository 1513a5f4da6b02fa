package convtest

import (
	"bytes"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/soni-dev/soni/internal/suggest"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/internal/safefile"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/schema"
	docs "github.com/soni-dev/soni/syntax"
	"github.com/soni-dev/soni/understand"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// Options configure [Load] and [Suite.Run]. Every field is optional.
type Options struct {
	// Flows, when set, is the project under test for every file (--flows):
	// a flow file, a project directory or a compiled program (.json).
	Flows string
	// Run, when set, selects the test cases whose names it matches.
	Run *regexp.Regexp
	// Jobs is how many cases run at once; default runtime.NumCPU().
	Jobs int
	// Actions returns the runner for actions that have no stub, given the
	// compiled program, the project directory and the environment the
	// runner reads (${VAR} in URLs, the variables passed to commands):
	// nil means the process environment; a test file with services gets
	// one that adds their URLs. It is only asked to run actions whose
	// declaration has a run: block; when it is nil, or the action has no
	// run:, calling an unstubbed action fails the case, and no service is
	// started.
	Actions func(prog *ir.Program, dir string, lookupEnv func(string) (string, bool)) vm.ActionRunner
	// Understander returns the understanding layer of a project under
	// test; nil means the built-in rules. An error is reported against
	// the project and its tests do not run.
	Understander func(prog *ir.Program, dir string) (vm.Understander, error)
	// Compiler holds the compiler's limits.
	Compiler compiler.Options
	// Now is the clock that times the cases; default time.Now. Tests
	// inject a fixed clock so that reports are byte-for-byte stable.
	Now func() time.Time
}

// Suite is a set of test files loaded with their projects, ready to run.
type Suite struct {
	// Files are the test files in path order.
	Files []*Target
	// Projects are the projects under test, in the order first used.
	Projects []*Project
	// Diags holds every problem found in the test files and, for projects
	// that do not compile, the compiler's diagnostics. A suite with
	// errors must not run.
	Diags diag.List
	// Sources holds the bytes of every file a diagnostic may point at.
	Sources diag.SourceMap
	opts    Options
	// flowFiles remembers, by absolute path, whether a YAML file is a
	// flow file (not a test or eval file), so that the project search reads and
	// parses each file once however many test files look at it.
	flowFiles map[string]bool
}

// Target is a test file and the project it tests.
type Target struct {
	File    *File
	Project *Project
	// fixtures are the file's fixtures by name, with converted values.
	fixtures map[string]*Fixture
	// stubs are the file-wide stubs by action; caseStubs by case, then
	// action.
	stubs     map[string]*Stub
	caseStubs map[string]map[string]*Stub
	// vstubs and caseVstubs are the same for stub_validators.
	vstubs     map[string]*Stub
	caseVstubs map[string]map[string]*Stub
	// fallback, when the file has services, runs the declared actions
	// with their URLs in the environment; else the project's runs them.
	fallback vm.ActionRunner
	// serviceErr, when a service did not start, fails every case.
	serviceErr error
}

// Project is a compiled project under test.
type Project struct {
	// Path is the project as given to the compiler.
	Path string
	// Dir is the project directory: actions run there.
	Dir     string
	Program *ir.Program
	// engine runs the cases' turns on a memory store, through the same
	// path as chat and serve: each turn decodes and encodes its checkpoint.
	engine *soni.Engine
	// fallback runs declared actions that a case does not stub.
	fallback vm.ActionRunner
	actions  map[string]bool
	// validators are the named validators the collects use or the
	// project declares.
	validators map[string]bool
}

// Load finds the test files below paths (files, or directories searched
// recursively, skipping hidden directories), parses them, resolves and
// compiles their projects and checks every name they use. Problems are in
// Suite.Diags; a suite with errors must not run.
func Load(paths []string, opts Options) *Suite {
	// The projects are compiled after the test files are read: the flow
	// schema compiles meanwhile on another processor.
	go schema.Warm()
	s := &Suite{Sources: diag.SourceMap{}, opts: opts, flowFiles: map[string]bool{}}
	found := s.discover(paths)
	projects := map[string]*Project{}
	for _, fd := range found {
		f, ds := fd.file, fd.diags
		if !fd.parsed {
			f, ds = ParseFile(fd.path, fd.src)
		}
		s.Sources[fd.path] = fd.src
		s.Diags = append(s.Diags, ds...)
		if f == nil {
			continue
		}
		// A file with syntax problems is still checked against its
		// project, so that one run reports every problem; it never runs.
		clean := !ds.HasErrors()
		path, ok := s.projectPath(f, fd.limit, fd.limitHasFlows)
		if !ok {
			continue
		}
		key := absPath(path)
		p, seen := projects[key]
		if !seen {
			p = s.compile(path)
			projects[key] = p
			if p != nil {
				s.Projects = append(s.Projects, p)
			}
		}
		if p == nil {
			continue
		}
		t := &Target{File: f, Project: p}
		if s.check(t) && clean {
			s.Files = append(s.Files, t)
		}
	}
	s.Diags.Sort()
	return s
}

// found is a test file found on the command line.
type found struct {
	path string
	src  []byte
	// limit is the highest directory the project search walks up to: the
	// directory given on the command line, or "" (no limit) for a file.
	limit string
	// limitHasFlows is true when limit holds, anywhere below it, YAML
	// files that are not test or eval files: then limit itself is the project of
	// a file for which walking up found no closer one.
	limitHasFlows bool
	// parsed is true when discovery parsed the file already (to tell a
	// test file from a flow file): file and diags are ParseFile's result.
	parsed bool
	file   *File
	diags  diag.List
}

// discover lists the test files below paths, in path order, each once.
func (s *Suite) discover(paths []string) []found {
	var out []found
	seen := map[string]bool{}
	add := func(fd found) {
		key := absPath(fd.path)
		if seen[key] {
			return
		}
		seen[key] = true
		fd.path = filepath.ToSlash(fd.path)
		out = append(out, fd)
	}
	for _, arg := range paths {
		info, err := os.Stat(arg)
		if err != nil {
			s.Diags.Add(diag.Pos{File: filepath.ToSlash(arg)}, CodeFileRead, "", "cannot read %q: %s", arg, errText(err))
			continue
		}
		if !info.IsDir() {
			src, err := readFile(arg)
			if err != nil {
				s.Diags.Add(diag.Pos{File: filepath.ToSlash(arg)}, CodeFileRead, "", "cannot read %q: %s", arg, errText(err))
				continue
			}
			af, isTest := classify(src)
			s.flowFiles[absPath(arg)] = !isTest && !compiler.IsEvalFile(src)
			f, ds := decodeFile(filepath.ToSlash(arg), src, af)
			add(found{path: arg, src: src, parsed: true, file: f, diags: ds})
			continue
		}
		var files []string
		err = filepath.WalkDir(arg, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				s.Diags.Add(diag.Pos{File: filepath.ToSlash(p)}, CodeFileRead, "", "cannot read %q: %s", p, errText(err))
				return nil
			}
			if d.IsDir() {
				if p != arg && strings.HasPrefix(d.Name(), ".") {
					return fs.SkipDir
				}
				return nil
			}
			if isYAMLName(d.Name()) && d.Type().IsRegular() {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			s.Diags.Add(diag.Pos{File: filepath.ToSlash(arg)}, CodeFileRead, "", "cannot read %q: %s", arg, errText(err))
		}
		sort.Strings(files)
		read := s.readAll(files)
		var tests []found
		hasFlows := false
		for i, p := range files {
			r := read[i]
			if r.err != nil {
				s.Diags.Add(diag.Pos{File: filepath.ToSlash(p)}, CodeFileRead, "", "cannot read %q: %s", p, errText(r.err))
				continue
			}
			flow := !r.isTest && !compiler.IsEvalFile(r.src)
			s.flowFiles[absPath(p)] = flow
			if r.isTest {
				tests = append(tests, found{path: p, src: r.src, limit: arg, parsed: true, file: r.file, diags: r.diags})
			}
			hasFlows = hasFlows || flow
		}
		for _, fd := range tests {
			fd.limitHasFlows = hasFlows
			add(fd)
		}
		n := len(tests)
		if n == 0 {
			s.Diags.Add(diag.Pos{File: filepath.ToSlash(arg)}, CodeFileRead, "", "no test files (YAML files with test_cases) below %q", arg)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

func isYAMLName(name string) bool {
	return strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")
}

// IsTestFile reports whether YAML source is a conversation test file: its
// top level has the key test_cases. Source that is not valid YAML counts
// as a test file when a line starts with that key, so that a broken test
// file is reported rather than silently skipped.
func IsTestFile(src []byte) bool {
	_, ok := classify(src)
	return ok
}

// classify is IsTestFile, and returns the parsed YAML of a test file, so
// that it is decoded without parsing it again.
func classify(src []byte) (*docs.ParsedTests, bool) {
	if !bytes.Contains(src, []byte("test_cases")) {
		return nil, false
	}
	parsed := parseYAML(src)
	return parsed, parsed.IsTests()
}

// readResult is one YAML file found in a directory, read and, when it is
// a test file, parsed.
type readResult struct {
	src    []byte
	err    error
	isTest bool
	file   *File
	diags  diag.List
}

// readAll reads and classifies files, parsing and decoding the test files
// among them once each, on as many goroutines as there are processors.
// The results are in the order of files.
func (s *Suite) readAll(files []string) []readResult {
	out := make([]readResult, len(files))
	inParallel(runtime.GOMAXPROCS(0), len(files), func(_, i int) {
		r := &out[i]
		if r.src, r.err = readFile(files[i]); r.err != nil {
			return
		}
		var af *docs.ParsedTests
		if af, r.isTest = classify(r.src); r.isTest {
			r.file, r.diags = decodeFile(filepath.ToSlash(files[i]), r.src, af)
		}
	})
	return out
}

// inParallel calls do(worker, job) for every job in [0, jobs) on at most
// workers goroutines, numbered from 0, and returns when all are done.
// Each worker claims the next job itself: a goroutine handing jobs out
// would compete with the workers for the processors.
func inParallel(workers, jobs int, do func(worker, job int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range min(workers, jobs) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= jobs {
					return
				}
				do(w, i)
			}
		}()
	}
	wg.Wait()
}

// projectPath resolves the project of a test file: --flows, else the
// file's flows: key (relative to the file), else the nearest directory from
// the file's up to limit (the directory given on the command line; for a
// file given directly, up to the root) that directly holds YAML files that
// are not test or eval files, else limit itself when limitHasFlows says it holds
// such files further down (project/flows next to project/tests).
func (s *Suite) projectPath(f *File, limit string, limitHasFlows bool) (string, bool) {
	if s.opts.Flows != "" {
		if _, err := os.Stat(s.opts.Flows); err != nil {
			s.Diags.Add(diag.Pos{File: filepath.ToSlash(s.opts.Flows)}, CodeNoProject, "", "cannot read the project %q given by --flows: %s", s.opts.Flows, errText(err))
			return "", false
		}
		return s.opts.Flows, true
	}
	dir := filepath.Dir(filepath.FromSlash(f.Path))
	if f.flowsKey && strings.TrimSpace(f.Flows) == "" {
		// The key is there but unusable (already reported): searching
		// for another project would only add unrelated diagnostics.
		return "", false
	}
	if f.Flows != "" {
		p := filepath.Join(dir, filepath.FromSlash(f.Flows))
		if filepath.IsAbs(f.Flows) {
			p = f.Flows
		}
		if _, err := os.Stat(p); err != nil {
			s.Diags.Add(f.FlowsPos, CodeNoProject, "", "flows: %q does not exist (it is relative to the test file: %q)", f.Flows, filepath.ToSlash(p))
			return "", false
		}
		return p, true
	}
	absLimit := ""
	if limit != "" {
		absLimit = absPath(limit)
	}
	cur := absPath(dir)
	start, last := cur, cur
	wd, _ := os.Getwd()
	if abs, err := filepath.Abs(wd); err == nil {
		wd = abs
	}
	for {
		if s.hasFlowFiles(cur) {
			return s.display(cur), true
		}
		last = cur
		parent := filepath.Dir(cur)
		if cur == absLimit || parent == cur || (absLimit != "" && !within(parent, absLimit)) {
			break
		}
		if absLimit == "" && cur == wd && !neverProject(wd) && s.hasFlowFilesBelow(wd) {
			// The search never climbs above the working directory when it
			// holds flow files further down: it is the project (below).
			break
		}
		if absLimit == "" && (isRepoRoot(cur) || neverProject(parent)) {
			// A file given directly: the search stays inside its
			// repository and never takes the home or temporary
			// directory, or the root, for a project (compiling every
			// YAML file below /tmp helps nobody).
			break
		}
		cur = parent
	}
	if limit != "" && limitHasFlows {
		return limit, true
	}
	// Run from a project root laid out as flows/ and tests/, "soni test
	// tests/t.yaml" and "soni test tests/" both mean "soni test ." for
	// those files: the working directory is the project when the file or
	// directory given is inside it and it holds flow files further down.
	if wd != "" && within(start, wd) && !neverProject(wd) && s.hasFlowFilesBelow(wd) {
		switch {
		case limit == "" && within(wd, last):
			return s.display(wd), true
		case limit != "" && absLimit != wd && within(absLimit, wd):
			return s.display(wd), true
		}
	}
	upTo := fmt.Sprintf("%q", filepath.ToSlash(s.display(last)))
	if limit != "" {
		upTo = fmt.Sprintf("%q", filepath.ToSlash(limit))
	}
	s.Diags.Add(diag.Pos{File: f.Path, Line: 1, Col: 1}, CodeNoProject, "", "no project found for test file %q: no directory from %q up to %s holds flow files; add flows: PATH to the file or pass --flows", f.Path, filepath.ToSlash(dir), upTo)
	return "", false
}

// isRepoRoot reports whether dir is the top of a version-controlled tree:
// a project is never above it.
func isRepoRoot(dir string) bool {
	for _, vcs := range []string{".git", ".hg", ".svn"} {
		if _, err := os.Lstat(filepath.Join(dir, vcs)); err == nil {
			return true
		}
	}
	return false
}

// neverProject reports whether dir is one the search for a project of a
// file given directly does not look at: the file system's root, the home
// directory and the temporary directory, which hold unrelated YAML files.
func neverProject(dir string) bool {
	if filepath.Dir(dir) == dir {
		return true
	}
	// /tmp too: TMPDIR may point elsewhere (testscript sets it), and a
	// shared /tmp holds anybody's YAML.
	for _, d := range []func() (string, error){os.UserHomeDir, func() (string, error) { return os.TempDir(), nil }, func() (string, error) { return "/tmp", nil }} {
		p, err := d()
		if err != nil || p == "" {
			continue
		}
		if p, err = filepath.Abs(p); err == nil && (p == dir || sameDir(p, dir)) {
			return true
		}
	}
	return false
}

// sameDir reports whether two paths name the same directory, through
// symbolic links (macOS's /tmp is /private/tmp).
func sameDir(a, b string) bool {
	ia, err := os.Stat(a)
	if err != nil {
		return false
	}
	ib, err := os.Stat(b)
	return err == nil && os.SameFile(ia, ib)
}

// within reports whether dir is limit or below it.
func within(dir, limit string) bool {
	rel, err := filepath.Rel(limit, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// display turns an absolute path into one relative to the process's
// working directory when it is below it, for short, stable messages.
func (s *Suite) display(abs string) string {
	wd, err := os.Getwd()
	if err != nil {
		return abs
	}
	if rel, err := filepath.Rel(wd, abs); err == nil && within(abs, wd) {
		return rel
	}
	return abs
}

// absPath is path made absolute, or path itself when it cannot be.
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// isFlowFile reports whether the YAML file at path reads and is neither a
// test file nor an eval file (soni eval's), reading it once for the whole
// suite.
func (s *Suite) isFlowFile(path string) bool {
	key := absPath(path)
	if flow, ok := s.flowFiles[key]; ok {
		return flow
	}
	src, err := readFile(path)
	flow := err == nil && !IsTestFile(src) && !compiler.IsEvalFile(src)
	s.flowFiles[key] = flow
	return flow
}

// hasFlowFiles reports whether dir directly holds a YAML file that is
// neither a test file nor an eval file.
func (s *Suite) hasFlowFiles(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.IsDir() || !isYAMLName(e.Name()) {
			continue
		}
		if s.isFlowFile(filepath.Join(dir, e.Name())) {
			return true
		}
	}
	return false
}

// hasFlowFilesBelow reports whether dir or a directory below it that is
// not hidden holds a YAML file that is not a test or eval file.
func (s *Suite) hasFlowFilesBelow(dir string) bool {
	found := false
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil || found:
			return fs.SkipDir
		case d.IsDir():
			if p != dir && strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir
			}
		case isYAMLName(d.Name()) && d.Type().IsRegular():
			if s.isFlowFile(p) {
				found = true
				return fs.SkipAll
			}
		}
		return nil
	})
	return found
}

// compile compiles a project, or decodes a compiled program. It returns
// nil, with diagnostics, when the project has errors.
func (s *Suite) compile(path string) *Project {
	p := &Project{Path: filepath.ToSlash(path), Dir: path}
	if info, err := os.Stat(path); err == nil && !info.IsDir() {
		p.Dir = filepath.Dir(path)
	}
	if strings.HasSuffix(path, ".json") {
		b, err := readFile(path)
		if err != nil {
			s.Diags.Add(diag.Pos{File: p.Path}, CodeNoProject, "", "cannot read %q: %s", path, errText(err))
			return nil
		}
		prog, err := ir.Decode(b)
		if err != nil {
			s.Diags.Add(diag.Pos{File: p.Path}, CodeNoProject, "", "%q is not a compiled program: %s", path, err)
			return nil
		}
		p.Program = prog
	} else {
		r := compiler.Compile(path, s.opts.Compiler)
		for _, f := range r.Files {
			s.Sources[f.Path] = f.Src
		}
		if r.Program == nil {
			s.Diags = append(s.Diags, r.Diags...)
			return nil
		}
		p.Program = r.Program
	}
	if s.opts.Actions != nil {
		p.fallback = s.opts.Actions(p.Program, p.Dir, nil)
	}
	// The rules by default; an Understander option builds its own, so
	// the rules are not built twice (their synonyms take milliseconds).
	var u vm.Understander
	if s.opts.Understander == nil {
		u = understand.New(p.Program)
	} else {
		var err error
		if u, err = s.opts.Understander(p.Program, p.Dir); err != nil {
			s.Diags.Add(diag.Pos{File: p.Path}, CodeNoProject, "", "cannot run the project %q: %s", p.Path, err)
			return nil
		}
	}
	// Every turn gives its case's own runner (Input.Actions); the
	// engine's default refuses, so no turn can run an action unstubbed.
	eng, err := soni.New(p.Program, soni.Options{
		Store:        checkpoints.NewMemoryStore(checkpoints.WithRecordValues()),
		Actions:      vm.ActionFunc(noCaseRunner),
		Validators:   vm.ValidatorFunc(noCaseValidator),
		Understander: u,
		Dir:          p.Dir,
	})
	if err != nil {
		s.Diags.Add(diag.Pos{File: p.Path}, CodeNoProject, "", "cannot run the project %q: %s", p.Path, err)
		return nil
	}
	p.engine = eng
	p.actions = map[string]bool{}
	for _, a := range p.Program.Actions {
		p.actions[a.Name] = true
	}
	p.validators = map[string]bool{}
	for _, v := range p.Program.Validators {
		p.validators[v.Name] = true
	}
	for _, f := range p.Program.Flows {
		if f.Builtin {
			continue // soni's default patterns call only built-in actions
		}
		for _, n := range f.Nodes {
			if n.Kind == ir.KindAction {
				p.actions[n.Action] = true
			}
			if n.AskAction != "" {
				p.actions[n.AskAction] = true
			}
			if n.Validator != nil && n.Validator.Name != "" {
				p.validators[n.Validator.Name] = true
			}
		}
	}
	return p
}

// check checks every name a file uses against its project and converts
// the fixtures. It reports whether the file is free of errors.
func (s *Suite) check(t *Target) bool {
	// Tests may name the flows and responses of soni's default patterns,
	// which the program carries.
	f, prog := t.File, t.Project.Program
	var ds diag.List
	suggest := func(dg *diag.Diagnostic, name string, candidates []string) {
		if c := suggest.Closest(name, candidates); c != "" {
			dg.Suggestion = fmt.Sprintf("did you mean %q?", c)
		}
	}
	flows := make([]string, 0, len(prog.Flows))
	for _, fl := range prog.Flows {
		flows = append(flows, fl.Name)
	}
	allSlots := map[string]bool{}
	for _, sl := range prog.Slots {
		allSlots[sl.Name] = true
	}
	for _, fl := range prog.Flows {
		for _, sl := range fl.Slots {
			allSlots[sl.Name] = true
		}
	}
	slotNames := slices.Sorted(maps.Keys(allSlots))
	actionNames := slices.Sorted(maps.Keys(t.Project.actions))
	checkRef := func(r ref) {
		switch r.kind {
		case "flow":
			if prog.Flow(r.name) == nil {
				suggest(ds.Add(r.pos, CodeUnknownFlow, "", "unknown flow %q: the project has no such flow", r.name), r.name, flows)
			}
		case "slot":
			if r.flow != "" {
				fl := prog.Flow(r.flow)
				if fl == nil || prog.ResolveSlot(r.flow, r.name) != nil || prog.Callees(r.flow)[r.name] != "" {
					return
				}
				var cands []string
				for _, sl := range prog.Slots {
					cands = append(cands, sl.Name)
				}
				for _, sl := range fl.Slots {
					cands = append(cands, sl.Name)
				}
				suggest(ds.Add(r.pos, CodeUnknownSlot, "", "flow %q has no slot %q", r.flow, r.name), r.name, cands)
				return
			}
			if !allSlots[r.name] {
				suggest(ds.Add(r.pos, CodeUnknownSlot, "", "unknown slot %q: no flow of the project has it", r.name), r.name, slotNames)
			}
		case "response":
			if prog.Response(r.name) == nil {
				names := make([]string, 0, len(prog.Responses))
				for _, rs := range prog.Responses {
					names = append(names, rs.Name)
				}
				suggest(ds.Add(r.pos, CodeUnknownResponse, "", "unknown response %q: the project has no such response", r.name), r.name, names)
			}
		case "action":
			if !t.Project.actions[r.name] {
				suggest(ds.Add(r.pos, CodeUnknownAction, "", "unknown action %q: no step calls it and nothing declares it", r.name), r.name, actionNames)
			}
		case "step":
			fl := prog.Flow(r.flow)
			if fl == nil {
				return // the unknown flow is reported
			}
			var ids []string
			for _, n := range fl.Nodes {
				if n.ID == r.name {
					return
				}
				ids = append(ids, n.ID)
			}
			suggest(ds.Add(r.pos, CodeUnknownFlow, "", "flow %q has no step %q", r.flow, r.name), r.name, ids)
		}
	}
	t.fixtures = map[string]*Fixture{}
	for _, fx := range f.Fixtures {
		t.fixtures[fx.Name] = fx
		for i := range fx.Slots {
			sv := &fx.Slots[i]
			def := prog.Slot(sv.Slot)
			if def == nil {
				if allSlots[sv.Slot] {
					ds.Add(sv.Pos, CodeInvalidValue, "", "fixture %q sets %q, which is a flow slot: fixtures preset conversation slots only (use start_flow with slots, or set_slot, for flow slots)", fx.Name, sv.Slot)
					continue
				}
				suggest(ds.Add(sv.Pos, CodeUnknownSlot, "", "fixture %q sets unknown slot %q: the project has no conversation slot of that name", fx.Name, sv.Slot), sv.Slot, slotNames)
				continue
			}
			v, err := values.Convert(def, sv.Value)
			if err != nil {
				ds.Add(sv.Pos, CodeInvalidValue, "", "fixture %q: value for slot %q does not fit its type %s: %s", fx.Name, sv.Slot, def.Type, err)
				continue
			}
			sv.Value = v
		}
	}
	fixtureNames := slices.Sorted(maps.Keys(t.fixtures))
	cases := map[string]bool{}
	for _, c := range f.Cases {
		cases[c.Name] = true
		for _, fr := range c.Fixtures {
			if t.fixtures[fr.Name] == nil {
				suggest(ds.Add(fr.Pos, CodeUnknownFixture, "", "test case %q uses unknown fixture %q", c.Name, fr.Name), fr.Name, fixtureNames)
			}
		}
		metaNames := slices.Sorted(maps.Keys(f.Metadata))
		checkMeta := func(r NameRef) {
			if r.Name != "" && f.Metadata[r.Name] == nil {
				suggest(ds.Add(r.Pos, CodeUnknownFixture, "", "test case %q uses unknown metadata %q: define it under the file's metadata", c.Name, r.Name), r.Name, metaNames)
			}
		}
		checkMeta(c.Metadata)
		for _, st := range c.Steps {
			checkMeta(st.Metadata)
			for _, r := range st.refs {
				checkRef(r)
			}
		}
	}
	caseNames := slices.Sorted(maps.Keys(cases))
	// indexStubs checks stubs of one kind and files them by name, for the
	// whole file or for one case.
	indexStubs := func(stubs []*Stub, known map[string]bool, unknown, what string) (map[string]*Stub, map[string]map[string]*Stub) {
		names := slices.Sorted(maps.Keys(known))
		all, byCase := map[string]*Stub{}, map[string]map[string]*Stub{}
		for _, st := range stubs {
			ok := true
			if !known[st.Action] {
				suggest(ds.Add(st.Pos, CodeUnknownAction, "", unknown, st.Action), st.Action, names)
				ok = false
			}
			if st.Case != "" && !cases[st.Case] {
				suggest(ds.Add(st.Pos, CodeUnknownCase, "", "%s %q names test case %q, which this file does not have", what, st.Case+"::"+st.Action, st.Case), st.Case, caseNames)
				ok = false
			}
			switch {
			case !ok:
			case st.Case == "":
				all[st.Action] = st
			default:
				if byCase[st.Case] == nil {
					byCase[st.Case] = map[string]*Stub{}
				}
				byCase[st.Case][st.Action] = st
			}
		}
		return all, byCase
	}
	t.stubs, t.caseStubs = indexStubs(f.Stubs, t.Project.actions, "stub for unknown action %q: no step calls it and nothing declares it", "stub")
	t.vstubs, t.caseVstubs = indexStubs(f.ValidatorStubs, t.Project.validators, "stub for unknown validator %q: no collect uses it as its validator and nothing declares it", "validator stub")
	s.Diags = append(s.Diags, ds...)
	return !ds.HasErrors()
}

func errText(err error) string {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

// maxFileSize bounds the test files, flow files and compiled programs this
// package reads, like the compiler's default --max-file-size.
const maxFileSize = compiler.DefaultMaxFileSize

// readFile reads a file through the guarded reader: a FIFO, a device or a
// file over maxFileSize is refused instead of blocking or filling memory.
func readFile(path string) ([]byte, error) {
	return safefile.ReadFile(path, maxFileSize)
}
