package vm

import (
	"fmt"

	"github.com/soni-dev/soni/diag"
)

// RuntimeError is a failure while running a step: a guard that stopped a
// runaway turn, a cancelled context, an expression or action problem the
// flow cannot recover from. It names the flow, the step and the step's
// position in its source file.
type RuntimeError struct {
	Flow string
	Step string
	Pos  diag.Pos
	Err  error
}

// Error renders the error as file:line:col: flow "f" step "s": message.
func (e *RuntimeError) Error() string {
	msg := fmt.Sprintf("flow %q step %q: %v", e.Flow, e.Step, e.Err)
	if p := e.Pos.String(); p != "" {
		return p + ": " + msg
	}
	return msg
}

// Unwrap returns the underlying error.
func (e *RuntimeError) Unwrap() error { return e.Err }
