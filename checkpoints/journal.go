package checkpoints

import (
	"context"
	"fmt"
	"time"
)

// Record is one turn's entry in a session's event log: what the user sent,
// what was understood, the replies and the VM events (the engine writes
// it; the store keeps Data byte for byte).
type Record struct {
	// Revision is the checkpoint revision the turn saved.
	Revision uint64
	// Key is the turn's idempotency key (a message id), or "".
	Key string
	// Data is the entry: one JSON object.
	Data []byte
}

// SessionInfo describes a stored session.
type SessionInfo struct {
	ID       string
	Revision uint64
	// Updated is when the checkpoint was last saved.
	Updated time.Time
}

// Journal is a [Store] that also keeps, per session, an append-only event
// log with idempotency keys, and a turn lock that holds across processes.
// Every store of this package and of its subpackages is a Journal; the
// engine uses a plain Store's Save when it is given one.
type Journal interface {
	Store
	// Commit saves data like Save and, in the same atomic step, appends
	// rec to the session's log. rec.Revision must be expected+1. A lost
	// compare-and-swap stores neither.
	Commit(ctx context.Context, id string, expected uint64, data []byte, rec Record) error
	// Log returns the session's records with a revision above after,
	// oldest first, at most limit of them (limit <= 0: all). An unknown
	// session has an empty log.
	Log(ctx context.Context, id string, after uint64, limit int) ([]Record, error)
	// Lookup returns the record of the session's turn whose Key is key.
	Lookup(ctx context.Context, id, key string) (Record, bool, error)
	// Lock takes the session's turn lock and returns the function that
	// releases it. Holders exclude each other in this process and in
	// others sharing the store; Lock waits until the lock is free or ctx
	// is done. A process that dies releases its locks.
	Lock(ctx context.Context, id string) (unlock func(), err error)
	// Sessions lists the stored sessions, sorted by id.
	Sessions(ctx context.Context) ([]SessionInfo, error)
	// Prune deletes every session last saved before the given time (its
	// checkpoint, log and keys), taking each session's turn lock so that
	// it never removes a session a turn is using, and returns how many it
	// deleted.
	Prune(ctx context.Context, before time.Time) (int, error)
}

// CheckRecord checks a record given to Commit: its revision must be
// expected+1 and its key at most MaxKeyLength bytes. Stores call it.
func CheckRecord(id string, expected uint64, rec Record) error {
	if rec.Revision != expected+1 {
		return fmt.Errorf("%w: the log record of session %q has revision %d, not %d", ErrInvalidData, id, rec.Revision, expected+1)
	}
	if len(rec.Key) > MaxKeyLength {
		return fmt.Errorf("%w: idempotency key of session %q is %d bytes, over %d", ErrInvalidData, id, len(rec.Key), MaxKeyLength)
	}
	return nil
}

// MaxKeyLength is the longest idempotency key, in bytes.
const MaxKeyLength = 256

// PruneEach is the loop of a store's Prune: for each session last saved
// before the given time, it takes the session's turn lock and calls del,
// which deletes the session if it is still that old (a turn may have
// saved it meanwhile) and reports whether it did. It returns how many
// were deleted.
func PruneEach(ctx context.Context, j Journal, before time.Time, del func(ctx context.Context, id string) (bool, error)) (int, error) {
	infos, err := j.Sessions(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, in := range infos {
		if !in.Updated.Before(before) {
			continue
		}
		unlock, err := j.Lock(ctx, in.ID)
		if err != nil {
			return n, err
		}
		deleted, err := del(ctx, in.ID)
		unlock()
		if err != nil {
			return n, fmt.Errorf("prune session %q: %w", in.ID, err)
		}
		if deleted {
			n++
		}
	}
	return n, nil
}
