package compiler

import (
	"strconv"
	"strings"
	"time"

	"github.com/soni-dev/soni/internal/suggest"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
)

// check_branch_patterns warns about a branch case whose pattern can never
// match the value it is tested against (W008), following how the VM
// matches (vm.matchPattern): numeric comparisons need a number on both
// sides; equality compares numbers numerically and everything else by the
// value's text; categorical slots hold canonical values, never synonyms.
//
// With a slot: >N, >=N, <N, <=N on a text, categorical, boolean or date
// slot, or with an N that is no number; true/false on a slot that is not
// boolean; on a categorical slot with declared values, an equality (==v or
// plain v) with anything but a declared value (a synonym is named as such:
// the slot never holds it); a non-numeric equality on an integer or number
// slot; anything but true/false on a boolean slot; a date equality that is
// not YYYY-MM-DD. With evaluate, only true, false, default and != patterns
// can match. Slots of type any are never warned about, nor is default or
// any != pattern.
func checkBranchPatterns(c *checker) {
	for _, f := range c.p.Flows {
		for _, s := range f.Steps {
			if s.Kind != ir.KindBranch {
				continue
			}
			var slot *syntax.Slot
			switch {
			case s.Evaluate.Set:
			case s.Slot.Set:
				if slot = c.p.Visible(f, s.Slot.V); slot == nil {
					continue // unknown slot: reported by its own check
				}
			default:
				continue
			}
			for _, cs := range s.Cases {
				why, sugg := neverMatches(strings.TrimSpace(cs.Pattern.V), slot)
				if why == "" {
					continue
				}
				d := c.ds.Add(cs.Pattern.Pos, diag.CodeNeverMatches, cs.Pattern.Path,
					"case %q of %s can never match: %s", cs.Pattern.V, stepDesc(s), why)
				if sugg != "" {
					d.Suggestion = "did you mean " + quote(sugg) + "?"
				}
			}
		}
	}
}

// neverMatches says why a pattern cannot match a slot's values (slot nil:
// the boolean result of an evaluate expression), with a suggested
// pattern when there is an obvious one; why is "" when it may match.
func neverMatches(p string, slot *syntax.Slot) (why, sugg string) {
	if p == "default" || strings.HasPrefix(p, "!=") {
		return "", ""
	}
	op, operand := "", p
	for _, o := range []string{">=", "<=", "==", ">", "<"} {
		if strings.HasPrefix(p, o) {
			op, operand = o, strings.TrimSpace(p[len(o):])
			break
		}
	}
	numeric := op != "" && op != "=="
	if slot == nil {
		if numeric || (operand != "true" && operand != "false") {
			return "evaluate gives a boolean, so only \"true\", \"false\" and \"default\" can match", boolWordOf(operand)
		}
		return "", ""
	}
	t := slot.Resolved
	if t == ir.TypeAny {
		return "", ""
	}
	name := quote(slot.Name.V)
	if numeric {
		if _, err := strconv.ParseFloat(operand, 64); err != nil {
			return quote(operand) + " after " + quote(op) + " is not a number", ""
		}
		if t != ir.TypeInteger && t != ir.TypeNumber {
			return "slot " + name + " is " + string(t) + " and " + quote(op) + " compares numbers", ""
		}
		return "", ""
	}
	switch t {
	case ir.TypeBoolean:
		if operand != "true" && operand != "false" {
			return "slot " + name + " is boolean, so only \"true\" and \"false\" can match", boolWordOf(operand)
		}
	case ir.TypeInteger, ir.TypeNumber:
		if _, err := strconv.ParseFloat(operand, 64); err != nil {
			return "slot " + name + " is " + string(t) + " and " + quote(operand) + " is not a number", ""
		}
	case ir.TypeDate:
		if _, err := time.Parse("2006-01-02", operand); err != nil {
			return "slot " + name + " holds dates written YYYY-MM-DD", ""
		}
	case ir.TypeCategorical:
		if len(slot.Values) == 0 {
			return "", ""
		}
		var names []string
		for _, v := range slot.Values {
			if v.Value == operand {
				return "", ""
			}
			names = append(names, v.Value)
		}
		for _, v := range slot.Values {
			for _, syn := range v.Synonyms {
				if syn == operand {
					return quote(operand) + " is a synonym of " + quote(v.Value) + " and slot " + name + " holds the canonical value", v.Value
				}
			}
		}
		return quote(operand) + " is not a value of categorical slot " + name + " (values: " + quoteList(names) + ")", suggest.Closest(operand, names)
	default:
		if operand == "true" || operand == "false" {
			return "slot " + name + " is " + string(t) + ", not boolean", ""
		}
	}
	return "", ""
}

// boolWordOf returns "true" or "false" for a pattern that is a yes/no word
// (yes, on, no, off; YAML 1.1 read these as booleans), else "".
func boolWordOf(p string) string {
	switch strings.ToLower(p) {
	case "yes", "y", "on", "true":
		return "true"
	case "no", "n", "off", "false":
		return "false"
	}
	return ""
}
