package vm

import (
	"maps"
	"slices"
	"time"
)

// The roles of history messages.
const (
	RoleUser = "user"
	RoleBot  = "bot"
)

// maxHistoryText is how many bytes of one message the history keeps.
const maxHistoryText = 4096

// State is all the mutable state of one conversation. A State is a plain
// value: [Machine.Turn] never modifies the state it is given, and package
// codec turns it into checkpoint bytes and back ([Machine.Resume] checks a
// decoded one against the program). Slot values are stored typed: int64
// for integer slots, float64 for number slots, bool, strings for text,
// categorical and date slots, and any JSON value (nil, bool, int64, float64, string, []any, map[string]any) for
// slots of type any.
type State struct {
	// Session is the conversation's id.
	Session string
	// Revision counts the successful turns; each one increments it.
	Revision uint64
	// Fingerprint is the [ir.Fingerprint] of the program the state belongs to.
	Fingerprint string
	// Created and Updated are the times the conversation started and its
	// last successful turn ended, in UTC.
	Created, Updated time.Time
	// Stack holds the active flows, bottom first; the last is on top.
	Stack []Frame
	// Slots are the conversation slots that hold a value.
	Slots map[string]any
	// Pending is the question the conversation waits on, or nil. It always
	// belongs to the flow on top of the stack.
	Pending *Pending
	// History holds the last messages of the conversation, oldest first, at
	// most the program's history_size.
	History []Message
	// Metadata is the session's metadata: what the front end sent with
	// the messages (Input.Metadata, a Rasa REST message's metadata, a
	// conversation test's metadata), merged key by key, the latest value
	// winning. Flows do not read it; it is kept in the checkpoint and
	// shown in the trace. It is saved only when not empty.
	Metadata map[string]any
	// Clarify holds the flows the last turn's clarify question offered
	// ("Did you mean A or B?"), in order, until the next turn: that turn
	// reads a message as the answer to it, as to a categorical question.
	// It is saved only when not empty.
	Clarify []string
	// Notes are remarks made while decoding a checkpoint (for example that
	// it was written for an older version of the flows). The next turn
	// puts them at the start of its trace. They are not saved.
	Notes []string
	// codeChange holds the flows [Machine.CodeChange] ended: the next
	// turn runs pattern_code_change first. It is not saved.
	codeChange []string
}

// Frame is one active flow instance on the stack.
type Frame struct {
	// Flow is the flow's name.
	Flow string
	// Step is the id of the step to run, or the step the flow waits at: a
	// collect or confirm waiting for its answer, or a call waiting for the
	// flow it started.
	Step string
	// AfterCall is true while the flow waits for a flow it called; when
	// that flow ends, this one continues after its Step.
	AfterCall bool
	// Slots are the flow slots of this instance that hold a value.
	Slots map[string]any
	// Held holds values a start_flow gave for slots of the flows this
	// flow calls, keyed FLOW.SLOT, as given: each waits until that flow
	// reaches its collect of the slot, which takes it as an answer.
	Held map[string]any
	// Uses lists the conversation slots the flow's steps read to decide
	// something (a collect, a confirm, a branch, a while, a set, an
	// action's inputs), in the order the flow first read them, each with
	// the step that first read it and the value the flow last saw. When
	// another flow, a pattern or a command changes one of them while this
	// flow is not on top, the flow treats the change as a correction as
	// soon as it is on top again (language.md §11). It is saved only when
	// not empty.
	Uses []Use
}

// Use is a conversation slot that a flow's past decision read.
type Use struct {
	// Slot is the conversation slot's name.
	Slot string
	// Step is the id of the first step of the flow that read it.
	Step string
	// Value is the value the flow last saw: the slot's value when the
	// flow read it, or wrote it since; nil when the slot was unset.
	Value any
}

// Message is one message of the conversation history.
type Message struct {
	// Role is RoleUser or RoleBot.
	Role string `json:"role"`
	// Text is the message, cut to at most 4 KiB.
	Text string `json:"text"`
}

// NewState returns the state of a new conversation: an empty stack, and the
// conversation slots at their initial values.
func (m *Machine) NewState(session string) *State {
	now := m.opts.Now().UTC()
	st := &State{
		Session:     session,
		Fingerprint: m.fingerprint,
		Created:     now,
		Updated:     now,
		Slots:       make(map[string]any, len(m.initial)),
	}
	maps.Copy(st.Slots, m.initial)
	return st
}

// Clone returns a deep copy of the state's structure (slot values
// themselves are shared; the VM never mutates a stored value).
func (st *State) Clone() *State {
	c := *st
	if st.Stack != nil {
		c.Stack = make([]Frame, len(st.Stack), len(st.Stack)+1)
		for i, f := range st.Stack {
			c.Stack[i] = f
			if f.Slots != nil {
				c.Stack[i].Slots = maps.Clone(f.Slots)
			}
			if f.Held != nil {
				c.Stack[i].Held = maps.Clone(f.Held)
			}
			if f.Uses != nil {
				c.Stack[i].Uses = slices.Clone(f.Uses)
			}
		}
	}
	if st.Slots != nil {
		c.Slots = maps.Clone(st.Slots)
	} else {
		c.Slots = map[string]any{}
	}
	if st.Pending != nil {
		p := *st.Pending
		c.Pending = &p
	}
	if st.History != nil {
		c.History = append([]Message(nil), st.History...)
	}
	if st.Metadata != nil {
		c.Metadata = maps.Clone(st.Metadata)
	}
	if st.Clarify != nil {
		c.Clarify = append([]string(nil), st.Clarify...)
	}
	c.Notes = nil
	return &c
}
