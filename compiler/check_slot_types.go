package compiler

import (
	"strings"
	"unicode/utf8"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/internal/suggest"
	"github.com/soni-dev/soni/syntax"
)

// knownSlotTypes are the canonical type names of language.md §3, in the
// order messages list them.
var knownSlotTypes = []string{"text", "integer", "number", "boolean", "categorical", "date", "list", "any"}

// typeHints are type names from other languages and frameworks whose
// soni type is plain, but too far away for an edit distance ("dict" is
// closer to "int" than to "any").
var typeHints = map[string]string{
	"array": "list", "tuple": "list", "set": "list",
	"dict": "any", "object": "any", "map": "any", "json": "any",
	"double": "number", "decimal": "number", "numeric": "number", "real": "number",
	"long":     "integer",
	"datetime": "date",
	"enum":     "categorical", "choice": "categorical", "category": "categorical",
}

// check_slot_types reports a slot type the language does not know. Types
// are matched case-insensitively, with the aliases of language.md §3
// (string, float, bool, ...).
//
// A type one edit away from a known one ("numbr", "interger"; two for
// names of six letters or more, "nubmer") or with a known
// equivalent ("double", "enum") is a mistake, and so is an unknown type
// on a slot with min or max, which only numbers take: treated as text,
// the slot would silently lose its meaning and its bounds. Both are
// errors (E040), with the suggestion. Any other name is a free-form
// hint as the Python framework allowed ("city"): a warning (W010), and
// the decoder treats the slot as text.
func checkSlotTypes(c *checker) {
	var names []string
	for n := range syntax.TypeAliases {
		names = append(names, n)
	}
	check := func(s *syntax.Slot) {
		if !s.Type.Set {
			return
		}
		if _, ok := syntax.TypeAliases[strings.ToLower(s.Type.V)]; ok {
			return
		}
		var d *diag.Diagnostic
		closest := suggest.Closest(s.Type.V, names)
		alt, hinted := typeHints[strings.ToLower(s.Type.V)]
		switch {
		case hinted || misspelling(s.Type.V, closest):
			d = c.ds.Add(s.Type.Pos, diag.CodeMisspeltSlotType, s.Type.Path,
				"unknown type %q of slot %q: use one of %s", s.Type.V, s.Name.V, strings.Join(knownSlotTypes, ", "))
		case s.Min != nil || s.Max != nil:
			d = c.ds.Add(s.Type.Pos, diag.CodeMisspeltSlotType, s.Type.Path,
				"unknown type %q of slot %q, which has min or max: only integer and number slots take them; use one of %s",
				s.Type.V, s.Name.V, strings.Join(knownSlotTypes, ", "))
		default:
			d = c.ds.Add(s.Type.Pos, diag.CodeUnknownSlotType, s.Type.Path,
				"unknown type %q of slot %q: the slot is treated as text; use one of %s",
				s.Type.V, s.Name.V, strings.Join(knownSlotTypes, ", "))
		}
		if hinted {
			closest = alt
		}
		if closest != "" {
			d.Suggestion = "did you mean " + quote(closest) + "?"
		}
	}
	for _, s := range c.p.declaredSlots() {
		check(s)
	}
}

// misspelling reports whether typ is so close to the known type name
// closest that it must be a typo: one edit away, or two for names of six
// runes or more. Short free-form hints of the Python framework ("name",
// "time", "age") are two edits from "date" or "any" and stay hints.
func misspelling(typ, closest string) bool {
	if closest == "" {
		return false
	}
	d := suggest.Levenshtein(strings.ToLower(typ), closest)
	return d <= 1 || (d == 2 && utf8.RuneCountInString(typ) >= 6)
}
