package lsp

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/soni-dev/soni/diag"
)

var (
	didYouMeanRE  = regexp.MustCompile(`did you mean "([^"]+)"\?`)
	unknownSlotRE = regexp.MustCompile(`^unknown slot "([A-Za-z_][A-Za-z0-9_]*)"`)
	ignoreRE      = regexp.MustCompile(`#\s*soni:ignore((?:[\s,]+W\d{3})+)`)
)

// codeAction offers the fixes the compiler's diagnostics suggest, for the
// diagnostics on the requested range: the did-you-mean replacement, a
// "# soni:ignore CODE" comment for a warning, and the declaration of a
// slot that is used but declared nowhere.
func (s *Server) codeAction(_ *glsp.Context, p *protocol.CodeActionParams) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	proj, path, ok := s.projectFor(p.TextDocument.URI)
	if !ok {
		return nil, errNoDocument
	}
	src := s.text(proj, path)
	uri := s.uriOf(path)
	out := []protocol.CodeAction{}
	declared := map[string]bool{}
	for _, d := range proj.res.Diags {
		if d.Pos.File != path || d.Pos.Line <= 0 {
			continue
		}
		r := diagRange(src, d.Pos)
		if r.Start.Line < p.Range.Start.Line || r.Start.Line > p.Range.End.Line {
			continue
		}
		pd := toProtocol(src, d)
		fix := func(title string, preferred bool, edits ...protocol.TextEdit) {
			kind := protocol.CodeActionKindQuickFix
			a := protocol.CodeAction{Title: title, Kind: &kind, Diagnostics: []protocol.Diagnostic{pd},
				Edit: &protocol.WorkspaceEdit{Changes: map[protocol.DocumentUri][]protocol.TextEdit{uri: edits}}}
			if preferred {
				a.IsPreferred = &preferred
			}
			out = append(out, a)
		}
		if m := didYouMeanRE.FindStringSubmatch(d.Suggestion); m != nil {
			fix(fmt.Sprintf("Change to %q", m[1]), true, protocol.TextEdit{Range: nameRange(src, r), NewText: m[1]})
		}
		if d.Severity == diag.Warning {
			fix(fmt.Sprintf("Ignore %s on this line (# soni:ignore %s)", d.Code, d.Code), false, ignoreEdit(src, int(r.Start.Line), d.Code))
		}
		if m := unknownSlotRE.FindStringSubmatch(d.Message); m != nil && d.Code == diag.CodeUnknownSlot && !declared[m[1]] {
			declared[m[1]] = true
			fix(fmt.Sprintf("Declare slot %q in the top-level slots", m[1]), false, declareSlotEdit(src, m[1]))
		}
	}
	return out, nil
}

// nameRange narrows a diagnostic's range to the name inside its quotes.
func nameRange(src string, r protocol.Range) protocol.Range {
	line := lineOf(src, int(r.Start.Line))
	from, to := utf16ToByte(line, int(r.Start.Character)), utf16ToByte(line, int(r.End.Character))
	if to-from >= 2 && (line[from] == '"' || line[from] == '\'') && line[to-1] == line[from] {
		from, to = from+1, to-1
	}
	return spanRange(line, int(r.Start.Line), from, to)
}

// ignoreEdit adds code to the line's "# soni:ignore" comment, or appends
// one.
func ignoreEdit(src string, n int, code string) protocol.TextEdit {
	line := lineOf(src, n)
	end := len(line)
	if m := ignoreRE.FindStringSubmatchIndex(line); m != nil {
		at := m[3]
		return protocol.TextEdit{Range: spanRange(line, n, at, at), NewText: " " + code}
	}
	trimmed := len(strings.TrimRight(line, " \t"))
	return protocol.TextEdit{Range: spanRange(line, n, trimmed, end), NewText: "  # soni:ignore " + code}
}

// declareSlotEdit declares a text slot in the file's top-level slots
// mapping, making one before flows: when the file has none.
func declareSlotEdit(src string, name string) protocol.TextEdit {
	ls := lines(src)
	for i, l := range ls {
		if strings.TrimRight(l, " \t") == "slots:" || strings.HasPrefix(l, "slots: ") && strings.HasPrefix(strings.TrimSpace(l[len("slots:"):]), "#") {
			ind := "  "
			for _, next := range ls[i+1:] {
				if blank(next) {
					continue
				}
				if lead := len(next) - len(strings.TrimLeft(next, " ")); lead > 0 {
					ind = next[:lead]
				}
				break
			}
			at := protocol.Position{Line: protocol.UInteger(i + 1)}
			return protocol.TextEdit{Range: protocol.Range{Start: at, End: at}, NewText: fmt.Sprintf("%s%s:\n%s%stype: text\n", ind, name, ind, ind)}
		}
	}
	for i, l := range ls {
		if strings.HasPrefix(l, "flows:") {
			at := protocol.Position{Line: protocol.UInteger(i)}
			return protocol.TextEdit{Range: protocol.Range{Start: at, End: at}, NewText: fmt.Sprintf("slots:\n  %s:\n    type: text\n\n", name)}
		}
	}
	end := positionOf(src, len(src))
	prefix := ""
	if !strings.HasSuffix(src, "\n") && src != "" {
		prefix = "\n"
	}
	return protocol.TextEdit{Range: protocol.Range{Start: end, End: end}, NewText: fmt.Sprintf("%sslots:\n  %s:\n    type: text\n", prefix, name)}
}
