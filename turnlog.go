package soni

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/versions"
	"github.com/soni-dev/soni/vm"
)

// TurnRecord is what a session's event log keeps of one turn, and what
// soni serve answers for it: the input, what was understood, the replies,
// the events and the state after the turn. It is stored as JSON.
type TurnRecord struct {
	Session  string    `json:"session"`
	Revision uint64    `json:"revision"`
	Time     time.Time `json:"time"`
	// Version is the program version the turn saved the session with.
	Version string `json:"version,omitempty"`
	// VersionPath says what the turn did about program versions when the
	// session was saved with another one: move, finish, stay or
	// code_change (package versions); absent for the same version.
	VersionPath string `json:"version_path,omitempty"`
	// MessageID is the turn's idempotency key, when it had one.
	MessageID string `json:"message_id,omitempty"`
	// Text is the user's message; Given, the commands sent instead of
	// text (tests, /commands, the API's commands).
	Text  string       `json:"text,omitempty"`
	Given []vm.Command `json:"given,omitempty"`
	// Commands are the commands the turn applied: Given, or what the
	// understanding layer made of Text.
	Commands []vm.Command `json:"commands"`
	// Understood says which understanding layer gave Commands (rules,
	// llm, clarify) and why; absent when the commands were given.
	Understood *vm.Understanding `json:"understood,omitempty"`
	Replies    []string          `json:"replies"`
	// Messages holds every reply with its response name, buttons, image
	// and custom payload, when some reply of the turn has one of those
	// (vm.Result.Messages); it is absent when every reply is plain text.
	Messages []vm.Utterance `json:"messages,omitempty"`
	Events   []vm.Event     `json:"events"`
	Pending  *vm.Pending    `json:"pending"`
	Slots    map[string]any `json:"slots"`
	// Stack holds the active flows after the turn, bottom first.
	Stack []string `json:"stack"`
	// Metadata is the metadata the message came with: only what it
	// changed of the session's metadata, which the checkpoint keeps as
	// one merged value.
	Metadata map[string]any `json:"metadata,omitempty"`
	// Warnings are the runners' warnings of the turn.
	Warnings []string `json:"warnings,omitempty"`
	// Visited are the steps the turn ran, in order: the path the
	// inspector marks on the graph.
	Visited []vm.StepVisit `json:"visited,omitempty"`
	// Actions are the turn's action calls, in order, with how long each
	// took: like Time, the one part of a record that differs from run to
	// run.
	Actions []ActionCall `json:"actions,omitempty"`
}

// ActionCall is one action call of a logged turn.
type ActionCall struct {
	Action string `json:"action"`
	// Key is the call's idempotency key (SESSION/REVISION/FLOW.STEP).
	Key string `json:"key"`
	// OK is false when the call failed; Error says why.
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
	// DurationMS is how long the call took, in milliseconds.
	DurationMS float64 `json:"duration_ms"`
}

// timedActions runs actions and notes each call with its duration.
type timedActions struct {
	run   vm.ActionRunner
	calls []ActionCall
}

// RunAction implements vm.ActionRunner.
func (t *timedActions) RunAction(ctx context.Context, req vm.ActionRequest) (map[string]any, error) {
	start := time.Now()
	out, err := t.run.RunAction(ctx, req)
	c := ActionCall{Action: req.Action, Key: req.IdempotencyKey, OK: err == nil, DurationMS: float64(time.Since(start).Microseconds()) / 1000}
	if err != nil {
		c.Error = err.Error()
	}
	t.calls = append(t.calls, c)
	return out, err
}

// recordOf builds the record of a turn that produced res.
func recordOf(r *Reply, key string, in vm.Input) *TurnRecord {
	rec := &TurnRecord{
		Session: r.Session, Revision: r.Revision, MessageID: key, Text: in.Text, Given: in.Commands,
		Commands: r.Commands, Replies: r.Replies, Messages: r.Messages, Events: r.Events, Pending: r.Pending, Slots: r.Slots(),
		Stack: []string{}, Metadata: in.Metadata, Warnings: r.Warnings, Visited: r.Visited,
		Understood: r.Understood,
	}
	if r.VersionPath != "" && r.VersionPath != versions.Same {
		rec.VersionPath = string(r.VersionPath)
	}
	if r.State != nil {
		rec.Time = r.State.Updated
		rec.Version = r.State.Fingerprint
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
	res := &vm.Result{Replies: tr.Replies, Messages: tr.Messages, Events: tr.Events, Pending: tr.Pending, Commands: tr.Commands, Warnings: tr.Warnings, Understood: tr.Understood}
	return &Reply{Result: res, Session: session, Revision: tr.Revision, Record: &tr, Duplicate: true}, nil
}

// Log returns the records of a session's turns after revision after, at
// most limit (0: all), oldest first.
func (e *Engine) Log(ctx context.Context, session string, after uint64, limit int) ([]TurnRecord, error) {
	recs, err := e.store.Log(ctx, session, after, limit)
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
