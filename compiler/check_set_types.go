package compiler

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
)

// check_set_types reports a set step that assigns a literal of the wrong
// type to a typed slot (E035): an integer slot given text or a fraction, a
// number slot given text that is no number, a boolean given anything but
// true or false, a categorical value that is neither a declared value nor
// a synonym, a date that is not an ISO date, a list or mapping for a
// scalar slot, or a mapping, a nested list or an undeclared value for a
// list slot. null (which clears the slot), templates and {expr: ...} are
// not literals; any slots and implicit slots take every value.
func checkSetTypes(c *checker) {
	for _, f := range c.p.Flows {
		for _, s := range f.Steps {
			if s.Kind != ir.KindSet {
				continue
			}
			for _, a := range s.Assign {
				if a.Kind != ir.AssignLiteral {
					continue
				}
				if m, ok := a.Value.(map[string]any); ok && len(m) == 1 {
					if k := onlyKey(m); syntax.IsExprTypo(k) {
						continue // a misspelt expr, reported as an unknown key
					}
				}
				slot := c.p.Visible(f, a.Slot.V)
				if slot == nil || slot.Implicit {
					continue
				}
				if want := literalMismatch(slot, a.Value); want != "" {
					c.ds.Add(a.Pos, diag.CodeSetType, a.Slot.Path,
						"cannot set %s slot %q to %s: %s, or use {expr: ...}", slot.Resolved, slot.Name.V, literalShow(a.Value), want)
				}
			}
		}
	}
}

// literalMismatch returns what the slot wants ("write an integer") when v
// does not fit its type, or "".
func literalMismatch(s *syntax.Slot, v any) string {
	switch v.(type) {
	case []any, map[string]any:
		if s.Resolved == ir.TypeAny {
			return ""
		}
		if _, isList := v.([]any); isList && s.Resolved == ir.TypeList {
			return listMismatch(s, v.([]any))
		}
		if s.Resolved == ir.TypeList {
			return "write a list such as [a, b]"
		}
		return "write a single " + string(s.Resolved) + " value"
	}
	switch s.Resolved {
	case ir.TypeInteger:
		switch x := v.(type) {
		case int64:
			return ""
		case uint64:
			if x <= math.MaxInt64 {
				return ""
			}
		case float64:
			if x == math.Trunc(x) && math.Abs(x) < 1<<63 {
				return ""
			}
		case string:
			if _, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64); err == nil {
				return ""
			}
		}
		return "write a whole number such as 3"
	case ir.TypeNumber:
		switch x := v.(type) {
		case int64, uint64:
			return ""
		case float64:
			if !math.IsNaN(x) && !math.IsInf(x, 0) {
				return ""
			}
		case string:
			if f, err := strconv.ParseFloat(strings.TrimSpace(x), 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
				return ""
			}
		}
		return "write a number such as 12.5"
	case ir.TypeBoolean:
		switch x := v.(type) {
		case bool:
			return ""
		case string:
			if t := strings.ToLower(strings.TrimSpace(x)); t == "true" || t == "false" {
				return ""
			}
		}
		return "write true or false"
	case ir.TypeDate:
		if x, ok := v.(string); ok {
			if _, err := time.Parse(time.DateOnly, strings.TrimSpace(x)); err == nil {
				return ""
			}
		}
		return "write an ISO date such as \"2024-12-31\""
	case ir.TypeCategorical:
		if len(s.Values) == 0 {
			return ""
		}
		text := strings.TrimSpace(literalScalar(v))
		var canon []string
		for _, val := range s.Values {
			if strings.EqualFold(text, val.Value) {
				return ""
			}
			for _, syn := range val.Synonyms {
				if strings.EqualFold(text, syn) {
					return ""
				}
			}
			canon = append(canon, quote(val.Value))
		}
		return "write one of its values " + strings.Join(canon, ", ")
	}
	return ""
}

// listMismatch returns what a list slot wants when an item of the list
// literal is not one of its values, or "".
func listMismatch(s *syntax.Slot, items []any) string {
	for _, it := range items {
		switch it.(type) {
		case []any, map[string]any:
			return "write a flat list such as [a, b]"
		}
		if len(s.Values) == 0 {
			continue
		}
		if literalMismatch(&syntax.Slot{Resolved: ir.TypeCategorical, Values: s.Values}, it) != "" {
			canon := make([]string, len(s.Values))
			for i, val := range s.Values {
				canon[i] = quote(val.Value)
			}
			return "write a list of its values " + strings.Join(canon, ", ") + " (" + quote(literalScalar(it)) + " is not one)"
		}
	}
	return ""
}

// literalScalar writes a YAML scalar as text, the way a categorical value is
// written in the source.
func literalScalar(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return ""
}

// literalShow shows a literal in a message: strings quoted, other scalars as
// written, collections by their kind.
func literalShow(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case []any:
		return "a list"
	case map[string]any:
		return "a mapping"
	case nil:
		return "null"
	}
	return literalScalar(v)
}

// onlyKey returns the key of a one-entry mapping.
func onlyKey(m map[string]any) string {
	for k := range m {
		return k
	}
	return ""
}
