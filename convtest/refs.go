package convtest

import "github.com/soni-dev/soni/diag"

// Ref is a flow, slot, action or response that a test step names, with
// the position of the name, for editors (soni lsp) that follow names
// into test files.
type Ref struct {
	// Kind is "flow", "slot", "action" or "response".
	Kind string
	Name string
	// Flow, for a slot given to start_flow, is the flow it belongs to.
	Flow string
	Pos  diag.Pos
}

// Refs lists the names the step refers to, its assertions' included, in
// the order they are written.
func (s *Step) Refs() []Ref {
	var out []Ref
	for _, r := range s.refs {
		out = append(out, Ref{Kind: r.kind, Name: r.name, Flow: r.flow, Pos: r.pos})
	}
	for _, a := range s.Assertions {
		out = append(out, a.Refs()...)
	}
	return out
}
