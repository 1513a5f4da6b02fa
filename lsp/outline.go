package lsp

import (
	"sort"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/soni-dev/soni/compiler"
)

// documentSymbol lists the definitions of a file as an outline: each flow
// with its steps, and the slots, responses and actions defined at the top
// level. A definition's range runs to the line before the next one.
func (s *Server) documentSymbol(_ *glsp.Context, p *protocol.DocumentSymbolParams) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	proj, path, ok := s.projectFor(p.TextDocument.URI)
	if !ok {
		return nil, errNoDocument
	}
	out := []protocol.DocumentSymbol{}
	var defs []occurrence
	for _, o := range s.occurrences(proj) {
		if o.Def && o.Path == path {
			defs = append(defs, o)
		}
	}
	sort.SliceStable(defs, func(i, j int) bool { return defs[i].Range.Start.Line < defs[j].Range.Start.Line })
	src := s.text(proj, path)
	ls := lines(src)
	for len(ls) > 1 && ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	last := protocol.UInteger(len(ls) - 1)
	// end returns the line before the next definition of a top-level
	// kind (a flow, or a slot, response or action outside flows).
	topLevel := func(o occurrence) bool { return o.ID.Kind != compiler.SymbolStep && o.ID.Scope == "" }
	end := func(i int, stop func(occurrence) bool) protocol.Position {
		for _, o := range defs[i+1:] {
			if stop(o) && o.Range.Start.Line > defs[i].Range.Start.Line {
				return protocol.Position{Line: o.Range.Start.Line - 1, Character: 0}
			}
		}
		return protocol.Position{Line: last}
	}
	for i, o := range defs {
		if !topLevel(o) {
			continue
		}
		sym := protocol.DocumentSymbol{Name: o.ID.Name, Kind: symbolKind(o.ID.Kind), Range: protocol.Range{Start: protocol.Position{Line: o.Range.Start.Line}, End: end(i, topLevel)}, SelectionRange: o.Range}
		detail := string(o.ID.Kind)
		sym.Detail = &detail
		if o.ID.Kind == compiler.SymbolFlow {
			for j, st := range defs {
				if st.ID.Kind != compiler.SymbolStep || st.ID.Scope != o.ID.Name {
					continue
				}
				stop := func(x occurrence) bool {
					return topLevel(x) || x.ID.Kind == compiler.SymbolStep
				}
				r := protocol.Range{Start: protocol.Position{Line: st.Range.Start.Line}, End: end(j, stop)}
				if r.End.Line > sym.Range.End.Line {
					r.End = sym.Range.End
				}
				stepDetail := "step"
				if d := proj.def(st.ID); d != nil && d.Type != "" {
					stepDetail = d.Type + " step"
				}
				sym.Children = append(sym.Children, protocol.DocumentSymbol{Name: st.ID.Name, Detail: &stepDetail, Kind: protocol.SymbolKindEvent, Range: r, SelectionRange: st.Range})
			}
		}
		out = append(out, sym)
	}
	return out, nil
}

func symbolKind(k compiler.SymbolKind) protocol.SymbolKind {
	switch k {
	case compiler.SymbolFlow:
		return protocol.SymbolKindFunction
	case compiler.SymbolSlot:
		return protocol.SymbolKindVariable
	case compiler.SymbolResponse:
		return protocol.SymbolKindString
	case compiler.SymbolAction:
		return protocol.SymbolKindMethod
	}
	return protocol.SymbolKindEvent
}
