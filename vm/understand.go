package vm

import (
	"context"
	"time"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/values"
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
	// Now is when the message was sent: relative dates ("tomorrow",
	// "next Friday") are read against its calendar day. The zero time
	// means the machine's clock (Options.Now).
	Now time.Time
	// DateOrder is the program's date_order setting: how an all-numeric
	// date that reads both ways is read.
	DateOrder values.DateOrder
	// Answered, when set, is told which understanding layer gave the
	// commands and why (see Understanding): the turn keeps it in its
	// Result and its trace, and soni eval reports it.
	Answered func(Understanding)
	// CanStart, when set, reports whether a flow may start now: false for
	// a flow whose guard (if:) does not hold, which the understanding
	// treats as absent (a model's prompt leaves it out). nil means every
	// flow may start.
	CanStart func(flow string) bool
}

// Understanding says which understanding layer gave a turn's commands,
// and why.
type Understanding struct {
	// Layer is "rules", "llm", "clarify" (the answer to a clarify
	// question) or "given" (commands given with the input).
	Layer string `json:"layer"`
	// Sure is true when the rules' answer is one they do not need a
	// model to confirm (docs/understanding.md, "The routing rule").
	Sure bool `json:"sure,omitempty"`
	// Reason says how the answer was reached, for people.
	Reason string `json:"reason,omitempty"`
	// Rule names the rule of the built-in rules' table that read the
	// message (package understand): the one whose reading was kept, or,
	// when a model answered, the one whose reading sent the message to
	// it. Empty when the rules did not read the message.
	Rule string `json:"rule,omitempty"`
	// ModelCalls is how many requests were sent to a language model for
	// the message (a retry is a second), and PromptChars the characters
	// of the prompts they carried: soni eval reports the model's cost
	// from them. Both are 0 when no model was asked.
	ModelCalls  int `json:"model_calls,omitempty"`
	PromptChars int `json:"prompt_chars,omitempty"`
}

// Converter returns the value converter for this conversation: its clock
// and the program's date order.
func (v View) Converter() values.Converter {
	now := v.Now
	if now.IsZero() {
		return values.Converter{DateOrder: v.DateOrder}
	}
	return values.Converter{Now: func() time.Time { return now }, DateOrder: v.DateOrder}
}

// Answer tells v.Answered, when set, which layer answered and why.
func (v View) Answer(u Understanding) {
	if v.Answered != nil {
		v.Answered(u)
	}
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
