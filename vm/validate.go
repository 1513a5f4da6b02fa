package vm

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"github.com/soni-dev/soni/internal/jsonval"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/tmpl"
	"github.com/soni-dev/soni/values"
)

// ValidatorRunner runs the named validators of collect steps: those
// declared under validators, and those the program names without
// declaring them (provided at run time).
type ValidatorRunner interface {
	// RunValidator checks one value. An error, a panic or a context that
	// ends first is a failure of the validator, not a verdict: the VM
	// does not accept the value and reports the failure as a warning.
	RunValidator(ctx context.Context, req ValidatorRequest) (Verdict, error)
}

// ValidatorRequest is one call of a named validator.
type ValidatorRequest struct {
	// Validator is the validator's name.
	Validator string
	// Session is the conversation's session id.
	Session string
	// Slot is the slot the value is for.
	Slot string
	// Value is the value, already converted to the slot's type.
	Value any
	// Decl is the validator's declaration, or nil if it is undeclared.
	Decl *ir.Action
}

// Verdict is a validator's answer.
type Verdict struct {
	// Valid says whether the value is accepted.
	Valid bool `json:"valid"`
	// Value, when non-nil, replaces the value (a normalised form, such as
	// an IBAN without spaces). It is converted to the slot's type.
	Value any `json:"value,omitempty"`
	// Message, when not empty, is what the bot says about an invalid
	// value, unless the collect step gives a validation_error_message.
	Message string `json:"message,omitempty"`
}

// ValidatorFunc is a named validator implemented in Go. It is also a
// [ValidatorRunner] that runs itself for every validator name.
type ValidatorFunc func(ctx context.Context, req ValidatorRequest) (Verdict, error)

// RunValidator calls f.
func (f ValidatorFunc) RunValidator(ctx context.Context, req ValidatorRequest) (Verdict, error) {
	return f(ctx, req)
}

// ValidatorRegistry maps validator names to Go functions. The zero value
// is an empty registry ready to use; it is safe for concurrent use.
type ValidatorRegistry struct {
	mu    sync.RWMutex
	funcs map[string]ValidatorFunc
}

// Register binds a validator name to a function, replacing any earlier one.
func (r *ValidatorRegistry) Register(name string, fn ValidatorFunc) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.funcs == nil {
		r.funcs = map[string]ValidatorFunc{}
	}
	r.funcs[name] = fn
}

// Lookup returns the function registered under name, or nil.
func (r *ValidatorRegistry) Lookup(name string) ValidatorFunc {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.funcs[name]
}

// RunValidator runs the function registered under req.Validator; an
// unknown name is an error.
func (r *ValidatorRegistry) RunValidator(ctx context.Context, req ValidatorRequest) (Verdict, error) {
	fn := r.Lookup(req.Validator)
	if fn == nil {
		return Verdict{}, fmt.Errorf("no validator %q is registered", req.Validator)
	}
	return fn(ctx, req)
}

// invalidError is a value a validator refused, with the validator's own
// message for the user, if it gave one.
type invalidError struct {
	msg string
	err error
}

func (e *invalidError) Error() string { return e.err.Error() }

// runValidator calls a named validator on a converted value and returns
// the value to store (the validator's normalised form, converted to the
// slot's type, or v).
func (t *turn) runValidator(sr *slotRT, collect *nodeRT, v any) (any, error) {
	name := collect.named
	runner := t.validators
	if runner == nil {
		return nil, t.validatorFailed(name, fmt.Errorf("no runner for validator %q", name))
	}
	req := ValidatorRequest{Validator: name, Session: t.st.Session, Slot: sr.def.Name, Value: v, Decl: t.m.prog.Validator(name)}
	verdict, err := callRunner(t, "validator", name, func(ctx context.Context) (Verdict, error) {
		return runner.RunValidator(ctx, req)
	})
	if err != nil {
		return nil, t.validatorFailed(name, err)
	}
	if verdict.Value != nil {
		nv, err := t.conv.Convert(sr.def, verdict.Value)
		if err != nil || isBlank(nv) {
			return nil, t.validatorFailed(name, fmt.Errorf("validator %q returned value %q, which is not a valid %s", name, tmpl.Format(verdict.Value), sr.def.Type))
		}
		v = jsonval.Normalize(nv)
	}
	if !verdict.Valid {
		return nil, &invalidError{msg: verdict.Message, err: fmt.Errorf("value %q fails validator %q", tmpl.Format(v), name)}
	}
	return v, nil
}

// validatorFailed reports a validator that could not give a verdict: the
// value is not accepted, and the failure is a warning of the turn.
func (t *turn) validatorFailed(name string, err error) error {
	w := fmt.Sprintf("validator %q failed, so the answer was not accepted: %v", name, err)
	t.res.Warnings = append(t.res.Warnings, w)
	t.trace("warning: " + w)
	return fmt.Errorf("validator %q failed: %w", name, err)
}

// valid reports whether a slot's value, found set when the flow reaches a
// collect, still passes the collect's validators (but a named one, which
// ran when the value was given) and the slot's validation.
func (t *turn) valid(sr *slotRT, collect *nodeRT, v any) bool {
	_, err := t.validate(sr, collect, v, false)
	return err == nil
}

// builtinValidators are the built-in validators of collect steps
// (ir.BuiltinValidators). Each returns the value to store, which may be a
// normalised form or the one value of its kind found in a longer answer
// ("my email is ana@example.com"), and whether it is valid.
var builtinValidators = map[string]func(v any) (any, bool){
	"not_empty": func(v any) (any, bool) {
		switch x := v.(type) {
		case nil:
			return v, false
		case []any:
			return v, len(x) > 0
		case map[string]any:
			return v, len(x) > 0
		}
		return v, strings.TrimSpace(tmpl.Format(v)) != ""
	},
	"positive": func(v any) (any, bool) {
		f, ok := values.Float64(v)
		if s, isText := v.(string); isText && !ok {
			// An untyped slot holds the answer as text ("25", "30 years").
			if n, err := values.Convert(numberSlot, s); err == nil {
				f, ok = n.(float64)
			}
		}
		return v, ok && f > 0
	},
	"email": func(v any) (any, bool) {
		s, ok := v.(string)
		if !ok {
			return v, emailRE().MatchString(tmpl.Format(v))
		}
		if s = strings.TrimSpace(s); emailRE().MatchString(s) {
			return s, true
		}
		return pickOne(s, func(w string) (string, bool) {
			w = strings.Trim(w, ".,;:!?¿¡\"'()[]<>")
			return w, emailRE().MatchString(w)
		}, v)
	},
	"iban": func(v any) (any, bool) {
		s, ok := v.(string)
		if !ok {
			return v, false
		}
		if c, ok := ibanOf(s); ok {
			return c, true
		}
		// "my IBAN is ES91 2100 0418 4502 0005 1332": the IBAN is a run of
		// words that starts with a country code and check digits.
		words := strings.Fields(s)
		found, n := "", 0
		for i, w := range words {
			w = strings.Trim(w, ".,;:!?¿¡\"'()[]<>")
			if len(w) < 4 || !isLetter(w[0]) || !isLetter(w[1]) {
				continue
			}
			acc := ""
			for j := i; j < len(words) && len(acc) <= 34; j++ {
				acc += strings.Trim(words[j], ".,;:!?¿¡\"'()[]<>")
				if c, ok := ibanOf(acc); ok {
					if c != found {
						found, n = c, n+1
					}
					break
				}
			}
		}
		if n == 1 {
			return found, true
		}
		return v, false
	},
	"phone": func(v any) (any, bool) {
		s, ok := v.(string)
		if !ok {
			s = tmpl.Format(v)
		}
		if c, ok := phoneOf(s); ok {
			return c, true
		}
		var found string
		n := 0
		for _, m := range phoneRunRE().FindAllString(s, -1) {
			if c, ok := phoneOf(m); ok && c != found {
				found, n = c, n+1
			}
		}
		if n == 1 {
			return found, true
		}
		return v, false
	},
}

// numberSlot reads a number out of text for the positive validator.
var numberSlot = &ir.Slot{Name: "value", Type: ir.TypeNumber}

var (
	emailRE    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s.]+$`) })
	phoneRunRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\+?[0-9(][0-9 ().-]{5,}[0-9]`) })
	ibanRE     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$`) })
)

// pickOne returns the one distinct word of s that pick accepts (in the
// form pick gives), or fallback and false when there is none or more than
// one.
func pickOne(s string, pick func(string) (string, bool), fallback any) (any, bool) {
	found, n := "", 0
	for _, w := range strings.Fields(s) {
		if p, ok := pick(w); ok && p != found {
			found, n = p, n+1
		}
	}
	if n == 1 {
		return found, true
	}
	return fallback, false
}

func isLetter(b byte) bool { return b < unicode.MaxASCII && unicode.IsLetter(rune(b)) }

// ibanOf returns the compact, upper-case form of an IBAN written with or
// without spaces or dashes, and whether it passes the ISO 13616 check:
// moving the first four characters to the end and reading letters as
// 10..35 gives a number whose remainder modulo 97 is 1.
func ibanOf(s string) (string, bool) {
	c := strings.ToUpper(strings.NewReplacer(" ", "", "-", "", "\u00a0", "").Replace(strings.TrimSpace(s)))
	if !ibanRE().MatchString(c) {
		return "", false
	}
	rem := 0
	for _, r := range c[4:] + c[:4] {
		if r >= 'A' && r <= 'Z' {
			rem = (rem*100 + int(r-'A') + 10) % 97
		} else {
			rem = (rem*10 + int(r-'0')) % 97
		}
	}
	return c, rem == 1
}

// phoneOf returns the compact form of a phone number (an optional leading
// +, then digits only) written with spaces, dots, dashes or parentheses,
// and whether it has 7 to 15 digits (E.164 allows at most 15).
func phoneOf(s string) (string, bool) {
	s = strings.TrimSpace(s)
	var b strings.Builder
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == '+' && i == 0:
			b.WriteRune(r)
		case r == ' ' || r == '-' || r == '.' || r == '(' || r == ')':
		default:
			return "", false
		}
	}
	c := b.String()
	n := len(strings.TrimPrefix(c, "+"))
	return c, n >= 7 && n <= 15
}
