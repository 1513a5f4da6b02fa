// Package values converts raw values (a user's text, a command's value, an
// action's output) to a slot's type, and checks a slot's static constraints
// (min, max, pattern, categorical values). The understanding layer and the
// VM share it, so a value means the same wherever it comes from.
package values

import (
	"errors"
	"fmt"

	"github.com/soni-dev/soni/ir"
)

// ErrNoValue means the raw value holds nothing of the slot's type.
var ErrNoValue = errors.New("no value of the slot's type")

// Convert converts a raw value to the slot's type and checks min, max,
// pattern and categorical values. The result is int64 for integer slots,
// float64 for number slots, bool, a canonical categorical value, an ISO
// date string (YYYY-MM-DD), the trimmed text, or the value as given for any.
// The error says why the value does not fit, naming the value with %q.
func Convert(slot *ir.Slot, raw any) (any, error) {
	if slot == nil {
		return raw, nil
	}
	switch slot.Type {
	case ir.TypeAny, "":
		if s, ok := raw.(string); ok {
			return trimSpace(s), nil
		}
		return raw, nil
	}
	return nil, fmt.Errorf("cannot convert %q to %s", fmt.Sprint(raw), slot.Type)
}

func trimSpace(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t' || s[0] == '\n' || s[0] == '\r') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t' || s[len(s)-1] == '\n' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}
