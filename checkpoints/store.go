// Package checkpoints persists the checkpoint of each conversation session.
//
// A store keeps opaque bytes per session id. It knows one thing about their
// format: the bytes are a JSON object with a top-level integer field
// "revision", at least 1, that counts the saves of the session. Saving is a
// compare-and-swap on that revision, so that two processes resuming the same
// session cannot both win: the loser gets a [*ConflictError] and nothing is
// lost.
//
// [MemoryStore] keeps checkpoints in memory (tests, embedding). [FileStore]
// keeps one JSON file per session in a directory, written atomically
// (temporary file, fsync, rename, directory fsync) under an advisory file lock.
package checkpoints

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/soni-dev/soni/internal/jsonstr"
	"github.com/soni-dev/soni/internal/text"
)

// Store persists checkpoint bytes per session id. Implementations are safe
// for concurrent use. Every method validates the id with [ValidateID] first
// and returns an [*InvalidIDError] for a bad one, and returns ctx.Err() when
// the context is done before the work starts.
type Store interface {
	// Load returns the stored bytes of the session and their revision. An
	// unknown session is an error that matches [ErrNotFound] (revision 0).
	Load(ctx context.Context, id string) ([]byte, uint64, error)
	// Save stores data if and only if the stored revision of the session
	// equals expected (0: the session must not exist yet). data must be a
	// JSON object whose "revision" field is expected+1, otherwise the error
	// matches [ErrInvalidData]. When the stored revision differs, Save
	// returns a [*ConflictError] and stores nothing.
	Save(ctx context.Context, id string, expected uint64, data []byte) error
	// Delete removes the session. Deleting a missing session is not an error.
	Delete(ctx context.Context, id string) error
	// List returns the ids of the stored sessions, sorted.
	List(ctx context.Context) ([]string, error)
}

// MaxIDLength is the longest session id, in bytes.
const MaxIDLength = 128

// ErrNotFound means that the session has no checkpoint.
var ErrNotFound = errors.New("checkpoint not found")

// ErrConflict means that a compare-and-swap save lost: the stored revision
// was not the expected one. Errors returned by Save wrap it through
// [*ConflictError].
var ErrConflict = errors.New("checkpoint conflict")

// ErrCorrupt means that a stored checkpoint cannot be parsed. Errors returned
// by the stores wrap it through [*CorruptError].
var ErrCorrupt = errors.New("checkpoint corrupt")

// ErrInvalidData means that the bytes given to Save are not a JSON object
// with the right "revision" field. It is a caller bug; nothing is stored.
var ErrInvalidData = errors.New("invalid checkpoint data")

// ErrBusy means that a session already has as many turns waiting for its
// lock in this process as the store queues: the turn was refused before it
// ran or touched anything. It is not the sender's mistake; the same
// message can be sent again a little later (a server answers 429 with
// Retry-After).
var ErrBusy = errors.New("session busy")

// ErrTooLarge means that a checkpoint exceeds the store's size limit.
var ErrTooLarge = errors.New("checkpoint too large")

// ConflictError reports a lost compare-and-swap: Save expected the session
// at revision Expected but found it at Actual (0: it does not exist).
// errors.Is(err, ErrConflict) holds for it.
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
	return fmt.Sprintf("%v: session %q was expected at revision %d but %s (saved by another process or turn?); reload it and try again",
		ErrConflict, e.Session, e.Expected, found)
}

// Is reports whether target is [ErrConflict].
func (e *ConflictError) Is(target error) bool { return target == ErrConflict }

// CorruptError reports a stored checkpoint that cannot be parsed. Path names
// the file (or the session, for stores without files) and Err the reason.
// The stores never overwrite a corrupt checkpoint. errors.Is(err, ErrCorrupt)
// holds for it.
type CorruptError struct {
	Path string
	Err  error
}

// Error names the file and the reason and suggests --reset.
func (e *CorruptError) Error() string {
	return fmt.Sprintf("checkpoint %q is corrupt: %v; it was left untouched: inspect or remove it, or start the session afresh with --reset",
		e.Path, e.Err)
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

// Revision returns the top-level "revision" field of checkpoint bytes. The
// bytes must be one JSON object and the field an integer literal of at
// least 1 that fits in 64 bits.
//
// The stores call it on every load and save, so it does not parse the
// document into values: it scans the top level for the field, checking the
// document's structure (one object, keys and values in order, strings and
// brackets closed, nothing after it) and allocating nothing. It does not
// check every literal nested inside: the VM's decoder, which parses a
// checkpoint once per turn, does. A document the scan cannot read goes
// through encoding/json, for the precise error message or an escaped key.
func Revision(data []byte) (uint64, error) {
	if rev, ok := scanRevision(data); ok {
		return rev, nil
	}
	return parseRevision(data)
}

// scanRevision finds the top-level "revision" of valid JSON without
// allocating. It reports false when it cannot decide, and the caller
// parses instead.
func scanRevision(data []byte) (uint64, bool) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return 0, false
	}
	i = skipSpace(data, i+1)
	var rev uint64
	found := false
	if i < len(data) && data[i] == '}' {
		return 0, false // no field at all
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return 0, false
		}
		j := i + 1
		for j < len(data) && data[j] != '"' {
			if data[j] == '\\' {
				return 0, false // an escaped key: let encoding/json unescape it
			}
			j++
		}
		if j >= len(data) {
			return 0, false
		}
		key := data[i+1 : j]
		i = skipSpace(data, j+1)
		if i >= len(data) || data[i] != ':' {
			return 0, false
		}
		i = skipSpace(data, i+1) // at the value
		end, ok := skipValue(data, i)
		if !ok {
			return 0, false
		}
		if string(key) == "revision" {
			n, err := strconv.ParseUint(string(data[i:end]), 10, 64)
			if err != nil || n == 0 {
				return 0, false
			}
			rev, found = n, true // the last duplicate wins, as in encoding/json
		}
		i = skipSpace(data, end)
		if i < len(data) && data[i] == ',' {
			i = skipSpace(data, i+1)
			continue
		}
		if i >= len(data) || data[i] != '}' || skipSpace(data, i+1) != len(data) {
			return 0, false
		}
		return rev, found
	}
}

// skipSpace returns the index of the first non-space byte at or after i.
func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the index just after the JSON value at i, and false
// when the value is empty or runs off the end (an unclosed string or
// bracket) or its brackets do not pair.
func skipValue(data []byte, i int) (int, bool) {
	var stack [64]byte // open brackets; deeper documents go to encoding/json
	depth := 0
	start := i
	for ; i < len(data); i++ {
		switch c := data[i]; c {
		case '"':
			for i++; ; i++ {
				// Plain stops at the quote, a backslash or a control
				// character (which the scan lets through).
				if i = jsonstr.Plain(data, i); i >= len(data) {
					return 0, false
				}
				if data[i] == '"' {
					break
				}
				if data[i] == '\\' {
					i++
				}
			}
			if depth == 0 {
				return i + 1, true
			}
		case '{', '[':
			if depth == len(stack) {
				return 0, false
			}
			stack[depth] = c
			depth++
		case '}', ']':
			if depth == 0 {
				return i, i > start
			}
			depth--
			if open := stack[depth]; open == '{' && c != '}' || open == '[' && c != ']' {
				return 0, false
			}
			if depth == 0 {
				return i + 1, true
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i, i > start
			}
		}
	}
	return i, depth == 0 && i > start
}

// parseRevision is Revision through encoding/json, with the messages of
// every way the bytes can be wrong.
func parseRevision(data []byte) (uint64, error) {
	if len(strings.TrimSpace(string(data))) == 0 {
		return 0, errors.New("it is empty, not a JSON object")
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return 0, fmt.Errorf("it is a JSON %s, not an object", typeErr.Value)
		}
		return 0, fmt.Errorf("it is not valid JSON: %w", err)
	}
	if top == nil {
		return 0, errors.New("it is JSON null, not an object")
	}
	raw, ok := top["revision"]
	if !ok {
		return 0, errors.New(`it has no top-level "revision" field`)
	}
	n, err := strconv.ParseUint(string(raw), 10, 64)
	if err != nil || n == 0 {
		return 0, fmt.Errorf(`its "revision" is %q, not an integer of at least 1`, text.Clip(string(raw), 40))
	}
	return n, nil
}

// CheckData validates the bytes given to Save for the expected revision:
// a JSON object whose "revision" is expected+1. Stores call it.
func CheckData(id string, expected uint64, data []byte) error {
	rev, err := Revision(data)
	if err != nil {
		return fmt.Errorf("%w for session %q: %v", ErrInvalidData, id, err)
	}
	if expected == ^uint64(0) || rev != expected+1 {
		return fmt.Errorf("%w for session %q: its revision is %d but saving over revision %d must write revision %d",
			ErrInvalidData, id, rev, expected, expected+1)
	}
	return nil
}

// Pinger is a Store that can tell whether it answers without listing its
// sessions. serve's /readyz asks on every probe, so Ping must cost the
// same whatever the number of sessions. Every store in this module is
// one.
type Pinger interface {
	Ping(ctx context.Context) error
}

// Ping reports whether s answers: s.Ping when s is a Pinger, else a List
// (which grows with the number of sessions).
func Ping(ctx context.Context, s Store) error {
	if p, ok := s.(Pinger); ok {
		return p.Ping(ctx)
	}
	_, err := s.List(ctx)
	return err
}

// SharedLoader is a Store that can lend its own bytes instead of a copy:
// LoadShared returns bytes the store never changes afterwards, which the
// caller must treat as read-only. The soni Engine decodes them in place
// (the state's strings share them), which saves a copy of every
// checkpoint on every turn of a memory store.
type SharedLoader interface {
	LoadShared(ctx context.Context, id string) ([]byte, uint64, error)
}
