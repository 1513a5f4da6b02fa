// Package compiler turns a soni project (YAML flow files) into a checked,
// immutable ir.Program, or into the list of every problem found.
//
// The phases run in one direction: parse each file with positions, validate
// it against the JSON Schema (package schema), decode it into a typed model
// that keeps every position, run the semantic checks of language.md §10
// (one per file, named check_*.go), and lower the model to IR. Every phase
// reports all it finds; a project with errors is not lowered.
package compiler

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
)

// Result is what compiling a project gives: the program when there are no
// errors, every diagnostic sorted by position, and the source files read.
type Result struct {
	Program *ir.Program
	Diags   diag.List
	Files   []*File
	// checked is the checked project, kept when the options ask for it
	// (CompileSourcesIndexed), for Symbols (symbols.go).
	checked *checker
}

// Source returns a file's bytes, for renderers that print source lines.
func (r *Result) Source(name string) []byte {
	for _, f := range r.Files {
		if f.Path == name {
			return f.Src
		}
	}
	return nil
}

// Compile compiles the project at path: one YAML file, or a directory.
// Diagnostics name the files as path does; the program's positions are
// relative to the project directory (the file's directory for one file), so
// the program does not depend on how the path was typed.
func Compile(path string, opts Options) *Result {
	opts = opts.withDefaults()
	files, ds := ProjectFiles(path)
	var inputs []input
	for _, name := range files {
		src, d := readFile(name, opts)
		if d != nil {
			ds = append(ds, *d)
			continue
		}
		inputs = append(inputs, input{name: filepath.ToSlash(name), src: src})
	}
	r := compileInputs(inputs, opts, ds, len(files) > 0, true)
	if r.Program != nil {
		root := path
		if info, err := os.Stat(path); err == nil && !info.IsDir() {
			root = filepath.Dir(path)
		}
		names := make([]string, len(inputs))
		for i, in := range inputs {
			names[i] = in.name
		}
		relativize(r.Program, root, names)
	}
	return r
}

// CompileSource compiles one file given as bytes; name is used in positions.
func CompileSource(name string, src []byte, opts Options) *Result {
	return CompileSources([]Source{{Name: name, Src: src}}, opts)
}

// Source is a file given as bytes.
type Source struct {
	Name string
	Src  []byte
}

// CompileSources compiles a project given as files in memory, in order.
func CompileSources(files []Source, opts Options) *Result {
	inputs := make([]input, len(files))
	for i, f := range files {
		inputs[i] = input{name: f.Name, src: f.Src}
	}
	return compileInputs(inputs, opts.withDefaults(), nil, true, true)
}

type input struct {
	name string
	src  []byte
}

// compileInputs compiles the inputs; with patterns, the program gets soni's
// default patterns (false only for the defaults' own files).
func compileInputs(inputs []input, opts Options, ds diag.List, found, patterns bool) *Result {
	r := &Result{}
	proj := &project{}
	// Files are parsed, schema-checked and decoded in parallel, each into a
	// partial project of its own, then merged in file order, so the result
	// does not depend on scheduling.
	parts := make([]filePart, len(inputs))
	workers := min(runtime.GOMAXPROCS(0), len(inputs))
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				parts[i] = loadInput(inputs[i], opts)
			}
		}()
	}
	for i := range inputs {
		next <- i
	}
	close(next)
	wg.Wait()
	// broken are the files whose definitions are missing: unreadable
	// (errors before parsing) or unparsable.
	var broken []string
	for _, d := range ds {
		if d.Severity == diag.Error && d.Pos.File != "" && !contains(broken, d.Pos.File) {
			broken = append(broken, d.Pos.File)
		}
	}
	for _, part := range parts {
		r.Files = append(r.Files, part.file)
		ds = append(ds, part.ds...)
		for _, a := range part.stubs {
			if proj.stubbed == nil {
				proj.stubbed = map[string]bool{}
			}
			proj.stubbed[a] = true
		}
		if part.proj == nil {
			if part.ds.HasErrors() {
				broken = append(broken, part.file.Path)
			}
			continue
		}
		proj.Files = append(proj.Files, part.file)
		proj.Settings = append(proj.Settings, part.proj.Settings...)
		proj.Slots = append(proj.Slots, part.proj.Slots...)
		proj.Actions = append(proj.Actions, part.proj.Actions...)
		proj.Validators = append(proj.Validators, part.proj.Validators...)
		proj.Flows = append(proj.Flows, part.proj.Flows...)
		proj.Responses = append(proj.Responses, part.proj.Responses...)
	}
	if len(proj.Flows) == 0 && !ds.HasErrors() {
		pos := diag.Pos{}
		if len(inputs) > 0 {
			pos = diag.Pos{File: inputs[0].name, Line: 1, Col: 1}
		}
		if found {
			ds.Add(pos, diag.CodeNoFlows, "flows", "the project defines no flows: add a top-level %q mapping", "flows")
		} else {
			ds.Add(pos, diag.CodeNoFlows, "flows", "the project has no *.yaml or *.yml files")
		}
	}
	proj.resolve()
	c := newChecker(proj, &ds)
	c.run()
	if opts.symbols {
		r.checked = c
	}
	blameBroken(ds, broken)
	ds = suppress(ds, r.Files)
	ds.Sort()
	r.Diags = ds
	if !ds.HasErrors() {
		r.Program = lower(proj)
		if patterns {
			addDefaults(r.Program, settingPositions(proj))
			sort.Slice(r.Program.Flows, func(i, j int) bool { return r.Program.Flows[i].Name < r.Program.Flows[j].Name })
			sort.Slice(r.Program.Responses, func(i, j int) bool { return r.Program.Responses[i].Name < r.Program.Responses[j].Name })
		}
	}
	return r
}

// filePart is what one input file gives: its diagnostics and, unless it
// could not be parsed or is a conversation-test file, its definitions.
type filePart struct {
	file *File
	ds   diag.List
	proj *project
	// stubs are the actions a conversation-test file stubs.
	stubs []string
}

// loadInput parses, schema-checks and decodes one file.
func loadInput(in input, opts Options) filePart {
	// goccy miscounts lines after a comment ending in CRLF; positions and
	// snippets use the LF form, which has the same lines and columns.
	src := in.src
	if bytes.Contains(src, []byte("\r\n")) {
		src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	}
	in.src = src
	part := filePart{file: &File{Path: in.name, Src: in.src}}
	if int64(len(in.src)) > opts.MaxFileSize {
		part.ds.Add(diag.Pos{File: in.name, Line: 1, Col: 1}, diag.CodeFileLimit, "", "file %q is %s, over the %s size limit (raise it with --max-file-size)", in.name, size(int64(len(in.src))), size(opts.MaxFileSize))
		return part
	}
	p := parseFile(in.name, in.src, opts, &part.ds)
	if p == nil || isOtherFile(p.value) {
		if p != nil {
			part.stubs = stubbedActions(p.value)
		}
		return part
	}
	part.proj = &project{}
	dropIgnoredKeys(p, &part.ds)
	schemaCheck(p, &part.ds)
	r := syntax.NewReader(in.name, p.file.Src, p.body, p.anchors, &part.ds)
	r.SkipMarks = true
	f := syntax.DecodeFlowsTree(r, p.body)
	part.proj.Settings = f.Settings
	part.proj.Slots = f.Slots
	part.proj.Actions = f.Actions
	part.proj.Validators = f.Validators
	part.proj.Flows = f.Flows
	part.proj.Responses = f.Responses
	return part
}
