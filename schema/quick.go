package schema

import (
	"math/big"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// quickAccept reports whether v certainly satisfies s, without building any
// error values. It interprets the few keywords the flow-file schema uses and
// answers false whenever s uses anything else, so false means "invalid or
// not sure": the caller then runs the real validator to get the errors.
//
// jsonschema/v5 allocates for every value it visits even when the document
// is valid, which is too slow for a large project; this pass makes the
// common case (a valid document) cheap, while every reported error still
// comes from the library.
func quickAccept(s *jsonschema.Schema, v any) bool {
	if s == nil {
		return true
	}
	if s.Always != nil {
		return *s.Always
	}
	if !quickSupported(s) {
		return false
	}
	if len(s.Types) > 0 && !typeMatches(s.Types, v) {
		return false
	}
	if len(s.Enum) > 0 && !inEnum(s.Enum, v) {
		return false
	}
	if (s.Minimum != nil || s.Maximum != nil) && !intInRange(s.Minimum, s.Maximum, v) {
		r, isNum := ratOf(v)
		if isNum {
			if s.Minimum != nil && r.Cmp(s.Minimum) < 0 {
				return false
			}
			if s.Maximum != nil && r.Cmp(s.Maximum) > 0 {
				return false
			}
		}
	}
	switch x := v.(type) {
	case map[string]any:
		if s.MinProperties >= 0 && len(x) < s.MinProperties {
			return false
		}
		for name, sub := range s.DependentSchemas {
			if _, ok := x[name]; ok && !quickAccept(sub, x) {
				return false
			}
		}
		for _, name := range s.Required {
			if _, ok := x[name]; !ok {
				return false
			}
		}
		ap := s.AdditionalProperties
		for name, pv := range x {
			if sub, ok := s.Properties[name]; ok {
				if !quickAccept(sub, pv) {
					return false
				}
				continue
			}
			switch ap := ap.(type) {
			case bool:
				if !ap {
					return false
				}
			case *jsonschema.Schema:
				if !quickAccept(ap, pv) {
					return false
				}
			}
		}
	case []any:
		if s.MinItems >= 0 && len(x) < s.MinItems {
			return false
		}
		if s.MaxItems >= 0 && len(x) > s.MaxItems {
			return false
		}
		if s.Items2020 != nil {
			for _, item := range x {
				if !quickAccept(s.Items2020, item) {
					return false
				}
			}
		}
	}
	if s.Ref != nil && !quickAccept(s.Ref, v) {
		return false
	}
	for _, sub := range s.AllOf {
		if !quickAccept(sub, v) {
			return false
		}
	}
	return true
}

// quickSupported reports whether quickAccept understands every assertion
// of s. Annotations (title, description, examples, ...) do not matter.
func quickSupported(s *jsonschema.Schema) bool {
	return s.Format == "" &&
		s.RecursiveRef == nil && s.DynamicRef == nil &&
		len(s.Constant) == 0 && s.Not == nil &&
		len(s.AnyOf) == 0 && len(s.OneOf) == 0 && s.If == nil &&
		s.MaxProperties < 0 &&
		s.PropertyNames == nil && !s.RegexProperties && len(s.PatternProperties) == 0 &&
		len(s.Dependencies) == 0 && len(s.DependentRequired) == 0 &&
		s.UnevaluatedProperties == nil &&
		!s.UniqueItems && s.Items == nil && s.AdditionalItems == nil && len(s.PrefixItems) == 0 &&
		s.Contains == nil && s.UnevaluatedItems == nil &&
		s.MinLength < 0 && s.MaxLength < 0 && s.Pattern == nil &&
		s.ContentEncoding == "" && s.ContentMediaType == "" && s.ContentSchema == nil &&
		s.ExclusiveMinimum == nil && s.ExclusiveMaximum == nil && s.MultipleOf == nil &&
		len(s.Extensions) == 0
}

// typeMatches applies the "type" keyword as jsonschema/v5 does: "integer"
// accepts any number with an integral value.
func typeMatches(types []string, v any) bool {
	got := ""
	switch v.(type) {
	case nil:
		got = "null"
	case bool:
		got = "boolean"
	case string:
		got = "string"
	case map[string]any:
		got = "object"
	case []any:
		got = "array"
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64:
		got = "number"
	default:
		return false
	}
	for _, t := range types {
		if t == got {
			return true
		}
		if t == "integer" && got == "number" {
			if r, ok := ratOf(v); ok && r.IsInt() {
				return true
			}
		}
	}
	return false
}

// inEnum reports whether v is one of the enum's string, boolean or null
// values. Numeric or structured enum members make it answer false (unsure).
func inEnum(enum []any, v any) bool {
	for _, e := range enum {
		switch ev := e.(type) {
		case string:
			if s, ok := v.(string); ok && s == ev {
				return true
			}
		case bool:
			if b, ok := v.(bool); ok && b == ev {
				return true
			}
		case nil:
			if v == nil {
				return true
			}
		default:
			return false
		}
	}
	return false
}

// ratOf converts a number to an exact rational.
func ratOf(v any) (*big.Rat, bool) {
	r := new(big.Rat)
	switch x := v.(type) {
	case int:
		return r.SetInt64(int64(x)), true
	case int8:
		return r.SetInt64(int64(x)), true
	case int16:
		return r.SetInt64(int64(x)), true
	case int32:
		return r.SetInt64(int64(x)), true
	case int64:
		return r.SetInt64(x), true
	case uint:
		return r.SetUint64(uint64(x)), true
	case uint8:
		return r.SetUint64(uint64(x)), true
	case uint16:
		return r.SetUint64(uint64(x)), true
	case uint32:
		return r.SetUint64(uint64(x)), true
	case uint64:
		return r.SetUint64(x), true
	case float32:
		if rr := r.SetFloat64(float64(x)); rr != nil {
			return rr, true
		}
	case float64:
		if rr := r.SetFloat64(x); rr != nil {
			return rr, true
		}
	}
	return nil, false
}

// intInRange is the allocation-free common case of the minimum and maximum
// keywords: an integer value and integer bounds that fit in an int64. It
// answers false when it cannot tell.
func intInRange(lo, hi *big.Rat, v any) bool {
	var n int64
	switch x := v.(type) {
	case int64:
		n = x
	case uint64:
		if x > 1<<62 {
			return false
		}
		n = int64(x)
	default:
		return false
	}
	for i, b := range []*big.Rat{lo, hi} {
		if b == nil {
			continue
		}
		if !b.IsInt() || !b.Num().IsInt64() {
			return false
		}
		bound := b.Num().Int64()
		if (i == 0 && n < bound) || (i == 1 && n > bound) {
			return false
		}
	}
	return true
}
