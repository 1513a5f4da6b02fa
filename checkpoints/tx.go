package checkpoints

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
)

// TxBase is the bookkeeping every store's transaction shares: the session,
// its place in the queue, the checkpoint Begin loaded, and whether the
// transaction has committed or closed. A store's transaction embeds it and
// adds its own lock and handles. Stores of other packages use it.
type TxBase struct {
	// ID is the session; Data and Rev its checkpoint as Begin loaded it
	// (nil and 0: none).
	ID        string
	Data      []byte
	Rev       uint64
	ticket    Ticket
	committed bool
	closed    bool
}

// NewTxBase starts the bookkeeping of a transaction that holds the ticket.
func NewTxBase(id string, t Ticket, data []byte, rev uint64) TxBase {
	return TxBase{ID: id, ticket: t, Data: data, Rev: rev}
}

// Checkpoint returns the checkpoint as loaded; see [Tx].
func (t *TxBase) Checkpoint() ([]byte, uint64) { return t.Data, t.Rev }

// CanLookup returns the error a Lookup must return before it looks: the
// transaction is closed, or the context is done.
func (t *TxBase) CanLookup(ctx context.Context) error {
	if t.closed {
		return ErrClosed
	}
	return ctx.Err()
}

// CanCommit returns the error a Commit must return before it writes: the
// transaction is closed or has committed, the context is done, or the
// record breaks [CheckRecord].
func (t *TxBase) CanCommit(ctx context.Context, rec Record) error {
	switch {
	case t.closed:
		return ErrClosed
	case t.committed:
		return errCommitted
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return CheckRecord(t.ID, t.Rev, rec)
}

// Committed notes a successful commit: the transaction commits no more.
func (t *TxBase) Committed() { t.committed = true }

// End closes the transaction, once: it calls release (the store's own
// lock, if it has one) and then gives the session's place in the queue to
// the next turn.
func (t *TxBase) End(release func()) {
	if t.closed {
		return
	}
	t.closed = true
	if release != nil {
		release()
	}
	t.ticket.Release()
}

// RecordJSON returns the JSON of a record for a store to write: rec.Data
// checked to be one JSON object, or rec.Value encoded. The result holds no
// newline outside strings (one line of a log file).
func RecordJSON(id string, rec Record) ([]byte, error) {
	data := rec.Data
	if data == nil {
		if rec.Value == nil {
			return nil, fmt.Errorf("%w: the record of revision %d of session %q has no data", ErrInvalidData, rec.Revision, id)
		}
		b, err := json.Marshal(rec.Value)
		if err != nil {
			return nil, fmt.Errorf("%w: the record of revision %d of session %q cannot be written as JSON: %v", ErrInvalidData, rec.Revision, id, err)
		}
		data = b // compact, one line
	} else {
		if !json.Valid(data) {
			return nil, fmt.Errorf("%w: the record of revision %d of session %q is not valid JSON", ErrInvalidData, rec.Revision, id)
		}
		if bytes.IndexByte(data, '\n') >= 0 || bytes.IndexByte(data, '\r') >= 0 {
			var c bytes.Buffer
			_ = json.Compact(&c, data) // valid: cannot fail
			data = c.Bytes()
		}
	}
	if i := firstNonSpace(data); i == len(data) || data[i] != '{' {
		return nil, fmt.Errorf("%w: the record of revision %d of session %q is not a JSON object", ErrInvalidData, rec.Revision, id)
	}
	return data, nil
}

func firstNonSpace(b []byte) int {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}
