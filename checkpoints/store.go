// Package checkpoints keeps the conversation sessions of soni: per session,
// its checkpoint (bytes the engine's codec writes) with a revision that
// counts its saves, and a log of its turns with their message ids. The
// stores keep the bytes as they are given, and the revision beside them
// (the [FileStore] in a header line of the checkpoint's file), never
// looking inside.
//
// One turn is one transaction ([Tx]), and a transaction has one owner, the
// store: [Store.Begin] checks the session id (the only place a turn checks
// it), takes the session's lock — first its place in a bounded per-session
// queue of this process, then the lock that holds across processes — and
// loads the checkpoint once. The turn reads it ([Tx.Checkpoint]), looks its
// message id up in an index ([Tx.Lookup]), and saves the new checkpoint and
// its log record in one atomic step ([Tx.Commit]), a compare-and-swap on the
// revision the transaction loaded: the record carries the new revision, so
// the store never parses the bytes for it. [Tx.Close] releases the lock.
//
// [MemoryStore] keeps sessions in memory (tests, embedding; optionally
// bounded, least recently used first out). [FileStore] keeps files in a
// directory, written atomically under a flock(2). Subpackages sqlite and
// postgres keep them in a database. [Observe] wraps any store to time
// every operation. Package storetest is the conformance suite they all
// pass.
package checkpoints

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Store keeps sessions. Implementations are safe for concurrent use. Every
// method that takes a session id checks it with [ValidateID] first and
// returns an [*InvalidIDError] for a bad one, and every method returns
// ctx.Err() when the context is done before the work starts.
type Store interface {
	// Begin starts a transaction on the session: it takes the session's
	// lock, waiting for the turn that holds it, and loads the session's
	// checkpoint. A session with no checkpoint is not an error: its
	// transaction has revision 0. When the session already has as many
	// turns waiting in this process as the store queues, Begin returns an
	// error matching [ErrBusy] at once. The caller must Close the
	// transaction.
	Begin(ctx context.Context, id string) (Tx, error)
	// Load reads the session's checkpoint as last committed, and its
	// revision, without taking the lock. An unknown session is an error
	// that matches [ErrNotFound]. The bytes are read-only: a store may
	// share them.
	Load(ctx context.Context, id string) ([]byte, uint64, error)
	// Log returns the session's records with a revision above after,
	// oldest first, at most limit of them (limit <= 0: all). An unknown
	// session has an empty log. Its cost grows with the records returned,
	// not with the session's length.
	Log(ctx context.Context, id string, after uint64, limit int) ([]Record, error)
	// List returns one page of the stored sessions, sorted by id: those
	// whose id sorts after the given one ("" for the first page), at most
	// limit of them (limit <= 0: all). The last id of a page is the after
	// of the next.
	List(ctx context.Context, after string, limit int) ([]SessionInfo, error)
	// Delete removes the session, its log and its message ids, under the
	// session's lock. Deleting a missing session is not an error; Delete
	// also removes a corrupt checkpoint (that is how a session is reset).
	Delete(ctx context.Context, id string) error
	// Prune deletes every session last saved before the given time, each
	// under its lock so that it never removes a session a turn is using,
	// and returns how many it deleted. It works through the sessions in
	// batches, in time linear in their number.
	Prune(ctx context.Context, before time.Time) (int, error)
	// Ping reports whether the store answers, at a cost that does not
	// grow with the number of sessions (serve's /readyz asks on every
	// probe).
	Ping(ctx context.Context) error
	// SaveProgram keeps one version of the program (the bytes of a
	// compiled program; version is its hash, see [ValidateVersion])
	// unless the store has it already, and marks it used now. It returns
	// when the version was first saved: versions are ordered by it. A
	// version is stored whole or not at all, so that any process sharing
	// the store can run the sessions saved with it.
	SaveProgram(ctx context.Context, version string, data []byte) (time.Time, error)
	// LoadProgram returns a saved version's bytes and when it was first
	// saved. A version the store does not have (never saved, or deleted)
	// is an error matching [ErrNoProgram].
	LoadProgram(ctx context.Context, version string) ([]byte, time.Time, error)
	// Programs lists the saved versions, first saved first.
	Programs(ctx context.Context) ([]ProgramInfo, error)
	// DeleteProgram removes a saved version; removing a missing one is
	// not an error. Sessions saved with it then meet a version that is
	// gone (see docs/serve.md, "Deploying new flows").
	DeleteProgram(ctx context.Context, version string) error
	// Close releases the store's resources (connections, handles). The
	// store must not be used afterwards.
	Close() error
}

// ProgramInfo describes a saved program version.
type ProgramInfo struct {
	// Version is the program's fingerprint.
	Version string
	// Saved is when the version was first saved; Used when it was last
	// saved again (the engine that runs it saves it before its first
	// turn, at each reload and every ten minutes of turns).
	Saved, Used time.Time
	// Size is the length of its bytes.
	Size int
}

// ErrNoProgram means that the store does not have a program version.
var ErrNoProgram = errors.New("program version not found")

// MaxVersionLength is the longest program version, in bytes.
const MaxVersionLength = 128

// ValidateVersion checks a program version: 1 to [MaxVersionLength]
// bytes of lower-case letters, digits and at most one colon between
// them, as in "sha256:<hex>".
func ValidateVersion(v string) error {
	if v == "" || len(v) > MaxVersionLength {
		return fmt.Errorf("program version %q must be 1 to %d bytes", v, MaxVersionLength)
	}
	colons := 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case c == ':' && i > 0 && i < len(v)-1 && colons == 0:
			colons++
		default:
			return fmt.Errorf("program version %q may hold only lower-case letters, digits and one colon, like sha256:<hex>", v)
		}
	}
	return nil
}

// CheckVersion checks the version and then the context, as every program
// method of a store does first.
func CheckVersion(ctx context.Context, v string) error {
	if err := ValidateVersion(v); err != nil {
		return err
	}
	return ctx.Err()
}

// Tx is one turn's hold on a session, from [Store.Begin] to Close. It is
// used by one goroutine.
type Tx interface {
	// Checkpoint returns the session's checkpoint as Begin loaded it and
	// its revision: nil and 0 for a session with no checkpoint. The bytes
	// are read-only: the store may share them, for as long as the caller
	// likes.
	Checkpoint() ([]byte, uint64)
	// Lookup returns the record of the session's turn whose Key is key,
	// through an index: its cost does not grow with the session's length.
	// The empty key is never found.
	Lookup(ctx context.Context, key string) (Record, bool, error)
	// Commit saves data as the session's checkpoint and appends rec to its
	// log, in one atomic step: both or neither. rec.Revision must be the
	// loaded revision plus one, and rec.Key at most [MaxKeyLength] bytes,
	// or the error matches [ErrInvalidData]. When the stored revision is
	// no longer the loaded one (only a writer that bypassed the lock can
	// do that), Commit returns a [*ConflictError] and stores nothing. The
	// store does not keep data past the call. A transaction commits at
	// most once.
	Commit(ctx context.Context, rec Record, data []byte) error
	// Close ends the transaction and releases the session's lock. A
	// transaction closed without a commit changes nothing. Close may be
	// called more than once.
	Close()
}

// Record is one turn's entry in a session's log: what the user sent, what
// was understood, the replies and the VM events. The engine writes it; a
// store keeps it as JSON, byte for byte.
type Record struct {
	// Revision is the checkpoint revision the turn saved.
	Revision uint64
	// Key is the turn's idempotency key (a message id), or "".
	Key string
	// Data is the entry: one JSON object. A record read from a store
	// always has it.
	Data []byte
	// Value, when Data is nil, is the entry as a Go value that
	// encoding/json writes as one object. A store encodes it once, at
	// commit; a memory store made with WithRecordValues keeps the value
	// and encodes it only when the record is read, so the value must not
	// change after Commit.
	Value any
}

// SessionInfo describes a stored session.
type SessionInfo struct {
	ID       string
	Revision uint64
	// Updated is when the checkpoint was last saved.
	Updated time.Time
}

// MaxIDLength is the longest session id, in bytes.
const MaxIDLength = 128

// MaxKeyLength is the longest idempotency key, in bytes.
const MaxKeyLength = 256

// ErrNotFound means that the session has no checkpoint.
var ErrNotFound = errors.New("checkpoint not found")

// ErrConflict means that a compare-and-swap lost: the stored revision was
// not the expected one. Errors returned by Commit wrap it through
// [*ConflictError].
var ErrConflict = errors.New("checkpoint conflict")

// ErrCorrupt means that a stored checkpoint or log cannot be read. Errors
// returned by the stores wrap it through [*CorruptError].
var ErrCorrupt = errors.New("checkpoint corrupt")

// ErrInvalidData means that what was given to Commit breaks its rules (a
// record's revision or key, a record that is not a JSON object). It is a
// caller bug; nothing is stored.
var ErrInvalidData = errors.New("invalid checkpoint data")

// ErrBusy means that a session already has as many turns waiting for its
// lock in this process as the store queues: the turn was refused before it
// ran or touched anything. It is not the sender's mistake; the same
// message can be sent again a little later (a server answers 429 with
// Retry-After).
var ErrBusy = errors.New("session busy")

// ErrSchemaOutdated means that a database store's tables are older than
// this soni and the store was opened without migrating them (as read-only
// commands open it). Migrating them, once, fixes it.
var ErrSchemaOutdated = errors.New("the database's schema needs migrating")

// ErrTooLarge means that a checkpoint exceeds the store's size limit.
var ErrTooLarge = errors.New("checkpoint too large")

// ConflictError reports a lost compare-and-swap: the transaction expected
// the session at revision Expected but found it at Actual (0: it does not
// exist). errors.Is(err, ErrConflict) holds for it.
type ConflictError struct {
	Session          string
	Expected, Actual uint64
}

// Error describes the conflict, naming the session and both revisions.
func (e *ConflictError) Error() string {
	var found string
	switch {
	case e.Actual == 0:
		found = "it does not exist"
	case e.Expected == 0:
		found = fmt.Sprintf("it already exists at revision %d", e.Actual)
	default:
		found = fmt.Sprintf("it is at revision %d", e.Actual)
	}
	return fmt.Sprintf("%v: session %q was expected at revision %d but %s: another writer saved it without taking its lock; nothing of this turn was saved",
		ErrConflict, e.Session, e.Expected, found)
}

// Is reports whether target is [ErrConflict].
func (e *ConflictError) Is(target error) bool { return target == ErrConflict }

// CorruptError reports a stored checkpoint or log that cannot be read.
// Path names the file (or the session, for stores without files) and Err
// the reason. The stores never overwrite a corrupt checkpoint.
// errors.Is(err, ErrCorrupt) holds for it.
type CorruptError struct {
	Path string
	Err  error
}

// Error names the file and the reason.
func (e *CorruptError) Error() string {
	return fmt.Sprintf("checkpoint %q is corrupt: %v; it was left untouched", e.Path, e.Err)
}

// Unwrap returns the reason.
func (e *CorruptError) Unwrap() error { return e.Err }

// Is reports whether target is [ErrCorrupt].
func (e *CorruptError) Is(target error) bool { return target == ErrCorrupt }

// InvalidIDError reports a session id that breaks the rule of [ValidateID].
type InvalidIDError struct {
	ID string
}

// Error names the id, what is wrong with it, and the rule.
func (e *InvalidIDError) Error() string {
	return fmt.Sprintf("invalid session id %q: %s; a session id is 1 to %d characters from A-Z, a-z, 0-9, '.', '_' and '-', and is not \".\" or \"..\"",
		e.ID, idProblem(e.ID), MaxIDLength)
}

// ValidateID checks a session id: 1 to 128 characters from [A-Za-z0-9._-],
// other than "." and "..". Such an id is a plain file name and never a path,
// so no store reads or writes outside its place. The error is an
// [*InvalidIDError].
func ValidateID(id string) error {
	if idProblem(id) != "" {
		return &InvalidIDError{ID: id}
	}
	return nil
}

// idProblem returns what is wrong with id, or "" if it is valid.
func idProblem(id string) string {
	switch {
	case id == "":
		return "it is empty"
	case id == "." || id == "..":
		return "it is a path, not a name"
	case len(id) > MaxIDLength:
		return fmt.Sprintf("it is %d bytes long", len(id))
	}
	for i := 0; i < len(id); i++ {
		if !isIDByte(id[i]) {
			// Name the whole character, not just its first byte.
			r := []rune(id[i:])[0]
			return fmt.Sprintf("it contains %q", r)
		}
	}
	return ""
}

func isIDByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '.' || c == '_' || c == '-'
}

// Check runs the checks every method taking a session id starts with: the
// id, then the context. Stores of other packages call it.
func Check(ctx context.Context, id string) error {
	if err := ValidateID(id); err != nil {
		return err
	}
	return ctx.Err()
}

// CheckRecord checks a record given to Commit on a session loaded at
// revision loaded: its revision must be loaded+1 and its key at most
// [MaxKeyLength] bytes. Stores call it.
func CheckRecord(id string, loaded uint64, rec Record) error {
	if loaded == ^uint64(0) || rec.Revision != loaded+1 {
		return fmt.Errorf("%w: the record of session %q has revision %d, but the session was loaded at revision %d, so its next revision is %d",
			ErrInvalidData, id, rec.Revision, loaded, loaded+1)
	}
	if len(rec.Key) > MaxKeyLength {
		return fmt.Errorf("%w: the message id of session %q is %d bytes, over the limit of %d", ErrInvalidData, id, len(rec.Key), MaxKeyLength)
	}
	return nil
}

// errCommitted is returned by a second Commit of one transaction.
var errCommitted = errors.New("the transaction has already committed: begin a new one for the next turn")

// ErrClosed is returned by a transaction used after Close.
var ErrClosed = errors.New("the transaction is closed")
