package compiler

import (
	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
)

// check_ask_actions refuses a collect's ask_action that names one of the
// built-in actions of the patterns (E014): they say nothing, so the
// question would never be asked, and the VM runs them only as action
// steps. A project that declares an action of that name runs its own.
func checkAskActions(c *checker) {
	for _, f := range c.p.Flows {
		for _, s := range f.Steps {
			if s.Kind != ir.KindCollect || !s.AskAction.Set || !ir.IsBuiltinAction(s.AskAction.V) || c.p.Action(s.AskAction.V) != nil {
				continue
			}
			c.ds.Add(s.AskAction.Pos, diag.CodeInvalidValue, s.AskAction.Path,
				"ask_action %q is one of soni's built-in actions, which ask nothing: name an action that asks the question, or use message or response", s.AskAction.V)
		}
	}
}
