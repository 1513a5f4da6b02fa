package compiler

import (
	"strings"

	"github.com/soni-dev/soni/internal/suggest"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/syntax"
)

// This file holds helpers shared by the reference and definition checks
// (check_duplicates.go to check_loop_bodies.go).

// suggestInto sets a diagnostic's did-you-mean suggestion to the candidate
// nearest to name, when one is close enough.
func suggestInto(d *diag.Diagnostic, name string, candidates []string) {
	if best := suggest.Closest(name, candidates); best != name {
		d.Suggestion = didYouMean(name, candidates)
	}
}

// runeLineCol converts a rune offset into a string to a 1-based line and
// a 0-based column within that line, the coordinates Str.At takes.
func runeLineCol(s string, offset int) (line, col int) { return runePos([]rune(s), offset) }

// lastPathKey returns the last key of a data path, without any index:
// "flows.f.StepsByID[2].condition" gives "condition".
func lastPathKey(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		path = path[i+1:]
	}
	if i := strings.IndexByte(path, '['); i >= 0 {
		path = path[:i]
	}
	return path
}

// exprWhat names the kind of an expression for messages, from the key that
// holds it: "condition", "evaluate expression", "validator", "validation"
// or "expression" (a set step's {expr: ...}).
func exprWhat(u *exprUse) string {
	switch k := lastPathKey(u.Src.Path); k {
	case "condition", "validator", "validation":
		return k
	case "evaluate":
		return "evaluate expression"
	}
	return "expression"
}

// stepIDs lists a flow's step ids in step order, for suggestions.
func stepIDs(f *syntax.Flow) []string {
	out := make([]string, 0, len(f.Steps))
	for _, s := range f.Steps {
		if s.ID.Set && s.ID.V != "" {
			out = append(out, s.ID.V)
		}
	}
	return out
}

// isIdentName reports whether s matches [A-Za-z_][A-Za-z0-9_]*, or, with
// dash, [A-Za-z_][A-Za-z0-9_-]*.
func isIdentName(s string, dash bool) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case i > 0 && c >= '0' && c <= '9':
		case i > 0 && dash && c == '-':
		default:
			return false
		}
	}
	return true
}

// declaredSlots returns the slots the project declares: the conversation
// slots, then each flow's declared (not implicit) slots, in order.
func (p *project) declaredSlots() []*syntax.Slot {
	out := append([]*syntax.Slot(nil), p.Slots...)
	for _, f := range p.Flows {
		for _, s := range f.Slots {
			if !s.Implicit {
				out = append(out, s)
			}
		}
	}
	return out
}
