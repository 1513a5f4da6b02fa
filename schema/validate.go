package schema

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/soni-dev/soni/internal/suggest"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/soni-dev/soni/diag"
)

// ViolationKind classifies a [Violation].
type ViolationKind int

// The kinds of violation.
const (
	// UnknownKey is a mapping key the language does not define at that place.
	UnknownKey ViolationKind = iota + 1
	// WrongType is a value of the wrong YAML type (a list where a string
	// belongs, for example).
	WrongType
	// Missing is a required field that is absent.
	Missing
	// InvalidValue is a value of the right type that is not allowed: not one
	// of the listed values, out of range, or an empty list that needs items.
	InvalidValue
)

// String returns the kind's name: "unknown-key", "wrong-type",
// "missing-field" or "invalid-value".
func (k ViolationKind) String() string {
	switch k {
	case UnknownKey:
		return "unknown-key"
	case WrongType:
		return "wrong-type"
	case Missing:
		return "missing-field"
	case InvalidValue:
		return "invalid-value"
	}
	return "violation(" + strconv.Itoa(int(k)) + ")"
}

// Code returns the diagnostic code of the kind (see [diag.Rules]).
func (k ViolationKind) Code() string {
	switch k {
	case UnknownKey:
		return diag.CodeUnknownKey
	case WrongType:
		return diag.CodeWrongType
	case Missing:
		return diag.CodeMissingField
	}
	return diag.CodeInvalidValue
}

// Violation is one structural mistake in a flow file.
//
// Pointer and Tokens locate the instance:
//   - UnknownKey: the unknown key's value, so the last token is the key;
//   - Missing: the mapping that lacks the field (the field is in Key);
//   - WrongType and InvalidValue: the offending value.
type Violation struct {
	// Pointer is the RFC 6901 JSON pointer of the instance ("" for the root).
	Pointer string
	// Tokens are the decoded reference tokens of Pointer: mapping keys and
	// decimal list indexes.
	Tokens []string
	// Kind classifies the violation.
	Kind ViolationKind
	// Key is the unknown or missing key; empty for the other kinds.
	Key string
	// Message is the user-facing message: lower-case, no trailing period.
	Message string
	// Suggestion is a hint such as `did you mean "message"?`, or empty.
	Suggestion string
	// Allowed lists the keys allowed at the place of an unknown key, or the
	// values allowed for an invalid value, when the schema enumerates them.
	Allowed []string
	// Keyword is the absolute schema location of the failing keyword, for
	// detailed output; it is not meant for the one-line message.
	Keyword string
}

// Path returns the instance location in dotted form, such as
// "flows.book.steps.0.message", or "" for the root.
func (v Violation) Path() string { return strings.Join(v.Tokens, ".") }

// Validate checks doc, a document decoded by goccy/go-yaml's NodeToValue
// (map[string]any, []any, string, int64, uint64, float64, bool or nil at any
// depth), against the flow-file schema. It returns every violation, one per
// mistake, sorted by location; nil means the document is structurally valid.
// Validate never panics; values that JSON cannot represent (NaN, infinities,
// timestamps from explicit tags) are reported or converted first.
func Validate(doc any) []Violation {
	return validate(doc, false)
}

// validate checks doc with the fast variant of the schema plus the step
// dispatch, or, when full is set, with the published schema alone. Both give
// the same violations; tests compare them.
func validate(doc any, full bool) []Violation {
	if !full {
		// A valid document needs no compiled schema (see quickSchemas).
		if q, err := loadQuick(); err == nil {
			if clean, _, pre := sanitize(doc, make([]string, 0, 16), false); len(pre) == 0 && q.accepts(clean) {
				return nil
			}
		}
	}
	load := load
	if full {
		load = loadFull
	}
	c, err := load()
	if err != nil {
		return []Violation{internalViolation(err)}
	}
	clean, _, pre := sanitize(doc, make([]string, 0, 16), false)
	for i := range pre {
		pre[i].Pointer = pointer(pre[i].Tokens)
	}
	b := builder{c: c, doc: clean}
	if full {
		b.run(c.root, clean, nil)
	} else {
		b.run(c.fast, clean, nil)
		b.dispatch(clean)
	}
	// A non-finite number was replaced by 0 to keep the validator going;
	// what the validator says about that 0 would only confuse.
	replaced := make(map[string]bool, len(pre))
	for _, v := range pre {
		replaced[v.Pointer] = true
	}
	out := pre
	for _, v := range b.out {
		if !replaced[v.Pointer] {
			out = append(out, v)
		}
	}
	return finish(out)
}

// dispatch validates every step object of every flow against the
// definition of its type, as the published schema's allOf of if/then does.
func (b *builder) dispatch(doc any) {
	root, _ := doc.(map[string]any)
	flows, _ := root["flows"].(map[string]any)
	for name, f := range flows {
		flow, _ := f.(map[string]any)
		steps, _ := flow["steps"].([]any)
		b.steps(steps, []string{"flows", name, "steps"})
	}
}

// steps validates the step objects of a list at tokens. tokens is used as a
// stack; run copies it when it needs to keep it.
func (b *builder) steps(list []any, tokens []string) {
	for i, item := range list {
		st, ok := item.(map[string]any)
		if !ok {
			continue
		}
		typ, has := st["type"]
		if !has {
			b.runAt(b.c.any, st, tokens, i)
			continue
		}
		name, _ := typ.(string)
		if def := b.c.steps[name]; def != nil {
			b.runAt(def, st, tokens, i)
		}
		if name == "while" {
			if body, ok := st["do"].([]any); ok {
				b.steps(body, append(tokens, strconv.Itoa(i), "do"))
			}
		}
	}
}

// runAt validates the list item i of the list at tokens.
func (b *builder) runAt(s *jsonschema.Schema, v any, tokens []string, i int) {
	if quickAccept(s, v) {
		return
	}
	b.run(s, v, append(tokens[:len(tokens):len(tokens)], strconv.Itoa(i)))
}

// run validates v, found at prefix in the document, against s and records
// the violations. It never panics.
func (b *builder) run(s *jsonschema.Schema, v any, prefix []string) {
	if quickAccept(s, v) {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			b.add(internalViolation(fmt.Errorf("validator panic: %v", r)))
		}
	}()
	err := s.Validate(v)
	if err == nil {
		return
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		b.add(internalViolation(err))
		return
	}
	b.walk(ve, prefix)
}

// internalViolation reports a failure of the validator itself.
func internalViolation(err error) Violation {
	return Violation{Kind: InvalidValue, Message: "internal error while checking the schema: " + err.Error()}
}

// sanitize returns v with every value JSON cannot hold replaced, whether
// anything changed, and a violation for each non-finite number. It copies
// only the containers on the path to a replaced value, so a clean document is
// returned as is.
func sanitize(v any, tokens []string, item bool) (any, bool, []Violation) {
	switch x := v.(type) {
	case map[string]any:
		var out []Violation
		var cp map[string]any
		for k, e := range x {
			ne, changed, vs := sanitize(e, append(tokens, k), false)
			out = append(out, vs...)
			if changed {
				if cp == nil {
					cp = make(map[string]any, len(x))
					for k2, e2 := range x {
						cp[k2] = e2
					}
				}
				cp[k] = ne
			}
		}
		if cp != nil {
			return cp, true, out
		}
		return x, false, out
	case []any:
		var out []Violation
		var cp []any
		for i, e := range x {
			ne, changed, vs := sanitize(e, append(tokens, strconv.Itoa(i)), true)
			out = append(out, vs...)
			if changed {
				if cp == nil {
					cp = append([]any(nil), x...)
				}
				cp[i] = ne
			}
		}
		if cp != nil {
			return cp, true, out
		}
		return x, false, out
	case nil, string, bool, int64, uint64:
		return v, false, nil
	case int:
		return int64(x), true, nil
	case int8:
		return int64(x), true, nil
	case int16:
		return int64(x), true, nil
	case int32:
		return int64(x), true, nil
	case uint:
		return uint64(x), true, nil
	case uint8:
		return uint64(x), true, nil
	case uint16:
		return uint64(x), true, nil
	case uint32:
		return uint64(x), true, nil
	case float32:
		nv, _, vs := sanitize(float64(x), tokens, item)
		return nv, true, vs
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			// tokens is a shared stack: copy it before keeping it.
			t := append([]string{}, tokens...)
			return float64(0), true, []Violation{{
				Tokens:  t,
				Kind:    InvalidValue,
				Message: fmt.Sprintf("%s%s is not a finite number", fieldPrefix(t, item), yamlFloat(x)),
			}}
		}
		return x, false, nil
	case time.Time:
		return x.Format(time.RFC3339Nano), true, nil
	default:
		return fmt.Sprint(v), true, nil
	}
}

// yamlFloat spells a non-finite float as YAML does.
func yamlFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return ".nan"
	case math.IsInf(f, 1):
		return ".inf"
	case math.IsInf(f, -1):
		return "-.inf"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// builder turns a validation error tree into violations.
type builder struct {
	c   *compiled
	doc any
	out []Violation
}

// walk visits the leaves of the error tree. Wrapper errors ($ref, allOf,
// if-then and the root) carry no information of their own.
func (b *builder) walk(e *jsonschema.ValidationError, prefix []string) {
	if len(e.Causes) == 0 {
		b.leaf(e, prefix)
		return
	}
	for _, c := range e.Causes {
		b.walk(c, prefix)
	}
}

// leaf converts one leaf error.
func (b *builder) leaf(e *jsonschema.ValidationError, prefix []string) {
	tokens := append(prefix[:len(prefix):len(prefix)], decodePointer(e.InstanceLocation)...)
	kwLoc := e.AbsoluteKeywordLocation
	slash := strings.LastIndexByte(kwLoc, '/')
	if slash < 0 {
		b.add(Violation{Tokens: tokens, Kind: InvalidValue, Message: lowerFirst(e.Message), Keyword: kwLoc})
		return
	}
	keyword, schLoc := kwLoc[slash+1:], kwLoc[:slash]
	sch := b.c.byLoc[schLoc]
	inst, _ := lookupValue(b.doc, tokens)
	item := false
	if len(tokens) > 0 {
		parent, _ := lookupValue(b.doc, tokens[:len(tokens)-1])
		_, item = parent.([]any)
	}
	v := Violation{Tokens: tokens, Keyword: kwLoc}
	switch {
	case keyword == "type" && sch != nil:
		v.Kind = WrongType
		v.Message = fmt.Sprintf("expected %s%s, got %s", typeWords(sch.Types), fieldSuffix(tokens, item), valueWord(inst))
		if str, ok := inst.(string); ok && len(sch.Types) == 1 && sch.Types[0] == "boolean" && boolWords[strings.ToLower(str)] {
			v.Suggestion = "use true or false"
		} else {
			v.Suggestion = shapeHint(sch.Types, tokens, item, inst)
		}
	case keyword == "required" && sch != nil:
		obj, _ := inst.(map[string]any)
		where := b.context(schLoc, tokens)
		for _, name := range sch.Required {
			if _, ok := obj[name]; ok {
				continue
			}
			b.add(Violation{
				Tokens:  tokens,
				Kind:    Missing,
				Key:     name,
				Message: fmt.Sprintf("missing required field %q%s", name, where),
				Keyword: kwLoc,
			})
		}
		return
	case keyword == "additionalProperties" && sch != nil && sch.AdditionalProperties == false:
		obj, _ := inst.(map[string]any)
		where := b.context(schLoc, tokens)
		allowed := allowedKeys(sch)
		for name := range obj {
			if declares(sch, name) {
				continue
			}
			kt := append(tokens[:len(tokens):len(tokens)], name)
			u := Violation{
				Tokens:  kt,
				Kind:    UnknownKey,
				Key:     name,
				Message: fmt.Sprintf("unknown key %q%s", name, where),
				Allowed: allowed,
				Keyword: kwLoc,
			}
			if def, _ := defName(schLoc); def == "flowSlot" && name == "initial" {
				u.Suggestion = `"initial" is for conversation slots only: declare the slot under the top-level "slots" to give it an initial value`
			} else if h := frameworkKey(def, name); h != "" {
				u.Suggestion = h
			} else if s := suggest.Closest(name, allowed); s != "" {
				u.Suggestion = fmt.Sprintf("did you mean %q?", s)
			} else if s := keyAlias(name, allowed); s != "" {
				u.Suggestion = fmt.Sprintf("did you mean %q?", s)
			} else if def, _ := defName(schLoc); strings.HasSuffix(def, "Step") && def != "anyStep" {
				u.Suggestion = b.otherStepTypes(name)
			}
			b.add(u)
		}
		return
	case keyword == "enum" && sch != nil:
		v.Kind = InvalidValue
		allowed := make([]string, 0, len(sch.Enum))
		for _, a := range sch.Enum {
			allowed = append(allowed, fmt.Sprint(a))
		}
		v.Allowed = allowed
		v.Message = fmt.Sprintf("%s is not one of %s", valueText(inst), strings.Join(allowed, ", "))
		if s, ok := inst.(string); ok {
			if sug := suggest.Closest(s, allowed); sug != "" {
				v.Suggestion = fmt.Sprintf("did you mean %q?", sug)
			}
		}
	case keyword == "minItems" && sch != nil:
		v.Kind = InvalidValue
		if sch.MinItems == 1 {
			v.Message = fmt.Sprintf("%s must not be empty", fieldName(tokens, item))
		} else {
			v.Message = fmt.Sprintf("%s must have at least %d items", fieldName(tokens, item), sch.MinItems)
		}
	case keyword == "minProperties" && sch != nil:
		v.Kind = InvalidValue
		if sch.MinProperties == 1 {
			v.Message = fmt.Sprintf("%s must not be empty", fieldName(tokens, item))
		} else {
			v.Message = fmt.Sprintf("%s must have at least %d entries", fieldName(tokens, item), sch.MinProperties)
		}
	case keyword == "minimum" && sch != nil && sch.Minimum != nil:
		v.Kind = InvalidValue
		v.Message = fmt.Sprintf("%s must be at least %s, got %s", fieldName(tokens, item), ratText(sch.Minimum), valueText(inst))
	default:
		v.Kind = InvalidValue
		v.Message = fieldPrefix(tokens, item) + lowerFirst(e.Message)
	}
	b.add(v)
}

// add appends a violation, filling in its pointer.
func (b *builder) add(v Violation) {
	if v.Tokens == nil {
		v.Tokens = []string{}
	}
	v.Pointer = pointer(v.Tokens)
	b.out = append(b.out, v)
}

// keyAliases are keys that other dialogue frameworks (or plain English)
// use for a key soni spells differently, too far apart for an edit
// distance to find.
var keyAliases = map[string][]string{
	"exit":          {"exit_to"},
	"on_exit":       {"exit_to"},
	"on_yes":        {"on_confirm"},
	"on_true":       {"on_confirm"},
	"on_affirm":     {"on_confirm"},
	"on_no":         {"on_deny"},
	"on_false":      {"on_deny"},
	"on_reject":     {"on_deny"},
	"on_fail":       {"on_error"},
	"on_failure":    {"on_error"},
	"goto":          {"jump_to", "target"},
	"go_to":         {"jump_to", "target"},
	"next":          {"jump_to"},
	"then":          {"jump_to"},
	"flow":          {"target", "flows"},
	"action":        {"call", "actions"},
	"name":          {"call"},
	"examples":      {"intents"},
	"phrases":       {"intents"},
	"utterances":    {"intents"},
	"text":          {"message"},
	"prompt":        {"message"},
	"question":      {"message"},
	"regex":         {"pattern"},
	"options":       {"values"},
	"choices":       {"values"},
	"enum":          {"values"},
	"default":       {"initial"},
	"retries":       {"max_attempts"},
	"max_retries":   {"max_attempts"},
	"error_message": {"validation_error_message", "invalid_message"},
	"validate":      {"validator", "validation"},
	"body":          {"do"},
	"process":       {"steps"},
	"input":         {"slot"},
	"models":        {"llm"},
	"model":         {"llm"},
	"loop":          {"do"},
	"expression":    {"evaluate", "condition", "expr"},
	"when":          {"condition"},
	"condition":     {"evaluate"},
	"max_steps":     {"max_steps_per_turn"},
	"max_depth":     {"max_stack_depth"},
	"stack_depth":   {"max_stack_depth"},
	"history":       {"history_size"},
	"if":            {"condition", "evaluate"},
	"inputs":        {"map_outputs"},
	"outputs":       {"map_outputs"},
}

// keyAlias returns the allowed key that an alias stands for, or "".
func keyAlias(name string, allowed []string) string {
	for _, want := range keyAliases[strings.ToLower(name)] {
		for _, a := range allowed {
			if a == want {
				return a
			}
		}
	}
	return ""
}

// boolWords are strings that YAML 1.1 read as booleans but YAML 1.2 (and
// soni) reads as text.
var boolWords = map[string]bool{"yes": true, "no": true, "y": true, "n": true, "on": true, "off": true, "true": true, "false": true}

// otherStepTypes returns a hint naming the step types that do have the key
// name, such as `"slot" is a field of branch, collect and confirm steps`, or
// "" when no step type has it.
func (b *builder) otherStepTypes(name string) string {
	var types []string
	for typ, s := range b.c.steps {
		if _, ok := s.Properties[name]; ok {
			types = append(types, typ)
		}
	}
	if len(types) == 0 {
		return ""
	}
	sort.Strings(types)
	list := types[0]
	if n := len(types); n > 1 {
		list = strings.Join(types[:n-1], ", ") + " and " + types[n-1]
	}
	return fmt.Sprintf("%q is a field of %s steps", name, list)
}

// contextLabels name the objects each $defs entry describes, for messages.
// A label starting with "%" takes the name of the enclosing definition.
var contextLabels = map[string]string{
	"":              "at the top level",
	"settings":      "in settings",
	"slot":          "in slot %q",
	"flowSlot":      "in a slot of flow %q",
	"action":        "in action %q",
	"actionInput":   "in an input of action %q",
	"validator":     "in validator %q",
	"run":           "in the run section of action %q",
	"http":          "in the http section of action %q",
	"retry":         "in the retry section of action %q",
	"flow":          "in flow %q",
	"trigger":       "in the trigger of flow %q",
	"step":          "in step",
	"anyStep":       "in step",
	"sayStep":       "in say step",
	"collectStep":   "in collect step",
	"setStep":       "in set step",
	"exprValue":     "in an {expr: ...} value",
	"branchStep":    "in branch step",
	"whileStep":     "in while step",
	"actionStep":    "in action step",
	"linkStep":      "in link step",
	"callStep":      "in call step",
	"confirmStep":   "in confirm step",
	"responseRef":   "in a {response: NAME} message",
	"variation":     "in a variation of response %q",
	"slotCondition": "in a condition of response %q",
	"button":        "in a button of response %q",
}

// context returns " in ..." naming the object at tokens that the schema at
// schLoc describes, or "" when the location has no label.
func (b *builder) context(schLoc string, tokens []string) string {
	name, ok := defName(schLoc)
	if !ok {
		return ""
	}
	label, ok := contextLabels[name]
	if !ok {
		return ""
	}
	if !strings.Contains(label, "%q") {
		return " " + label
	}
	if len(tokens) > 0 && tokens[0] == "validators" {
		// A validator's run block has the shape of an action's.
		label = strings.Replace(label, "action", "validator", 1)
	}
	// The name of the enclosing flow, action or validator is the token
	// after the top-level section key.
	owner := ""
	if len(tokens) >= 2 {
		owner = tokens[1]
	}
	return " " + fmt.Sprintf(label, owner)
}

// finish removes duplicates and the "missing" twins of misspelt keys, and
// sorts the violations by location.
func finish(vs []Violation) []Violation {
	if len(vs) == 0 {
		return nil
	}
	// A misspelt required key yields both an unknown key (with a
	// suggestion) and a missing field; the unknown key explains both.
	suggested := map[string]bool{}
	for _, v := range vs {
		if v.Kind == UnknownKey && v.Suggestion != "" {
			parent := pointer(v.Tokens[:len(v.Tokens)-1])
			suggested[parent+"\x00"+v.Suggestion] = true
		}
	}
	out := vs[:0]
	seen := map[string]bool{}
	for _, v := range vs {
		if v.Kind == Missing && suggested[v.Pointer+"\x00"+fmt.Sprintf("did you mean %q?", v.Key)] {
			continue
		}
		k := fmt.Sprintf("%s\x00%d\x00%s\x00%s", v.Pointer, v.Kind, v.Key, v.Message)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, v)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if c := compareTokens(a.Tokens, b.Tokens); c != 0 {
			return c < 0
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.Key != b.Key {
			return a.Key < b.Key
		}
		return a.Message < b.Message
	})
	return out
}

// compareTokens orders locations token by token, comparing list indexes
// numerically; a prefix sorts first.
func compareTokens(a, b []string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] == b[i] {
			continue
		}
		ai, aerr := strconv.Atoi(a[i])
		bi, berr := strconv.Atoi(b[i])
		if aerr == nil && berr == nil {
			if ai < bi {
				return -1
			}
			return 1
		}
		if a[i] < b[i] {
			return -1
		}
		return 1
	}
	return len(a) - len(b)
}

// decodePointer splits a jsonschema/v5 instance location into tokens. v5
// escapes each token as JSON pointer (~0, ~1) and then URL path escaping.
func decodePointer(loc string) []string {
	loc = strings.TrimPrefix(loc, "#")
	if loc == "" {
		return []string{}
	}
	parts := strings.Split(strings.TrimPrefix(loc, "/"), "/")
	for i, p := range parts {
		if u, err := url.PathUnescape(p); err == nil {
			p = u
		}
		p = strings.ReplaceAll(p, "~1", "/")
		parts[i] = strings.ReplaceAll(p, "~0", "~")
	}
	return parts
}

// pointer renders tokens as an RFC 6901 JSON pointer.
func pointer(tokens []string) string {
	var sb strings.Builder
	for _, t := range tokens {
		sb.WriteByte('/')
		t = strings.ReplaceAll(t, "~", "~0")
		sb.WriteString(strings.ReplaceAll(t, "/", "~1"))
	}
	return sb.String()
}

// lookupValue follows tokens through a generic document.
func lookupValue(doc any, tokens []string) (any, bool) {
	cur := doc
	for _, t := range tokens {
		switch x := cur.(type) {
		case map[string]any:
			v, ok := x[t]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			cur = x[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// typeWords renders JSON Schema type names for people: "a string or a list".
func typeWords(types []string) string {
	words := make([]string, 0, len(types))
	for _, t := range types {
		switch t {
		case "string":
			words = append(words, "a string")
		case "number":
			words = append(words, "a number")
		case "integer":
			words = append(words, "an integer")
		case "boolean":
			words = append(words, "a boolean")
		case "null":
			words = append(words, "null")
		case "object":
			words = append(words, "a mapping")
		case "array":
			words = append(words, "a list")
		default:
			words = append(words, t)
		}
	}
	switch len(words) {
	case 0:
		return "another type"
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// valueWord names the YAML type of a value: "a string", "a list", ...
func valueWord(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case map[string]any:
		return "a mapping"
	case []any:
		return "a list"
	case float64:
		if x == math.Trunc(x) {
			return "a number"
		}
		return "a decimal number"
	case float32:
		return valueWord(float64(x))
	}
	return "an integer"
}

// valueText renders a scalar for a message: strings quoted, others as YAML
// would print them; containers by their type.
func valueText(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case nil:
		return "null"
	case map[string]any, []any:
		return valueWord(v)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

// ratText prints a schema bound in its shortest form.
func ratText(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// fieldName names the field at tokens for a message: `"message"`, or
// `an item of "intents"` when the value is a list item, or "the document"
// for the root.
func fieldName(tokens []string, item bool) string {
	switch {
	case len(tokens) == 0:
		return "the document"
	case item && len(tokens) >= 2:
		return fmt.Sprintf("an item of %q", tokens[len(tokens)-2])
	}
	return strconv.Quote(tokens[len(tokens)-1])
}

// fieldSuffix is " for <field>" for type messages, or " at the top level".
func fieldSuffix(tokens []string, item bool) string {
	if len(tokens) == 0 {
		return " at the top level"
	}
	return " for " + fieldName(tokens, item)
}

// fieldPrefix is "<field>: " for generic messages, or "" at the root.
func fieldPrefix(tokens []string, item bool) string {
	if len(tokens) == 0 {
		return ""
	}
	return fieldName(tokens, item) + ": "
}

// lowerFirst lower-cases the first letter of a library message.
func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
