package lsp

import (
	"fmt"
	"regexp"
	"sort"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/diag"
)

// occurrence is a name written in a file of the project, with its span.
type occurrence struct {
	ID   compiler.SymbolID
	Def  bool
	Sets bool
	Path string
	// Range is the name's range in the file.
	Range protocol.Range
	Flow  string
	Step  string
}

// occurrences lists every place the project's files name a slot, flow,
// step, response or action: the compiler's index and the test files'.
func (s *Server) occurrences(p *project) []occurrence {
	var out []occurrence
	add := func(id compiler.SymbolID, pos diag.Pos, def, sets bool, flow, step string) {
		src := s.text(p, pos.File)
		line := lineOf(src, pos.Line-1)
		from, to, ok := nameSpan(line, pos.Col, id.Name)
		if !ok {
			return
		}
		out = append(out, occurrence{ID: id, Def: def, Sets: sets, Path: pos.File, Range: spanRange(line, pos.Line-1, from, to), Flow: flow, Step: step})
	}
	if p.syms != nil {
		for _, o := range p.syms.Occs {
			add(o.ID, o.Pos, o.Def, o.Sets, o.Flow, o.Step)
		}
	}
	for _, r := range p.tests {
		add(r.ID, r.Pos, false, false, "", "")
	}
	return out
}

// inRange reports whether a position is inside r, ends included.
func inRange(r protocol.Range, pos protocol.Position) bool {
	if pos.Line != r.Start.Line {
		return false
	}
	return pos.Character >= r.Start.Character && pos.Character <= r.End.Character
}

// symbolAt returns the name under the cursor.
// symbolUnder finds the project of the document at uri and the symbol
// at pos in it (ok false when there is none); err is errNoDocument for a
// document that belongs to no project. The caller holds s.mu.
func (s *Server) symbolUnder(uri string, pos protocol.Position) (*project, occurrence, []occurrence, bool, error) {
	proj, path, ok := s.projectFor(uri)
	if !ok {
		return nil, occurrence{}, nil, false, errNoDocument
	}
	o, all, ok := s.symbolAt(proj, path, pos)
	return proj, o, all, ok, nil
}

func (s *Server) symbolAt(p *project, path string, pos protocol.Position) (occurrence, []occurrence, bool) {
	all := s.occurrences(p)
	for _, o := range all {
		if o.Path == path && inRange(o.Range, pos) {
			return o, all, true
		}
	}
	return occurrence{}, all, false
}

// definitionOf returns where id is defined: its definition, or for a
// slot that a step creates by setting it, the first step that sets it.
func definitionOf(id compiler.SymbolID, all []occurrence) (occurrence, bool) {
	for _, o := range all {
		if o.ID == id && o.Def {
			return o, true
		}
	}
	for _, o := range all {
		if o.ID == id && o.Sets {
			return o, true
		}
	}
	return occurrence{}, false
}

func (s *Server) location(o occurrence) protocol.Location {
	return protocol.Location{URI: s.uriOf(o.Path), Range: o.Range}
}

func (s *Server) definition(_ *glsp.Context, p *protocol.DefinitionParams) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, o, all, ok, err := s.symbolUnder(p.TextDocument.URI, p.Position)
	if !ok {
		return nil, err
	}
	def, ok := definitionOf(o.ID, all)
	if !ok {
		return nil, nil
	}
	return []protocol.Location{s.location(def)}, nil
}

func (s *Server) references(_ *glsp.Context, p *protocol.ReferenceParams) ([]protocol.Location, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, o, all, ok, err := s.symbolUnder(p.TextDocument.URI, p.Position)
	if !ok {
		return nil, err
	}
	out := []protocol.Location{}
	for _, x := range all {
		if x.ID == o.ID && (!x.Def || p.Context.IncludeDeclaration) {
			out = append(out, s.location(x))
		}
	}
	return out, nil
}

func (s *Server) prepareRename(_ *glsp.Context, p *protocol.PrepareRenameParams) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, o, all, ok, err := s.symbolUnder(p.TextDocument.URI, p.Position)
	if !ok {
		return nil, err
	}
	if _, ok := definitionOf(o.ID, all); !ok {
		return nil, fmt.Errorf("%s is defined by soni, not in this project: it cannot be renamed", o.ID)
	}
	return o.Range, nil
}

// The names the language allows: step ids and flows may hold a dash.
var (
	identRE     = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	dashIdentRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)
)

func (s *Server) rename(_ *glsp.Context, p *protocol.RenameParams) (*protocol.WorkspaceEdit, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	proj, o, all, ok, err := s.symbolUnder(p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("no slot, flow, step, response or action at %d:%d", p.Position.Line+1, p.Position.Character+1)
	}
	re := identRE
	if o.ID.Kind == compiler.SymbolStep || o.ID.Kind == compiler.SymbolFlow {
		re = dashIdentRE
	}
	if !re.MatchString(p.NewName) {
		return nil, fmt.Errorf("%q is not a valid %s name: use letters, digits and underscores, starting with a letter", p.NewName, o.ID.Kind)
	}
	if _, ok := definitionOf(o.ID, all); !ok {
		return nil, fmt.Errorf("%s is defined by soni, not in this project: it cannot be renamed", o.ID)
	}
	target := o.ID
	target.Name = p.NewName
	if proj.def(target) != nil {
		return nil, fmt.Errorf("%s already exists: renaming %q to it would merge the two", target, o.ID.Name)
	}
	changes := map[protocol.DocumentUri][]protocol.TextEdit{}
	seen := map[string]bool{}
	for _, x := range all {
		if x.ID != o.ID {
			continue
		}
		k := fmt.Sprint(x.Path, x.Range)
		if seen[k] {
			continue
		}
		seen[k] = true
		uri := s.uriOf(x.Path)
		changes[uri] = append(changes[uri], protocol.TextEdit{Range: x.Range, NewText: p.NewName})
	}
	for uri := range changes {
		sort.Slice(changes[uri], func(i, j int) bool {
			a, b := changes[uri][i].Range.Start, changes[uri][j].Range.Start
			return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
		})
	}
	return &protocol.WorkspaceEdit{Changes: changes}, nil
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
