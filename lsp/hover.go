package lsp

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/soni-dev/soni/compiler"
)

func (s *Server) hover(_ *glsp.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	proj, o, all, ok, err := s.symbolUnder(p.TextDocument.URI, p.Position)
	if !ok {
		return nil, err
	}
	d := proj.def(o.ID)
	if d == nil {
		return nil, nil
	}
	r := o.Range
	return &protocol.Hover{
		Contents: protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: hoverText(d, all, proj.dir)},
		Range:    &r,
	}, nil
}

// hoverText describes a definition: a slot's type, constraints and where
// it is set; a flow's description and slots; a response's variations; an
// action's inputs and outputs; a step's kind.
func hoverText(d *compiler.Definition, all []occurrence, dir string) string {
	var b strings.Builder
	name := "`" + d.ID.Name + "`"
	switch d.ID.Kind {
	case compiler.SymbolSlot:
		scope := "conversation slot"
		if d.ID.Scope != "" {
			scope = "slot of flow `" + d.ID.Scope + "`"
		}
		fmt.Fprintf(&b, "**%s** %s: %s\n", scope, name, orDash(d.Type))
		para(&b, d.Description)
		if d.Implicit {
			para(&b, "Not declared: the flow's steps create it by setting it.")
		}
		var cons []string
		if len(d.Values) > 0 {
			cons = append(cons, "values: "+codeList(d.Values))
		}
		if d.Min != nil {
			cons = append(cons, "min: "+strconv.FormatFloat(*d.Min, 'g', -1, 64))
		}
		if d.Max != nil {
			cons = append(cons, "max: "+strconv.FormatFloat(*d.Max, 'g', -1, 64))
		}
		if d.Pattern != "" {
			cons = append(cons, "pattern: `"+d.Pattern+"`")
		}
		if d.Validation != "" {
			cons = append(cons, "validation: `"+d.Validation+"`")
		}
		if len(cons) > 0 {
			b.WriteString("\n" + strings.Join(cons, "  \n") + "\n")
		}
		var sets []string
		for _, o := range all {
			if o.ID == d.ID && o.Sets {
				where := fmt.Sprintf("%s:%d", rel(dir, o.Path), o.Range.Start.Line+1)
				if o.Step != "" {
					where = fmt.Sprintf("step `%s` of flow `%s` (%s)", o.Step, o.Flow, where)
				}
				sets = append(sets, "- "+where)
			}
		}
		if len(sets) > 0 {
			b.WriteString("\nSet by:\n" + strings.Join(sets, "\n") + "\n")
		} else {
			b.WriteString("\nSet by no step of the project.\n")
		}
	case compiler.SymbolFlow:
		fmt.Fprintf(&b, "**flow** %s\n", name)
		para(&b, d.Description)
		if len(d.Slots) > 0 {
			b.WriteString("\nSlots: " + codeList(d.Slots) + "\n")
		}
		if len(d.Steps) > 0 {
			b.WriteString("\nSteps: " + codeList(d.Steps) + "\n")
		}
	case compiler.SymbolResponse:
		fmt.Fprintf(&b, "**response** %s\n", name)
		if len(d.Variations) > 0 {
			b.WriteString("\nVariations:\n")
			for _, v := range d.Variations {
				b.WriteString("- " + strconv.Quote(v) + "\n")
			}
		}
	case compiler.SymbolAction:
		fmt.Fprintf(&b, "**action** %s\n", name)
		para(&b, d.Description)
		b.WriteString("\nInputs: " + orNone(codeList(d.Inputs)) + "  \nOutputs: " + orNone(codeList(d.Outputs)) + "\n")
	case compiler.SymbolStep:
		fmt.Fprintf(&b, "**%s step** %s of flow `%s`\n", orDash(d.Type), name, d.ID.Scope)
	}
	return b.String()
}

func para(b *strings.Builder, s string) {
	if s != "" {
		b.WriteString("\n" + s + "\n")
	}
}

func codeList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	return strings.Join(q, ", ")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// rel returns path relative to dir when it is below it.
func rel(dir, path string) string {
	if r, err := filepath.Rel(filepath.Dir(dir), path); err == nil && within(path, filepath.Dir(dir)) {
		return filepath.ToSlash(r)
	}
	return path
}
