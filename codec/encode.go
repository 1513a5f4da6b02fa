package codec

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/soni-dev/soni/codec/internal/jsonstr"
	"github.com/soni-dev/soni/internal/jsonval"
	"github.com/soni-dev/soni/vm"
)

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// Encode returns the checkpoint bytes of a state: indented JSON with the
// fields in a fixed order and map keys sorted, so the same state always
// gives the same bytes. docs/runtime.md documents the format.
func (c *Codec) Encode(st *vm.State) ([]byte, error) {
	if st == nil {
		return nil, errors.New("encode checkpoint: no state")
	}
	bp := bufPool.Get().(*[]byte)
	b, err := c.appendState((*bp)[:0], st)
	var out []byte
	if err == nil {
		out = make([]byte, len(b))
		copy(out, b)
	}
	if cap(b) <= 64<<10 {
		*bp = b[:0]
		bufPool.Put(bp)
	}
	if err != nil {
		return nil, fmt.Errorf("encode checkpoint: %w", err)
	}
	return out, nil
}

// AppendEncode appends the checkpoint of st to dst, as [Codec.Encode]
// writes it, and returns the extended slice: a caller that saves many turns
// can reuse one buffer.
func (c *Codec) AppendEncode(dst []byte, st *vm.State) ([]byte, error) {
	if st == nil {
		return nil, errors.New("encode checkpoint: no state")
	}
	b, err := c.appendState(dst, st)
	if err != nil {
		return nil, fmt.Errorf("encode checkpoint: %w", err)
	}
	return b, nil
}

func (c *Codec) appendState(b []byte, st *vm.State) ([]byte, error) {
	var err error
	b = append(b, "{\n  \"format\": "...)
	b = appendString(b, Format)
	b = append(b, ",\n  \"session\": "...)
	b = appendString(b, st.Session)
	b = append(b, ",\n  \"revision\": "...)
	b = strconv.AppendUint(b, st.Revision, 10)
	b = append(b, ",\n  \"fingerprint\": "...)
	b = appendString(b, c.fingerprint)
	b = append(b, ",\n  \"created\": \""...)
	b = st.Created.UTC().AppendFormat(b, time.RFC3339Nano)
	b = append(b, "\",\n  \"updated\": \""...)
	b = st.Updated.UTC().AppendFormat(b, time.RFC3339Nano)
	b = append(b, "\",\n  \"stack\": ["...)
	for i, f := range st.Stack {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    {\"flow\": "...)
		b = appendString(b, f.Flow)
		b = append(b, ", \"step\": "...)
		b = appendString(b, f.Step)
		if f.AfterCall {
			b = append(b, ", \"resume\": \""+resumeAfterCall+"\""...)
		}
		b = append(b, ", \"slots\": "...)
		if b, err = appendMap(b, f.Slots, 0); err != nil {
			return nil, fmt.Errorf("flow %q: %w", f.Flow, err)
		}
		if len(f.Held) > 0 {
			b = append(b, ", \"held\": "...)
			if b, err = appendMap(b, f.Held, 0); err != nil {
				return nil, fmt.Errorf("flow %q held values: %w", f.Flow, err)
			}
		}
		if len(f.Uses) > 0 {
			if b, err = appendUses(b, f.Uses); err != nil {
				return nil, fmt.Errorf("flow %q uses: %w", f.Flow, err)
			}
		}
		b = append(b, '}')
	}
	if len(st.Stack) > 0 {
		b = append(b, "\n  "...)
	}
	b = append(b, "],\n  \"slots\": {"...)
	var keyBuf [8]string // most conversations have a few slots: no allocation
	keys := keyBuf[:0]
	for k := range st.Slots {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    "...)
		b = appendString(b, k)
		b = append(b, ": "...)
		if b, err = appendValue(b, st.Slots[k], 0); err != nil {
			return nil, fmt.Errorf("slot %q: %w", k, err)
		}
	}
	if len(keys) > 0 {
		b = append(b, "\n  "...)
	}
	b = append(b, "},\n  \"pending\": "...)
	if p := st.Pending; p == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, "{\"kind\": "...)
		b = appendString(b, string(p.Kind))
		b = append(b, ", \"flow\": "...)
		b = appendString(b, p.Flow)
		b = append(b, ", \"step\": "...)
		b = appendString(b, p.Step)
		b = append(b, ", \"slot\": "...)
		b = appendString(b, p.Slot)
		b = append(b, ", \"prompt\": "...)
		b = appendString(b, p.Prompt)
		b = append(b, ", \"attempts\": "...)
		b = strconv.AppendInt(b, int64(p.Attempts), 10)
		b = append(b, '}')
	}
	b = append(b, ",\n  \"history\": ["...)
	for i, h := range st.History {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    {\"role\": "...)
		b = appendString(b, h.Role)
		b = append(b, ", \"text\": "...)
		b = appendString(b, h.Text)
		b = append(b, '}')
	}
	if len(st.History) > 0 {
		b = append(b, "\n  "...)
	}
	b = append(b, ']')
	if len(st.Metadata) > 0 {
		b = append(b, ",\n  \"metadata\": "...)
		if b, err = appendMap(b, st.Metadata, 0); err != nil {
			return nil, fmt.Errorf("metadata: %w", err)
		}
	}
	if len(st.Clarify) > 0 {
		b = append(b, ",\n  \"clarify\": ["...)
		for i, f := range st.Clarify {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendString(b, f)
		}
		b = append(b, ']')
	}
	b = append(b, "\n}\n"...)
	return b, nil
}

// appendMap appends a map as a one-line JSON object with sorted keys.
// appendUses writes a frame's uses (vm.Frame.Uses) as the "uses" field:
// a list of {"slot", "step", "value"} in the order the flow read them.
func appendUses(b []byte, uses []vm.Use) ([]byte, error) {
	b = append(b, ", \"uses\": ["...)
	var err error
	for i, u := range uses {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, "{\"slot\": "...)
		b = appendString(b, u.Slot)
		b = append(b, ", \"step\": "...)
		b = appendString(b, u.Step)
		b = append(b, ", \"value\": "...)
		if b, err = appendValue(b, u.Value, 0); err != nil {
			return nil, fmt.Errorf("slot %q: %w", u.Slot, err)
		}
		b = append(b, '}')
	}
	return append(b, ']'), nil
}

func appendMap(b []byte, m map[string]any, depth int) ([]byte, error) {
	if len(m) == 0 {
		return append(b, "{}"...), nil
	}
	var arr [8]string
	keys := arr[:0]
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b = append(b, '{')
	var err error
	for i, k := range keys {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendString(b, k)
		b = append(b, ": "...)
		if b, err = appendValue(b, m[k], depth+1); err != nil {
			return nil, fmt.Errorf("key %q: %w", k, err)
		}
	}
	return append(b, '}'), nil
}

// appendValue appends a slot value as JSON. Floats always carry a '.' or an
// exponent so that they decode as floats again.
func appendValue(b []byte, v any, depth int) ([]byte, error) {
	if depth > maxValueDepth {
		return nil, errors.New("value nests too deep")
	}
	switch x := jsonval.Normalize(v).(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case string:
		return appendString(b, x), nil
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%v cannot be written as JSON", x)
		}
		start := len(b)
		b = strconv.AppendFloat(b, x, 'g', -1, 64)
		for _, c := range b[start:] {
			if c == '.' || c == 'e' {
				return b, nil
			}
		}
		return append(b, ".0"...), nil
	case []any:
		b = append(b, '[')
		var err error
		for i, e := range x {
			if i > 0 {
				b = append(b, ", "...)
			}
			if b, err = appendValue(b, e, depth+1); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case map[string]any:
		return appendMap(b, x, depth)
	}
	// Other Go values (structs, typed slices) are written as encoding/json
	// writes them and come back as generic JSON values.
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("value of type %T cannot be written as JSON: %v", v, err)
	}
	d := decoder{b: raw, src: string(raw)}
	generic, err := d.value(depth + 1)
	if err != nil {
		return nil, fmt.Errorf("value of type %T cannot be written as JSON: %v", v, err)
	}
	return appendValue(b, generic, depth+1)
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string. Each invalid UTF-8 byte
// becomes U+FFFD, as encoding/json does.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if i = jsonstr.PlainASCII(s, i); i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = utf8.AppendRune(b, utf8.RuneError)
			i++
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
