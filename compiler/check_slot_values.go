package compiler

import (
	"regexp"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
	"github.com/soni-dev/soni/values"
)

// check_slot_values reports slot definitions that can never work, so that
// a project that validates also starts:
//
//   - an initial value of the wrong type for its slot, judged as a set
//     literal is (E035): "abc" for an integer slot, a date that is not
//     YYYY-MM-DD, a categorical value that is not declared;
//   - an initial value of the right type that breaks the slot's min, max
//     or pattern: it could never be stored;
//   - a min greater than the max: no value could ever be stored.
//
// All three are invalid values (E014); E035 stays the set step's code. A
// categorical slot without values can never hold a value either: E013
// when values is missing, E014 when it is empty.
//
// An initial null means no initial value. Slots of type any take every
// value.
func checkSlotValues(c *checker) {
	check := func(s *syntax.Slot) {
		if s.Resolved == ir.TypeCategorical && len(s.Values) == 0 {
			// The VM stores a categorical value only when it is one
			// of the declared values: such a slot can never be filled.
			if s.ValuesSet {
				c.ds.Add(s.Pos, diag.CodeInvalidValue, syntax.Join(s.Path, "values"),
					"categorical slot %q has no values, so no value can ever be stored: list its values", s.Name.V)
			} else {
				c.ds.Add(s.Pos, diag.CodeMissingField, s.Path,
					"categorical slot %q has no \"values\", so no value can ever be stored: list its values, or use type text", s.Name.V)
			}
		}
		if s.Min != nil && s.Max != nil && *s.Min > *s.Max {
			c.ds.Add(s.Pos, diag.CodeInvalidValue, s.Path,
				"slot %q has min %s greater than max %s, so no value can ever be stored: swap them or fix one",
				s.Name.V, literalScalar(*s.Min), literalScalar(*s.Max))
		}
		if !s.HasInitial || s.Initial == nil || s.Flow != nil || s.Resolved == ir.TypeAny {
			return
		}
		path := syntax.Join(s.Path, "initial")
		if want := literalMismatch(s, s.Initial); want != "" {
			c.ds.Add(s.InitialPos, diag.CodeInvalidValue, path,
				"initial value %s does not fit %s slot %q: %s", literalShow(s.Initial), s.Resolved, s.Name.V, want)
			return
		}
		if s.Pattern.Set {
			if _, err := regexp.Compile(s.Pattern.V); err != nil {
				return // E038 reports the pattern
			}
		}
		if _, err := values.Convert(lowerSlot(s), s.Initial); err != nil {
			c.ds.Add(s.InitialPos, diag.CodeInvalidValue, path,
				"initial value %s of slot %q can never be stored: %v; change the value or the slot's constraints", literalShow(s.Initial), s.Name.V, err)
		}
	}
	for _, s := range c.p.declaredSlots() {
		check(s)
	}
}

// initialValue is the value a conversation slot starts with, converted to
// the slot's type as the VM stores it (1234 for a text slot is "1234", a
// synonym is its canonical value), or as written when it does not convert
// (check_slot_values has reported it) or the slot is of type any.
func initialValue(s *syntax.Slot, out *ir.Slot) any {
	if s.Initial == nil || s.Resolved == ir.TypeAny {
		return s.Initial
	}
	if v, err := values.Convert(out, s.Initial); err == nil {
		return v
	}
	return s.Initial
}
