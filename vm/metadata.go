package vm

import (
	"errors"
	"fmt"
	"maps"

	"github.com/soni-dev/soni/internal/jsonval"
)

// The limits on metadata. A front end sends metadata with each message
// (Input.Metadata); the session keeps one merged value of it
// (State.Metadata), which every checkpoint holds, so both are bounded.
const (
	// MaxMetadataSize is the most metadata one message may carry, in
	// bytes of compact JSON.
	MaxMetadataSize = 16 << 10
	// MaxMetadataDepth is how deep one message's metadata may nest: a
	// value directly under a key is at depth 1.
	MaxMetadataDepth = 16
	// MaxSessionMetadataSize is the most metadata a session keeps, once
	// merged, in bytes of compact JSON.
	MaxSessionMetadataSize = 64 << 10
)

// ErrMetadata means that a message's metadata was refused: not JSON
// values, nested too deep, or over a size limit. The turn changes nothing.
// It is the sender's mistake: retrying the same message fails the same
// way.
var ErrMetadata = errors.New("invalid metadata")

// mergeMetadata checks a message's metadata and merges it into the
// state's, key by key, the message's values winning.
func mergeMetadata(st *State, md map[string]any) error {
	n, err := jsonval.Size(md, MaxMetadataDepth)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrMetadata, err)
	}
	if n > MaxMetadataSize {
		return fmt.Errorf("%w: it is %d bytes of JSON, over the limit of %d bytes a message: send less with each message", ErrMetadata, n, MaxMetadataSize)
	}
	if st.Metadata == nil {
		st.Metadata = make(map[string]any, len(md))
	}
	maps.Copy(st.Metadata, md)
	if len(st.Metadata) > len(md) {
		// Only a session that already had metadata can grow past the
		// session limit.
		if n, err = jsonval.Size(st.Metadata, MaxMetadataDepth); err != nil {
			return fmt.Errorf("%w: the session's metadata: %v", ErrMetadata, err)
		}
	}
	if n > MaxSessionMetadataSize {
		return fmt.Errorf("%w: the session's metadata would be %d bytes of JSON, over the limit of %d bytes: send fewer distinct keys", ErrMetadata, n, MaxSessionMetadataSize)
	}
	return nil
}
