// Package vm executes a compiled soni program ([ir.Program]) one
// conversation turn at a time.
//
// A [Machine] is built once per program by [New]: it compiles every
// expression and template, is immutable, and is shared by all
// conversations. All mutable state of one conversation lives in a [State]:
// the flow stack, the slots, the pending question and the recent history.
// [Machine.Turn] takes a state and the user's input (text, or commands given
// directly), applies the commands, runs the top flow until it needs input or
// the stack is empty, and returns the replies with a new state; the state it
// was given is not modified, so a failed turn leaves the previous state
// intact. [Machine.TurnOwned] is the same turn on a state the caller gives
// up: it changes that state in place and returns it as the result's, which
// saves a copy when the state was just decoded from a checkpoint (the soni
// Engine's path). The VM works on State values only: package codec turns a state
// into checkpoint bytes (JSON, format "soni.checkpoint/v1") and back, and
// [Machine.Resume] checks a state read from a checkpoint against the
// program.
//
// docs/runtime.md describes the turn semantics, scoping, guards and the
// checkpoint format in detail.
package vm
