package checkpoints

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/soni-dev/soni/internal/jsonstr"
	"github.com/soni-dev/soni/internal/text"
)

// Revision returns the top-level "revision" field of checkpoint bytes. The
// bytes must be one JSON object and the field an integer literal of at
// least 1 that fits in 64 bits.
//
// The stores that keep a revision beside the bytes never call it. The
// [FileStore], whose file is the bare checkpoint, calls it once when a
// transaction or a Load reads the file, so it does not parse the document
// into values: it scans the top level for the field, checking the
// document's structure (one object, keys and values in order, strings and
// brackets closed, nothing after it) and allocating nothing. It does not
// check every literal nested inside: the codec, which parses a checkpoint
// once per turn, does. A document the scan cannot read goes through
// encoding/json, for the precise error message or an escaped key.
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
