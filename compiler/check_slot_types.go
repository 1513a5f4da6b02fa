package compiler

import (
	"strings"

	"github.com/soni-dev/soni/diag"
)

// knownSlotTypes are the canonical type names of language.md §3, in the
// order messages list them.
var knownSlotTypes = []string{"text", "integer", "number", "boolean", "categorical", "date", "any"}

// typeHints are type names from other languages and frameworks whose
// soni type is plain, but too far away for an edit distance ("list" is
// closer to "int" than to "any").
var typeHints = map[string]string{
	"list": "any", "array": "any", "dict": "any", "object": "any", "map": "any", "json": "any", "tuple": "any",
	"double": "number", "decimal": "number", "numeric": "number", "real": "number",
	"long":     "integer",
	"datetime": "date",
	"enum":     "categorical", "choice": "categorical", "category": "categorical",
}

// check_slot_types warns about a slot type the language does not know
// (W010). The Python framework used free-form type hints such as "city", so
// this is no error: the decoder treats the slot as text, and the warning
// says so. Types are matched case-insensitively, with the aliases of
// language.md §3 (string, float, bool, ...).
func checkSlotTypes(c *checker) {
	var names []string
	for n := range typeAliases {
		names = append(names, n)
	}
	check := func(s *slotDef) {
		if !s.Type.Set {
			return
		}
		if _, ok := typeAliases[strings.ToLower(s.Type.V)]; ok {
			return
		}
		d := c.ds.Add(s.Type.Pos, diag.CodeUnknownSlotType, s.Type.Path,
			"unknown type %q of slot %q: the slot is treated as text; use one of %s",
			s.Type.V, s.Name.V, strings.Join(knownSlotTypes, ", "))
		if alt, ok := typeHints[strings.ToLower(s.Type.V)]; ok {
			d.Suggestion = "did you mean " + quote(alt) + "?"
			return
		}
		d.Suggestion = didYouMean(s.Type.V, names)
	}
	for _, s := range c.p.declaredSlots() {
		check(s)
	}
}
