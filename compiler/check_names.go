package compiler

import (
	"strings"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
)

// check_names reports names that break the naming rules of language.md §1
// (E023): flow names and step ids match [A-Za-z_][A-Za-z0-9_-]*, slot and
// action and validator names match [A-Za-z_][A-Za-z0-9_]* because expressions use them,
// and __end__ is reserved. Slot names are checked where they are declared,
// or, for an implicit flow slot, where it is first collected, set or mapped.
func checkNames(c *checker) {
	for _, a := range c.p.Actions {
		checkIdent(c, a.Name, "action")
	}
	for _, a := range c.p.Validators {
		checkIdent(c, a.Name, "validator")
	}
	for _, s := range c.p.Slots {
		checkIdent(c, s.Name, "slot")
	}
	for _, f := range c.p.Flows {
		checkDashName(c, f.Name, "flow name")
		for _, s := range f.Slots {
			if s.Name.Set {
				checkIdent(c, s.Name, "slot")
			}
		}
		for _, s := range f.Steps {
			if s.ID.Set {
				checkDashName(c, s.ID, "step id")
			}
		}
	}
}

// checkDashName checks a flow name or step id.
func checkDashName(c *checker, name syntax.Str, what string) {
	if name.V == ir.EndStep {
		c.ds.Add(name.Pos, diag.CodeInvalidName, name.Path,
			"%s %q is reserved: %q ends a flow, so choose another name", what, name.V, ir.EndStep)
		return
	}
	if isIdentName(name.V, true) {
		return
	}
	d := c.ds.Add(name.Pos, diag.CodeInvalidName, name.Path,
		"%s %q is invalid: it must start with a letter or '_' and hold only letters, digits, '_' and '-'", what, name.V)
	if fixed := fixName(name.V, true); fixed != "" && fixed != ir.EndStep {
		d.Suggestion = "did you mean " + quote(fixed) + "?"
	}
}

// checkIdent checks a slot or action name.
func checkIdent(c *checker, name syntax.Str, what string) {
	if isIdentName(name.V, false) {
		return
	}
	d := c.ds.Add(name.Pos, diag.CodeInvalidName, name.Path,
		"%s name %q is invalid: expressions use it, so it must start with a letter or '_' and hold only letters, digits and '_'", what, name.V)
	if fixed := fixName(name.V, false); fixed != "" {
		d.Suggestion = "did you mean " + quote(fixed) + "?"
	}
}

// fixName turns an invalid name into a valid one by replacing every
// character that is not allowed with '_' and prefixing a leading digit or
// dash with '_'. It returns "" when nothing sensible is left.
func fixName(s string, dash bool) string {
	var b strings.Builder
	for _, r := range strings.TrimSpace(s) {
		switch {
		case r == '_', r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == '-' && dash:
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	out := b.String()
	if strings.Trim(out, "_-") == "" {
		return ""
	}
	if c := out[0]; c >= '0' && c <= '9' || c == '-' {
		out = "_" + out
	}
	return out
}
