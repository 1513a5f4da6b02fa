package vm

import (
	"context"

	"github.com/soni-dev/soni/ir"
)

// Understander turns a user's message into commands. The built-in
// deterministic implementation lives in package understand; others (an LLM
// behind an HTTP endpoint, say) can replace it without touching the VM.
type Understander interface {
	Understand(ctx context.Context, msg string, v View) ([]Command, error)
}

// View is what the understanding layer may see of a conversation.
type View struct {
	Program *ir.Program
	// Stack holds the names of the active flows, bottom first; the last is on top.
	Stack []string
	// Pending is the question waiting for an answer, or nil.
	Pending *Pending
	// Slot returns the current value of a slot visible to the top flow.
	Slot func(name string) (any, bool)
	// History holds the last messages of the conversation, oldest first.
	// It must not be modified.
	History []Message
	// Note, when set, puts a line in the turn's trace: what an
	// understanding layer asked, kept or dropped.
	Note func(string)
}

// PendingKind says what kind of answer a pending question wants.
type PendingKind string

// The kinds of pending questions.
const (
	PendingCollect PendingKind = "collect"
	PendingConfirm PendingKind = "confirm"
)

// Pending is the question a conversation waits on: the need_input interrupt.
type Pending struct {
	Kind PendingKind `json:"kind"`
	Flow string      `json:"flow"`
	Step string      `json:"step"`
	Slot string      `json:"slot"`
	// Prompt is the rendered question as it was last asked.
	Prompt string `json:"prompt"`
	// Attempts counts the invalid answers given so far.
	Attempts int `json:"attempts,omitempty"`
}
