package vm

import (
	"fmt"
	"sort"
	"strings"

	"github.com/soni-dev/soni/ir"
)

// Compatible reports whether a state saved with another version of the
// program can move to this machine's program at once, and why not: every
// flow on its stack must still exist, with the same slots of the same
// types, every step it points at must still exist (under its id or as a
// former id a step replaces) as a step of the same kind on the same slot,
// and every value it holds must fit. from is the machine of the version
// the state was saved with, nil when that version is unknown (gone from
// the store, or never stored): then only what the state holds is checked
// against this program. A conversation slot this program no longer has is
// no obstacle: Resume drops it. Compatible does not change st.
func (m *Machine) Compatible(st *State, from *Machine) error {
	for _, f := range st.Stack {
		fr := m.flows[f.Flow]
		if fr == nil {
			return fmt.Errorf("flow %q is gone", f.Flow)
		}
		idx, ok := fr.find(f.Step)
		if !ok {
			return fmt.Errorf("step %q of flow %q is gone", f.Step, f.Flow)
		}
		n := fr.nodes[idx].n
		if f.AfterCall && n.Kind != ir.KindCall {
			return fmt.Errorf("step %q of flow %q is no longer a call", f.Step, f.Flow)
		}
		if from != nil {
			if ofr := from.flows[f.Flow]; ofr != nil {
				if diff := slotsDiff(ofr, fr); diff != "" {
					return fmt.Errorf("flow %q %s", f.Flow, diff)
				}
				if oi, ok := ofr.find(f.Step); ok {
					on := ofr.nodes[oi].n
					if on.Kind != n.Kind || on.Slot != n.Slot {
						return fmt.Errorf("step %q of flow %q was a %s of slot %q and is now a %s of slot %q", f.Step, f.Flow, on.Kind, on.Slot, n.Kind, n.Slot)
					}
				}
			}
		}
		for k, v := range f.Slots {
			sr := fr.slots[k]
			if sr == nil || sr.conv {
				return fmt.Errorf("flow %q no longer has slot %q, which holds a value", f.Flow, k)
			}
			if _, err := normalize(sr.def, v); err != nil {
				return fmt.Errorf("the value of slot %q of flow %q no longer fits: %v", k, f.Flow, err)
			}
		}
	}
	if p := st.Pending; p != nil {
		if len(st.Stack) == 0 {
			return fmt.Errorf("a question is pending with no flow")
		}
		fr := m.flows[p.Flow]
		if fr == nil {
			return fmt.Errorf("flow %q is gone", p.Flow)
		}
		idx, ok := fr.find(p.Step)
		if !ok {
			return fmt.Errorf("step %q of flow %q is gone", p.Step, p.Flow)
		}
		if n := fr.nodes[idx].n; !n.Kind.WaitsForUser() || n.Slot != p.Slot {
			return fmt.Errorf("the pending question of slot %q at step %q of flow %q is now a %s of slot %q", p.Slot, p.Step, p.Flow, n.Kind, n.Slot)
		}
	}
	for k, v := range st.Slots {
		if sr := m.conv[k]; sr != nil {
			if _, err := normalize(sr.def, v); err != nil {
				return fmt.Errorf("the value of conversation slot %q no longer fits: %v", k, err)
			}
		}
	}
	return nil
}

// slotsDiff says how a flow's slots differ between two versions ("" when
// they have the same names and types).
func slotsDiff(old, cur *flowRT) string {
	var added, removed, retyped []string
	for name, s := range cur.slots {
		if s.conv {
			continue
		}
		o := old.slots[name]
		switch {
		case o == nil || o.conv:
			added = append(added, name)
		case o.def.Type != s.def.Type:
			retyped = append(retyped, name)
		}
	}
	for name, o := range old.slots {
		if s := cur.slots[name]; !o.conv && (s == nil || s.conv) {
			removed = append(removed, name)
		}
	}
	var parts []string
	for _, d := range []struct {
		what  string
		names []string
	}{{"gained slot", added}, {"lost slot", removed}, {"changed the type of slot", retyped}} {
		if len(d.names) == 0 {
			continue
		}
		sort.Strings(d.names)
		parts = append(parts, d.what+" "+strings.Join(quoteAll(d.names), ", "))
	}
	return strings.Join(parts, "; ")
}

func quoteAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = fmt.Sprintf("%q", n)
	}
	return out
}

// CodeChange returns the state a session saved with a version of the
// program this machine cannot resume takes on this program: its flows are
// ended, its pending question and clarify choice dropped, and its
// conversation slots kept where this program still has them with a type
// their values fit (the others are dropped, with a note). Its next turn
// first runs pattern_code_change, told the ended flows, and then applies
// its message. A state with no flow running simply moves. st is not
// changed.
func (m *Machine) CodeChange(st *State) *State {
	c := st.Clone()
	c.Notes = append(c.Notes, st.Notes...)
	var ended []string
	for _, f := range st.Stack {
		if ir.IsPattern(f.Flow) {
			continue
		}
		ended = append(ended, f.Flow)
	}
	c.Stack, c.Pending, c.Clarify = nil, nil, nil
	var dropped []string
	for k, v := range c.Slots {
		sr := m.conv[k]
		if sr == nil {
			dropped = append(dropped, k)
			continue
		}
		nv, err := normalize(sr.def, v)
		if err != nil {
			dropped = append(dropped, k)
			continue
		}
		c.Slots[k] = nv
	}
	sort.Strings(dropped)
	for _, k := range dropped {
		delete(c.Slots, k)
		c.Notes = append(c.Notes, fmt.Sprintf("dropped slot %q: the new version of the program has no such slot of that type", k))
	}
	if len(ended) > 0 {
		c.Notes = append(c.Notes, fmt.Sprintf("program %s cannot resume the flows of version %s (%s): they end, and pattern_code_change runs", m.fingerprint, versionOrUnknown(st.Fingerprint), strings.Join(ended, ", ")))
		c.codeChange = ended
	}
	c.Fingerprint = m.fingerprint
	return c
}

func versionOrUnknown(v string) string {
	if v == "" {
		return "unknown"
	}
	return v
}

// codeChangeContext is pattern_code_change's context: the flows ended,
// their titles listed in the session's language lang.
func (m *Machine) codeChangeContext(ended []string, lang string) map[string]any {
	names := make([]any, len(ended))
	titles := make([]string, len(ended))
	for i, name := range ended {
		names[i] = name
		titles[i] = strings.ReplaceAll(name, "_", " ")
		for _, f := range m.prog.Flows {
			if f.Name == name {
				titles[i] = f.Title()
			}
		}
	}
	return map[string]any{"previous_flows": names, "previous_flow_names": m.list(lang, titles, true)}
}
