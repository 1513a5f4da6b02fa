package codec

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"
	"time"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/soni-dev/soni/codec/internal/jsonstr"
	"github.com/soni-dev/soni/vm"
)

// The fields of a checkpoint, as bits of a set.
const (
	fFormat = 1 << iota
	fSession
	fRevision
	fFingerprint
	fCreated
	fUpdated
	fStack
	fSlots
	fPending
	fHistory
	fAll = 1<<iota - 1
	// fMetadata is optional: a checkpoint without session metadata has
	// no such field.
	fMetadata = fAll + 1
	// fClarify is optional too: only a turn that asked a clarify question
	// writes it.
	fClarify = fMetadata << 1
	// fRequired are the fields every checkpoint has. The fingerprint (the
	// program version) may be missing: such a checkpoint is of an unknown
	// version, which the engine checks against its program (package
	// versions).
	fRequired = fAll &^ fFingerprint
)

var fieldNames = []string{"format", "session", "revision", "fingerprint", "created", "updated", "stack", "slots", "pending", "history", "metadata", "clarify"}

// Decode reads checkpoint bytes and checks them against the machine's
// program. A checkpoint written for another version of the program
// resumes as long as every flow and step it points at still exists; slots
// the program no longer has are dropped. Both are noted in State.Notes.
func (c *Codec) Decode(b []byte) (*vm.State, error) {
	st, err := c.decodeFrom(b, string(b), true)
	if err != nil {
		return nil, fmt.Errorf("read checkpoint: %w", err)
	}
	return st, nil
}

// DecodeOwned is Decode for bytes the caller hands over: b must not be
// modified afterwards, because the strings of the state may share its
// memory instead of copying it. A store's Load returns such bytes (a
// copy of its own), so the engine decodes them with one copy fewer.
func (c *Codec) DecodeOwned(b []byte) (*vm.State, error) {
	if len(b) == 0 {
		return c.Decode(b)
	}
	st, err := c.decodeFrom(b, unsafe.String(&b[0], len(b)), true)
	if err != nil {
		return nil, fmt.Errorf("read checkpoint: %w", err)
	}
	return st, nil
}

// DecodeOwnedUnchecked is DecodeOwned without the check against the
// codec's program ([vm.Machine.Resume]): the state is read as written,
// whatever version of the program it was saved with (st.Fingerprint), for
// the caller to decide which program resumes it (package versions).
func (c *Codec) DecodeOwnedUnchecked(b []byte) (*vm.State, error) {
	if len(b) == 0 {
		return c.Decode(b)
	}
	st, err := c.decodeFrom(b, unsafe.String(&b[0], len(b)), false)
	if err != nil {
		return nil, fmt.Errorf("read checkpoint: %w", err)
	}
	return st, nil
}

// decodeFrom decodes b, src being b as a string (a copy, or b itself).
func (c *Codec) decodeFrom(b []byte, src string, resume bool) (*vm.State, error) {
	d := decoder{b: b, src: src}
	d.ws()
	if d.i == len(b) {
		return nil, errors.New("checkpoint is empty")
	}
	if b[d.i] != '{' {
		return nil, errors.New("checkpoint is not a JSON object")
	}
	st := &vm.State{}
	var fingerprint string
	seen := 0
	err := d.object(func(key []byte) error {
		bit := 0
		for i, name := range fieldNames {
			if string(key) == name {
				bit = 1 << i
				break
			}
		}
		if bit == 0 {
			return fmt.Errorf("unknown field %q", string(key))
		}
		if seen&bit != 0 {
			return fmt.Errorf("field %q appears twice", string(key))
		}
		seen |= bit
		var err error
		switch bit {
		case fFormat:
			s, err := d.rawString()
			if err != nil {
				return err
			}
			if string(s) != Format {
				return fmt.Errorf("checkpoint format is %q, but this soni reads %q", string(s), Format)
			}
		case fSession:
			st.Session, err = d.str()
		case fRevision:
			st.Revision, err = d.uint()
			if err == nil && st.Revision == math.MaxUint64 {
				err = fmt.Errorf("revision %d would overflow on the next save", st.Revision)
			}
		case fFingerprint:
			fingerprint, err = d.str()
		case fCreated, fUpdated:
			s, err := d.rawString()
			if err != nil {
				return err
			}
			tm, err := time.Parse(time.RFC3339Nano, string(s))
			if err != nil {
				// Name the field by its bit: key may share the scratch
				// buffer with s when both had escapes.
				name := "created"
				if bit == fUpdated {
					name = "updated"
				}
				return fmt.Errorf("field %q is not an RFC 3339 time: %q", name, string(s))
			}
			if bit == fCreated {
				st.Created = tm.UTC()
			} else {
				st.Updated = tm.UTC()
			}
		case fStack:
			st.Stack, err = c.decodeStack(&d)
		case fSlots:
			st.Slots, err = d.slotMap(c.intern)
		case fPending:
			st.Pending, err = c.decodePending(&d)
		case fHistory:
			st.History, err = d.history(c.historySize)
		case fMetadata:
			var v any
			if v, err = d.value(0); err == nil {
				md, ok := v.(map[string]any)
				if !ok {
					return errors.New("field \"metadata\" is not an object")
				}
				st.Metadata = md
			}
		case fClarify:
			var v any
			if v, err = d.value(0); err == nil {
				list, ok := v.([]any)
				if !ok {
					return errors.New("field \"clarify\" is not a list of flow names")
				}
				for _, x := range list {
					name, ok := x.(string)
					if !ok {
						return errors.New("field \"clarify\" is not a list of flow names")
					}
					st.Clarify = append(st.Clarify, c.internString(name))
				}
			}
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	d.ws()
	if d.i != len(b) {
		return nil, d.errf("unexpected data after the checkpoint object")
	}
	if seen&fRequired != fRequired {
		for i, name := range fieldNames {
			if seen&(1<<i) == 0 && (1<<i)&fRequired != 0 {
				return nil, fmt.Errorf("checkpoint has no %q field", name)
			}
		}
	}
	st.Fingerprint = fingerprint
	if !resume {
		return st, nil
	}
	if err := c.m.Resume(st); err != nil {
		return nil, err
	}
	return st, nil
}

func (c *Codec) decodeStack(d *decoder) ([]vm.Frame, error) {
	var stack []vm.Frame
	err := d.array(func() error {
		if len(stack) >= 4096 {
			return d.errf("stack has too many frames")
		}
		var f vm.Frame
		var seen [3]bool
		err := d.object(func(key []byte) error {
			var s []byte
			var err error
			switch string(key) {
			case "flow":
				if s, err = d.rawString(); err == nil {
					f.Flow = c.intern(s)
				}
				seen[0] = true
			case "step":
				f.Step, err = d.str()
				seen[1] = true
			case "resume":
				if s, err = d.rawString(); err == nil {
					if string(s) != resumeAfterCall {
						return fmt.Errorf("stack frame has resume %q, want %q", string(s), resumeAfterCall)
					}
					f.AfterCall = true
				}
			case "slots":
				f.Slots, err = d.slotMap(c.intern)
				seen[2] = true
			case "held":
				f.Held, err = d.slotMap(c.intern)
			case "uses":
				f.Uses, err = c.decodeUses(d)
			default:
				return fmt.Errorf("stack frame has unknown field %q", string(key))
			}
			return err
		})
		if err != nil {
			return err
		}
		for i, name := range [...]string{"flow", "step", "slots"} {
			if !seen[i] {
				return fmt.Errorf("stack frame %d has no %q field", len(stack), name)
			}
		}
		stack = append(stack, f)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return stack, nil
}

// decodeUses reads a frame's "uses" field (see appendUses).
func (c *Codec) decodeUses(d *decoder) ([]vm.Use, error) {
	var uses []vm.Use
	err := d.array(func() error {
		if len(uses) >= 4096 {
			return d.errf("frame has too many uses")
		}
		var u vm.Use
		var seen [3]bool
		err := d.object(func(key []byte) error {
			var s string
			var err error
			switch string(key) {
			case "slot":
				if s, err = d.str(); err == nil {
					u.Slot = c.internString(s)
				}
				seen[0] = true
			case "step":
				if s, err = d.str(); err == nil {
					u.Step = c.internString(s)
				}
				seen[1] = true
			case "value":
				u.Value, err = d.value(0)
				seen[2] = true
			default:
				return fmt.Errorf("use has unknown field %q", string(key))
			}
			return err
		})
		if err != nil {
			return err
		}
		for i, name := range [...]string{"slot", "step", "value"} {
			if !seen[i] {
				return fmt.Errorf("use %d has no %q field", len(uses), name)
			}
		}
		uses = append(uses, u)
		return nil
	})
	return uses, err
}

func (c *Codec) decodePending(d *decoder) (*vm.Pending, error) {
	d.ws()
	if d.peek() == 'n' {
		return nil, d.literal("null")
	}
	p := &vm.Pending{}
	seen := 0
	err := d.object(func(key []byte) error {
		var s []byte
		var err error
		switch string(key) {
		case "kind":
			if s, err = d.rawString(); err == nil {
				switch vm.PendingKind(s) {
				case vm.PendingCollect:
					p.Kind = vm.PendingCollect
				case vm.PendingConfirm:
					p.Kind = vm.PendingConfirm
				default:
					return fmt.Errorf("pending question has unknown kind %q", string(s))
				}
			}
			seen |= 1
		case "flow":
			if s, err = d.rawString(); err == nil {
				p.Flow = c.intern(s)
			}
			seen |= 2
		case "step":
			p.Step, err = d.str()
			seen |= 4
		case "slot":
			p.Slot, err = d.str()
			seen |= 8
		case "prompt":
			p.Prompt, err = d.str()
			seen |= 16
		case "attempts":
			var n uint64
			n, err = d.uint()
			if err == nil && n > math.MaxInt32 {
				err = fmt.Errorf("pending attempts %d is too large", n)
			}
			p.Attempts = int(n)
		default:
			return fmt.Errorf("pending question has unknown field %q", string(key))
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	for i, name := range [...]string{"kind", "flow", "step", "slot", "prompt"} {
		if seen&(1<<i) == 0 {
			return nil, fmt.Errorf("pending question has no %q field", name)
		}
	}
	return p, nil
}

// decoder is a small JSON reader for checkpoints. It never panics: every
// malformed input is an error naming the byte offset.
type decoder struct {
	b       []byte
	i       int
	scratch []byte
	// src is b as one string, made once: a string without escapes is
	// returned as a substring of it, so decoding a checkpoint allocates
	// one string instead of one per field and history message.
	src string
	// plain is true when the last rawString pointed into b (no escapes).
	plain bool
}

func (d *decoder) errf(format string, args ...any) error {
	return fmt.Errorf("offset %d: %s", d.i, fmt.Sprintf(format, args...))
}

func (d *decoder) ws() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *decoder) peek() byte {
	if d.i < len(d.b) {
		return d.b[d.i]
	}
	return 0
}

func (d *decoder) unexpected(want string) error {
	if d.i >= len(d.b) {
		return d.errf("checkpoint is truncated: want %s", want)
	}
	return d.errf("want %s, found %q", want, rune(d.b[d.i]))
}

func (d *decoder) open(c byte) error {
	d.ws()
	if d.peek() != c {
		return d.unexpected(strconv.QuoteRune(rune(c)))
	}
	d.i++
	return nil
}

// more reports whether another element follows in an object or array,
// consuming the separating comma or the closing bracket.
func (d *decoder) more(closing byte, first bool) (bool, error) {
	d.ws()
	if d.peek() == closing {
		d.i++
		return false, nil
	}
	if !first {
		if d.peek() != ',' {
			return false, d.unexpected("',' or " + strconv.QuoteRune(rune(closing)))
		}
		d.i++
	}
	return true, nil
}

// key reads an object key and the colon after it.
func (d *decoder) key() ([]byte, error) {
	k, err := d.rawString()
	if err != nil {
		return nil, err
	}
	d.ws()
	if d.peek() != ':' {
		return nil, d.unexpected("':'")
	}
	d.i++
	return k, nil
}

// object reads a JSON object, calling field after each key and its colon
// to read the key's value. key is only valid until the next read.
func (d *decoder) object(field func(key []byte) error) error {
	if err := d.open('{'); err != nil {
		return err
	}
	for first := true; ; first = false {
		more, err := d.more('}', first)
		if err != nil || !more {
			return err
		}
		key, err := d.key()
		if err != nil {
			return err
		}
		if err := field(key); err != nil {
			return err
		}
	}
}

// array reads a JSON array, calling elem to read each element.
func (d *decoder) array(elem func() error) error {
	if err := d.open('['); err != nil {
		return err
	}
	for first := true; ; first = false {
		more, err := d.more(']', first)
		if err != nil || !more {
			return err
		}
		if err := elem(); err != nil {
			return err
		}
	}
}

func (d *decoder) literal(word string) error {
	if len(d.b)-d.i < len(word) || string(d.b[d.i:d.i+len(word)]) != word {
		return d.unexpected(word)
	}
	d.i += len(word)
	return nil
}

func (d *decoder) str() (string, error) {
	s, err := d.rawString()
	if err != nil {
		return "", err
	}
	if d.plain && len(s) > 0 {
		end := d.i - 1 // the closing quote
		return d.src[end-len(s) : end], nil
	}
	return string(s), nil
}

// rawString reads a JSON string. The result points into the input, or
// into a scratch buffer that the next call reuses.
func (d *decoder) rawString() ([]byte, error) {
	d.ws()
	if d.peek() != '"' {
		return nil, d.unexpected("a string")
	}
	d.i++
	start := d.i
	d.i = jsonstr.Plain(d.b, d.i)
	if d.i == len(d.b) {
		return nil, d.errf("checkpoint is truncated inside a string")
	}
	switch d.b[d.i] {
	case '"':
		s := d.b[start:d.i]
		d.i++
		d.plain = true
		return s, nil
	case '\\':
		d.plain = false
		return d.escapedString(start)
	}
	return nil, d.errf("control character in string")
}

func (d *decoder) escapedString(start int) ([]byte, error) {
	out := append(d.scratch[:0], d.b[start:d.i]...)
	for d.i < len(d.b) {
		c := d.b[d.i]
		switch {
		case c == '"':
			d.i++
			d.scratch = out
			return out, nil
		case c < 0x20:
			return nil, d.errf("control character in string")
		case c != '\\':
			out = append(out, c)
			d.i++
			continue
		}
		if d.i+1 >= len(d.b) {
			break
		}
		e := d.b[d.i+1]
		d.i += 2
		switch e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := d.hex4()
			if !ok {
				return nil, d.errf("invalid \\u escape")
			}
			if utf16.IsSurrogate(r) {
				r2 := utf8.RuneError
				if d.i+1 < len(d.b) && d.b[d.i] == '\\' && d.b[d.i+1] == 'u' {
					save := d.i
					d.i += 2
					if x, ok := d.hex4(); ok {
						r2 = x
					} else {
						d.i = save
					}
				}
				r = utf16.DecodeRune(r, r2)
			}
			out = utf8.AppendRune(out, r)
		default:
			return nil, d.errf("invalid escape '\\%c'", e)
		}
	}
	return nil, d.errf("checkpoint is truncated inside a string")
}

func (d *decoder) hex4() (rune, bool) {
	if len(d.b)-d.i < 4 {
		return 0, false
	}
	var r rune
	for _, c := range d.b[d.i : d.i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	d.i += 4
	return r, true
}

// uint reads a non-negative integer.
func (d *decoder) uint() (uint64, error) {
	d.ws()
	start := d.i
	var n uint64
	for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
		c := uint64(d.b[d.i] - '0')
		if n > (math.MaxUint64-c)/10 {
			return 0, d.errf("number too large")
		}
		n = n*10 + c
		d.i++
	}
	if d.i == start {
		return 0, d.unexpected("a non-negative integer")
	}
	if d.i-start > 1 && d.b[start] == '0' {
		return 0, d.errf("number with a leading zero")
	}
	if c := d.peek(); c == '.' || c == 'e' || c == 'E' {
		return 0, d.unexpected("a non-negative integer")
	}
	return n, nil
}

// slotMap reads an object of slot values; name turns a key into the slot's
// name (interned when the slot is known).
func (d *decoder) slotMap(name func([]byte) string) (map[string]any, error) {
	var m map[string]any
	err := d.object(func(k []byte) error {
		key := name(k)
		v, err := d.value(0)
		if err != nil {
			return err
		}
		if m == nil {
			m = make(map[string]any, 4)
		}
		if _, dup := m[key]; dup {
			return fmt.Errorf("slot %q appears twice", key)
		}
		m[key] = v
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// value reads any JSON value: nil, bool, string, int64 (an integer
// literal that fits), float64, []any or map[string]any.
func (d *decoder) value(depth int) (any, error) {
	if depth > maxValueDepth {
		return nil, d.errf("value nests too deep")
	}
	d.ws()
	switch c := d.peek(); {
	case c == '"':
		return d.str()
	case c == 'n':
		return nil, d.literal("null")
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	case c == '[':
		out := []any{}
		err := d.array(func() error {
			v, err := d.value(depth + 1)
			if err != nil {
				return err
			}
			out = append(out, v)
			return nil
		})
		if err != nil {
			return nil, err
		}
		return out, nil
	case c == '{':
		out := map[string]any{}
		err := d.object(func(k []byte) error {
			key := string(k)
			v, err := d.value(depth + 1)
			if err != nil {
				return err
			}
			out[key] = v
			return nil
		})
		if err != nil {
			return nil, err
		}
		return out, nil
	}
	return nil, d.unexpected("a value")
}

// number reads a JSON number: int64 when it is an integer literal that
// fits, float64 otherwise.
func (d *decoder) number() (any, error) {
	start := d.i
	if d.peek() == '-' {
		d.i++
	}
	digits := func() int {
		n := 0
		for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
			d.i++
			n++
		}
		return n
	}
	intStart := d.i
	n := digits()
	if n == 0 {
		return nil, d.unexpected("a digit")
	}
	if n > 1 && d.b[intStart] == '0' {
		return nil, d.errf("number with a leading zero")
	}
	isFloat := false
	if d.peek() == '.' {
		d.i++
		isFloat = true
		if digits() == 0 {
			return nil, d.unexpected("a digit")
		}
	}
	if c := d.peek(); c == 'e' || c == 'E' {
		d.i++
		isFloat = true
		if c := d.peek(); c == '+' || c == '-' {
			d.i++
		}
		if digits() == 0 {
			return nil, d.unexpected("a digit")
		}
	}
	lit := d.b[start:d.i]
	if !isFloat {
		var v int64
		neg := lit[0] == '-'
		ok := true
		for _, c := range lit[intStart-start:] {
			x := int64(c - '0')
			if neg {
				if v < (math.MinInt64+x)/10 {
					ok = false
					break
				}
				v = v*10 - x
			} else {
				if v > (math.MaxInt64-x)/10 {
					ok = false
					break
				}
				v = v*10 + x
			}
		}
		if ok {
			return v, nil
		}
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if err != nil {
		return nil, d.errf("number %q out of range", string(lit))
	}
	return f, nil
}

// The history messages as the encoder writes them, up to the text.
var (
	userMessage = []byte(`{"role": "user", "text": `)
	botMessage  = []byte(`{"role": "bot", "text": `)
)

// encodedMessage reads a history message laid out exactly as the encoder
// writes it, without the general object reader (the history is most of a
// checkpoint). For any other layout, or an error, it reads nothing and
// reports false: the general reader then reads the message, or names the
// error.
func (d *decoder) encodedMessage() (vm.Message, bool) {
	d.ws()
	rest := d.b[d.i:]
	var msg vm.Message
	switch {
	case bytes.HasPrefix(rest, userMessage):
		msg.Role = vm.RoleUser
		rest = rest[len(userMessage):]
	case bytes.HasPrefix(rest, botMessage):
		msg.Role = vm.RoleBot
		rest = rest[len(botMessage):]
	default:
		return vm.Message{}, false
	}
	start := d.i
	d.i = len(d.b) - len(rest)
	text, err := d.str()
	if err != nil || d.peek() != '}' {
		d.i = start
		return vm.Message{}, false
	}
	d.i++
	msg.Text = text
	return msg, true
}

// historyScratch holds the slices history decodes into before it knows
// how many messages there are.
var historyScratch = sync.Pool{New: func() any { s := make([]vm.Message, 0, 32); return &s }}

// history reads the history. The slice it returns has room for the
// messages a turn adds (a user message and a few replies), so that the
// next turn does not grow it; size is the program's history_size (0: no
// history is kept).
func (d *decoder) history(size int) ([]vm.Message, error) {
	sp := historyScratch.Get().(*[]vm.Message)
	msgs := (*sp)[:0]
	defer func() {
		clear(msgs) // the strings share the checkpoint's bytes
		if cap(msgs) <= 1024 {
			*sp = msgs[:0]
			historyScratch.Put(sp)
		}
	}()
	err := d.array(func() error {
		if msg, ok := d.encodedMessage(); ok {
			msgs = append(msgs, msg)
			return nil
		}
		var msg vm.Message
		var seen [2]bool
		err := d.object(func(key []byte) error {
			switch string(key) {
			case "role":
				s, err := d.rawString()
				if err != nil {
					return err
				}
				switch string(s) {
				case vm.RoleUser:
					msg.Role = vm.RoleUser
				case vm.RoleBot:
					msg.Role = vm.RoleBot
				default:
					return fmt.Errorf("history message has unknown role %q", string(s))
				}
				seen[0] = true
			case "text":
				var err error
				if msg.Text, err = d.str(); err != nil {
					return err
				}
				seen[1] = true
			default:
				return fmt.Errorf("history message has unknown field %q", string(key))
			}
			return nil
		})
		if err != nil {
			return err
		}
		if !seen[0] || !seen[1] {
			return errors.New(`history message needs "role" and "text"`)
		}
		msgs = append(msgs, msg)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if size == 0 && len(msgs) == 0 {
		return nil, nil
	}
	out := make([]vm.Message, len(msgs), len(msgs)+4)
	copy(out, msgs)
	return out, nil
}
