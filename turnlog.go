package soni

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/vm"
)

// TurnRecord is what a session's event log keeps of one turn, and what
// soni serve answers for it: the input, what was understood, the replies,
// the events and the state after the turn. It is stored as JSON.
type TurnRecord struct {
	Session  string    `json:"session"`
	Revision uint64    `json:"revision"`
	Time     time.Time `json:"time"`
	// MessageID is the turn's idempotency key, when it had one.
	MessageID string `json:"message_id,omitempty"`
	// Text is the user's message; Given, the commands sent instead of
	// text (tests, /commands, the API's commands).
	Text  string       `json:"text,omitempty"`
	Given []vm.Command `json:"given,omitempty"`
	// Commands are the commands the turn applied: Given, or what the
	// understanding layer made of Text.
	Commands []vm.Command   `json:"commands"`
	Replies  []string       `json:"replies"`
	Events   []vm.Event     `json:"events"`
	Pending  *vm.Pending    `json:"pending"`
	Slots    map[string]any `json:"slots"`
	// Stack holds the active flows after the turn, bottom first.
	Stack    []string       `json:"stack"`
	Metadata map[string]any `json:"metadata,omitempty"`
	// Warnings are the runners' warnings of the turn.
	Warnings []string `json:"warnings,omitempty"`
}

// recordOf builds the record of a turn that produced res.
func recordOf(r *Reply, key string, in vm.Input) *TurnRecord {
	rec := &TurnRecord{
		Session: r.Session, Revision: r.Revision, MessageID: key, Text: in.Text, Given: in.Commands,
		Commands: r.Commands, Replies: r.Replies, Events: r.Events, Pending: r.Pending, Slots: r.Slots(),
		Stack: []string{}, Warnings: r.Warnings,
	}
	if r.State != nil {
		rec.Time = r.State.Updated
		rec.Metadata = r.State.Metadata
		for _, f := range r.State.Stack {
			rec.Stack = append(rec.Stack, f.Flow)
		}
	}
	if rec.Commands == nil {
		rec.Commands = []vm.Command{}
	}
	if rec.Replies == nil {
		rec.Replies = []string{}
	}
	if rec.Events == nil {
		rec.Events = []vm.Event{}
	}
	return rec
}

// duplicateReply rebuilds the reply of a turn from its log record.
func duplicateReply(session string, rec checkpoints.Record) (*Reply, error) {
	var tr TurnRecord
	if err := json.Unmarshal(rec.Data, &tr); err != nil {
		return nil, fmt.Errorf("the log record of revision %d of session %q is not a turn record: %v", rec.Revision, session, err)
	}
	res := &vm.Result{Replies: tr.Replies, Events: tr.Events, Pending: tr.Pending, Commands: tr.Commands, Warnings: tr.Warnings}
	return &Reply{Result: res, Session: session, Revision: tr.Revision, Record: &tr, Duplicate: true}, nil
}

// Log returns the records of a session's turns after revision after, at
// most limit (0: all), oldest first. A store that keeps no log (a plain
// checkpoints.Store) has none: the error says so.
func (e *Engine) Log(ctx context.Context, session string, after uint64, limit int) ([]TurnRecord, error) {
	j, ok := e.store.(checkpoints.Journal)
	if !ok {
		return nil, fmt.Errorf("the store %T keeps no event log", e.store)
	}
	recs, err := j.Log(ctx, session, after, limit)
	if err != nil {
		return nil, err
	}
	out := make([]TurnRecord, 0, len(recs))
	for _, r := range recs {
		var tr TurnRecord
		if err := json.Unmarshal(r.Data, &tr); err != nil {
			return nil, fmt.Errorf("the log record of revision %d of session %q is not a turn record: %v", r.Revision, session, err)
		}
		out = append(out, tr)
	}
	return out, nil
}
