package compiler

import (
	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/syntax"
)

// check_duplicates reports definitions given twice (E020): a flow, a
// conversation slot or an action defined again, usually in another file
// (within one file YAML already reports the duplicate key), a response
// defined again, and a slot
// declared twice in one flow's slots list. It also reports a setting given
// in two files (E022). Each report sits at the later definition and cites
// the first.
func checkDuplicates(c *checker) {
	// once reports name when seen already holds it, else records it.
	once := func(seen map[string]diag.Pos, kind string, name syntax.Str, path string) {
		if first, dup := seen[name.V]; dup {
			c.ds.Add(name.Pos, diag.CodeDuplicateName, path,
				"%s %q is already defined at %s: rename or remove one of the two", kind, name.V, first)
			return
		}
		seen[name.V] = name.Pos
	}
	flows := make(map[string]diag.Pos, len(c.p.Flows))
	for _, f := range c.p.Flows {
		once(flows, "flow", f.Name, f.Path)
	}
	slots := make(map[string]diag.Pos, len(c.p.Slots))
	for _, s := range c.p.Slots {
		once(slots, "slot", s.Name, s.Path)
	}
	actions := make(map[string]diag.Pos, len(c.p.Actions))
	for _, a := range c.p.Actions {
		once(actions, "action", a.Name, a.Path)
	}
	validators := make(map[string]diag.Pos, len(c.p.Validators))
	for _, a := range c.p.Validators {
		once(validators, "validator", a.Name, a.Path)
	}
	responses := make(map[string]diag.Pos, len(c.p.Responses))
	for _, r := range c.p.Responses {
		once(responses, "response", r.Name, r.Path)
	}
	for _, f := range c.p.Flows {
		if len(f.Slots) < 2 {
			continue
		}
		declared := make(map[string]diag.Pos, len(f.Slots))
		for _, s := range f.Slots {
			if s.Implicit || !s.Name.Set {
				continue
			}
			if first, dup := declared[s.Name.V]; dup {
				c.ds.Add(s.Name.Pos, diag.CodeDuplicateName, s.Name.Path,
					"slot %q is already declared in flow %q at %s: remove one of the two", s.Name.V, f.Name.V, first)
				continue
			}
			declared[s.Name.V] = s.Name.Pos
		}
	}
	settings := make(map[string]diag.Pos, len(c.p.Settings))
	for _, s := range c.p.Settings {
		if first, dup := settings[s.Key.V]; dup {
			c.ds.Add(s.Key.Pos, diag.CodeDuplicateSetting, s.Key.Path,
				"setting %q is already given at %s: keep each setting in one file only", s.Key.V, first)
			continue
		}
		settings[s.Key.V] = s.Key.Pos
	}
}
