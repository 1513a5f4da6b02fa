// Package payload reads the payloads of buttons, which come back as the
// user's message when a button is chosen: Rasa's /SetSlots(slot=value, …)
// and /intent_name{"slot": "value"}, and soni's own commands (/start FLOW,
// /set SLOT=VALUE, /cancel, /yes, /no). Any other text is no payload and
// is understood as a message.
//
// The package only reads the syntax; the engine turns a payload into VM
// commands (wherever a message arrives: REST, the API, chat, tests), and
// the compiler checks the slots, values and flows a response's buttons
// name.
package payload

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Kind says what a payload is.
type Kind int

// The kinds of payloads.
const (
	// None is plain text, no payload.
	None Kind = iota
	// SetSlots is Rasa's /SetSlots(slot=value, ...).
	SetSlots
	// Intent is Rasa's /intent_name or /intent_name{"slot": "value"}.
	Intent
	// Command is one of soni's commands: /start, /set, /cancel, /yes, /no.
	Command
)

// Payload is a parsed payload.
type Payload struct {
	Kind Kind
	// Name is the intent's name (Intent) or the command's, without its
	// slash (Command: start, set, cancel, yes, no).
	Name string
	// Slots are the slot values given, in order: SetSlots' pairs, an
	// intent's entities (sorted by name), /set's pair.
	Slots []Slot
	// Flow is /start's flow.
	Flow string
}

// Slot is a slot name and the value a payload gives it: a string, or for
// an intent's entities any JSON value. /SetSlots values are strings, with
// null (or None) meaning no value.
type Slot struct {
	Name  string
	Value any
}

// Commands are soni's own payload commands.
var Commands = []string{"cancel", "no", "set", "start", "yes"}

var (
	setSlotsRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^/SetSlots\((.*)\)$`) })
	intentRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^/([A-Za-z_][A-Za-z0-9_.-]*)(\{.*\})?$`) })
	// intentStartRE is an intent name followed by the brace that starts
	// its entities.
	intentStartRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^/[A-Za-z_][A-Za-z0-9_.-]*\{`) })
	nameRE        = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })
)

// Parse reads a message as a payload. Text that does not start with a
// slash followed by a name is no payload (Kind None, no error). Text that
// looks like a payload but is malformed is an error that says why.
func Parse(text string) (Payload, error) {
	s := strings.TrimSpace(text)
	if !strings.HasPrefix(s, "/") || len(s) < 2 || !isNameStart(s[1]) {
		return Payload{}, nil
	}
	if strings.HasPrefix(s, "/SetSlots") {
		m := setSlotsRE().FindStringSubmatch(s)
		if m == nil {
			return Payload{}, fmt.Errorf("payload %q: write /SetSlots(slot=value, ...)", s)
		}
		slots, err := pairs(m[1])
		if err != nil {
			return Payload{}, fmt.Errorf("payload %q: %v", s, err)
		}
		return Payload{Kind: SetSlots, Slots: slots}, nil
	}
	name, arg, _ := strings.Cut(s[1:], " ")
	arg = strings.TrimSpace(arg)
	switch name {
	case "start":
		if !nameRE().MatchString(arg) && !flowNameRE().MatchString(arg) {
			return Payload{}, fmt.Errorf("payload %q: write /start FLOW", s)
		}
		return Payload{Kind: Command, Name: name, Flow: arg}, nil
	case "set":
		slot, value, ok := strings.Cut(arg, "=")
		slot = strings.TrimSpace(slot)
		if !ok || !nameRE().MatchString(slot) {
			return Payload{}, fmt.Errorf("payload %q: write /set SLOT=VALUE", s)
		}
		return Payload{Kind: Command, Name: name, Slots: []Slot{{slot, strings.TrimSpace(value)}}}, nil
	case "cancel", "yes", "no":
		if arg != "" {
			return Payload{}, fmt.Errorf("payload %q: /%s takes nothing after it", s, name)
		}
		return Payload{Kind: Command, Name: name}, nil
	}
	m := intentRE().FindStringSubmatch(s)
	if m == nil {
		if intentStartRE().MatchString(s) {
			// An intent with entities that do not end the text, or
			// whose braces do not close.
			return Payload{}, fmt.Errorf("payload %q: the entities after the intent name must be a JSON object such as {\"slot\": \"value\"}, and end the payload", s)
		}
		// "/path/to/file", "/ok?": text that only starts with a slash.
		return Payload{}, nil
	}
	p := Payload{Kind: Intent, Name: m[1]}
	if m[2] != "" {
		var ents map[string]any
		dec := json.NewDecoder(strings.NewReader(m[2]))
		dec.UseNumber()
		if err := dec.Decode(&ents); err != nil {
			return Payload{}, fmt.Errorf("payload %q: the entities after the intent name must be a JSON object such as {\"slot\": \"value\"}: %v", s, err)
		}
		keys := make([]string, 0, len(ents))
		for k := range ents {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			p.Slots = append(p.Slots, Slot{k, jsonValue(ents[k])})
		}
	}
	return p, nil
}

var flowNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`) })

func isNameStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// pairs reads slot=value, slot="a, b", ... Values are trimmed and may be
// quoted with ' or " to hold commas; null and None mean no value.
func pairs(s string) ([]Slot, error) {
	var out []Slot
	s = strings.TrimSpace(s)
	for s != "" {
		name, rest, ok := strings.Cut(s, "=")
		name = strings.TrimSpace(name)
		if !ok || !nameRE().MatchString(name) {
			return nil, fmt.Errorf("expected slot=value, not %q", s)
		}
		rest = strings.TrimLeft(rest, " ")
		var value string
		if rest != "" && (rest[0] == '"' || rest[0] == '\'') {
			end := strings.IndexByte(rest[1:], rest[0])
			if end < 0 {
				return nil, fmt.Errorf("the value of %q has no closing quote", name)
			}
			value, rest = rest[1:end+1], strings.TrimSpace(rest[end+2:])
			if rest != "" && rest[0] != ',' {
				return nil, fmt.Errorf("expected a comma after the value of %q", name)
			}
		} else {
			v, r, found := strings.Cut(rest, ",")
			value, rest = strings.TrimSpace(v), ""
			if found {
				rest = "," + r
			}
		}
		var v any = value
		if value == "null" || value == "None" {
			v = nil
		}
		out = append(out, Slot{name, v})
		rest = strings.TrimPrefix(rest, ",")
		s = strings.TrimSpace(rest)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no slot=value pair")
	}
	return out, nil
}

// jsonValue turns json.Number into int64 or float64.
func jsonValue(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = jsonValue(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = jsonValue(x[k])
		}
	}
	return v
}
