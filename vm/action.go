package vm

import (
	"context"
	"fmt"
	"sync"

	"github.com/soni-dev/soni/ir"
)

// ActionRunner runs the actions that action steps call.
type ActionRunner interface {
	// RunAction runs one action and returns its outputs. An error, a panic
	// or a context that ends before it returns is an action failure.
	RunAction(ctx context.Context, req ActionRequest) (map[string]any, error)
}

// ActionRequest is one call of an action.
type ActionRequest struct {
	// Action is the action's name.
	Action string
	// Session is the conversation's session id.
	Session string
	// Inputs are the slots sent to the action: its declared inputs (unset
	// ones are nil), or every slot the flow can see when it is undeclared.
	Inputs map[string]any
	// Decl is the action's declaration, or nil if it is undeclared.
	Decl *ir.Action
	// IdempotencyKey identifies this call: SESSION/REVISION/FLOW.STEP
	// (the revision the turn saves; "#N" added for the N-th call of a
	// step in one turn). A turn run again after a failed or lost save
	// calls with the same key, so a remote action can deduplicate.
	IdempotencyKey string
	// Warn reports a warning about the call that is not a failure, such as
	// an output the declaration does not list. The VM collects them in
	// [Result.Warnings] and the trace. It is never nil in a request made
	// by the VM.
	Warn func(string)
	// Conversation returns the conversation as the action step sees it,
	// for runners whose protocol sends more than the inputs: Rasa's action
	// server receives the whole tracker (every slot, the latest message,
	// the events). It is computed when called, so a runner that does not
	// need it costs nothing. It is never nil in a request made by the VM.
	Conversation func() ActionConversation
	// Say asks the bot to say a message at the action's step: the VM
	// says the messages of a call, in order, once the call has succeeded
	// and its outputs are stored (a failed call says none). It is never
	// nil in a request made by the VM. Package actions calls it for the
	// "messages" of a command's or an endpoint's answer and for the
	// responses of a Rasa action server.
	Say func(ActionMessage)
}

// ActionMessage is a message an action asks the bot to say: a text, or a
// response of the project by name, with buttons, an image or a custom
// payload.
type ActionMessage struct {
	Text string `json:"text,omitempty"`
	// Response names a response of the project, said as a step would say
	// it (with the slots' values after the call); Text is then ignored.
	Response string `json:"response,omitempty"`
	// Buttons are the message's buttons; with Response, they come after
	// the response's own (as Rasa adds an action's buttons to a response
	// it names).
	Buttons []ir.Button `json:"buttons,omitempty"`
	Image   string      `json:"image,omitempty"`
	Custom  any         `json:"custom,omitempty"`
}

// ActionConversation is what an action step knows of its conversation
// (see [ActionRequest.Conversation]).
type ActionConversation struct {
	// Flow and Step are the flow and the action step that call the action.
	Flow, Step string
	// Slots holds every slot the flow can see that holds a value: the
	// conversation slots and the flow's own.
	Slots map[string]any
	// History is the conversation's recent messages, oldest first: the
	// checkpoint's history, then this turn's user message and the replies
	// the turn said before the action.
	History []Message
	// Message is this turn's user message ("" for a turn driven by
	// commands alone).
	Message string
	// Metadata is the session's metadata ([State.Metadata]).
	Metadata map[string]any
	// StackSlots holds every slot that holds a value anywhere in the
	// conversation: the conversation slots and the slots of every flow on
	// the stack (a flow higher on the stack wins a name two flows share).
	// A called flow's action sees its caller's slots there, as Rasa's
	// tracker, whose slots are global, shows them.
	StackSlots map[string]any
	// Events are this turn's events so far, in order, and ReplyEvents
	// says how many of them came before each of this turn's replies (see
	// [Result.ReplyEvents]): the turn's timeline up to the action.
	Events      []Event
	ReplyEvents []int
	// Commands are the commands this turn applied (understood or given).
	Commands []Command
}

// ActionFunc is an action implemented in Go. It is also an [ActionRunner]
// that runs itself for every action name.
type ActionFunc func(ctx context.Context, req ActionRequest) (map[string]any, error)

// RunAction calls f.
func (f ActionFunc) RunAction(ctx context.Context, req ActionRequest) (map[string]any, error) {
	return f(ctx, req)
}

// Registry maps action names to Go functions. The zero value is an empty
// registry ready to use; it is safe for concurrent use.
type Registry struct {
	mu    sync.RWMutex
	funcs map[string]ActionFunc
}

// Register binds an action name to a function, replacing any earlier one.
func (r *Registry) Register(name string, fn ActionFunc) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.funcs == nil {
		r.funcs = map[string]ActionFunc{}
	}
	r.funcs[name] = fn
}

// RunAction runs the function registered under req.Action; an unknown name
// is an error.
func (r *Registry) RunAction(ctx context.Context, req ActionRequest) (map[string]any, error) {
	r.mu.RLock()
	fn := r.funcs[req.Action]
	r.mu.RUnlock()
	if fn == nil {
		return nil, fmt.Errorf("no action %q is registered", req.Action)
	}
	return fn(ctx, req)
}
