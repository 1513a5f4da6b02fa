package vm

import (
	"errors"
	"fmt"
	"sort"

	"github.com/soni-dev/soni/ir"
)

// Resume checks a state read from a checkpoint (see package codec) against
// the machine's program and makes it ready for the next turn, in place: it
// must point only at flows and steps the program has, its pending question
// must be the one the top flow waits on, and its slot values are brought
// to the slots' declared types. A state written for another version of the
// program (st.Fingerprint differs) resumes as long as every flow and step
// it points at still exists: slots the program no longer has, or whose
// values no longer fit, are dropped, and a clarify question naming a flow
// that is gone is forgotten; each is noted in st.Notes. Resume then sets
// st.Fingerprint to the program's.
func (m *Machine) Resume(st *State) error {
	if st == nil {
		return errors.New("no state to resume")
	}
	fingerprint := st.Fingerprint
	same := fingerprint == m.fingerprint
	for i := range st.Stack {
		f := &st.Stack[i]
		fr := m.flows[f.Flow]
		if fr == nil {
			return fmt.Errorf("checkpoint points at flow %q, which the program no longer has", f.Flow)
		}
		idx, ok := fr.find(f.Step)
		if !ok {
			return fmt.Errorf("checkpoint points at step %q of flow %q, which the program no longer has", f.Step, f.Flow)
		}
		nr := fr.nodes[idx]
		f.Step = nr.n.ID
		if f.AfterCall && nr.n.Kind != ir.KindCall {
			return fmt.Errorf("checkpoint waits for a call at step %q of flow %q, which is a %s step", f.Step, f.Flow, nr.n.Kind)
		}
		if err := m.checkSlots(st, f.Slots, fr.slots, f.Flow, same); err != nil {
			return err
		}
		if len(f.Uses) > 0 {
			m.checkUses(st, f, fr)
		}
	}
	if st.Slots == nil {
		st.Slots = map[string]any{}
	}
	if err := m.checkSlots(st, st.Slots, m.conv, "", same); err != nil {
		return err
	}
	if p := st.Pending; p != nil {
		if len(st.Stack) == 0 {
			return errors.New("checkpoint has a pending question but no active flow")
		}
		if fr := m.flows[p.Flow]; fr != nil {
			if idx, ok := fr.find(p.Step); ok {
				p.Step = fr.nodes[idx].n.ID // a renamed step (replaces:)
			}
		}
		top := st.Stack[len(st.Stack)-1]
		if p.Flow != top.Flow || p.Step != top.Step {
			return fmt.Errorf("checkpoint's pending question (flow %q step %q) is not where the top flow waits (flow %q step %q)", p.Flow, p.Step, top.Flow, top.Step)
		}
		fr := m.flows[p.Flow]
		nr := fr.nodes[fr.index[p.Step]]
		p.Step = nr.n.ID
		want := PendingCollect
		if nr.n.Kind == ir.KindConfirm {
			want = PendingConfirm
		}
		if !nr.n.Kind.WaitsForUser() || p.Kind != want || p.Slot != nr.n.Slot {
			return fmt.Errorf("checkpoint's pending %s of slot %q does not match step %q of flow %q, a %s of slot %q", p.Kind, p.Slot, p.Step, p.Flow, nr.n.Kind, nr.n.Slot)
		}
		p.Slot = nr.n.Slot
	}
	for _, name := range st.Clarify {
		if m.flows[name] == nil {
			// The flows changed since: the question is moot.
			st.Clarify = nil
			break
		}
	}
	if !same {
		st.Notes = append(st.Notes, fmt.Sprintf("checkpoint was written for program %s; resuming with %s because every step it points at still exists", fingerprint, m.fingerprint))
	}
	st.Fingerprint = m.fingerprint
	return nil
}

// checkSlots normalises the values of one scope; unknown slots are dropped
// with a note, and so are values of the wrong type when the checkpoint was
// written for another program (for the same program they are an error).
func (m *Machine) checkSlots(st *State, vals map[string]any, defs map[string]*slotRT, flow string, same bool) error {
	var dropped []string
	for k, v := range vals {
		sr := defs[k]
		if sr == nil || (flow != "" && sr.conv) {
			dropped = append(dropped, k)
			continue
		}
		nv, err := normalize(sr.def, v)
		if err != nil {
			if same {
				return fmt.Errorf("%sslot %q: %v", scopeOf(flow), k, err)
			}
			dropped = append(dropped, k)
			continue
		}
		vals[k] = nv
	}
	sort.Strings(dropped)
	for _, k := range dropped {
		delete(vals, k)
		st.Notes = append(st.Notes, fmt.Sprintf("dropped %sslot %q from the checkpoint: the program has no such slot of that type", scopeOf(flow), k))
	}
	return nil
}

func scopeOf(flow string) string {
	if flow == "" {
		return ""
	}
	return "flow " + flow + " "
}

// checkUses keeps the entries of a frame's Uses that name a conversation
// slot and a step of the flow, with a value of the slot's type; any other
// is dropped with a note (its decision is then no longer watched).
func (m *Machine) checkUses(st *State, f *Frame, fr *flowRT) {
	kept := f.Uses[:0]
	for _, u := range f.Uses {
		sr := m.conv[u.Slot]
		i, ok := fr.find(u.Step)
		var err error
		if sr != nil && ok {
			u.Step = fr.nodes[i].n.ID
			u.Value, err = normalize(sr.def, u.Value)
		}
		if sr == nil || !ok || err != nil || useIndex(&Frame{Uses: kept}, u.Slot) >= 0 {
			st.Notes = append(st.Notes, fmt.Sprintf("dropped flow %s's use of slot %q at step %q from the checkpoint: the program has no such slot of that type or no such step", f.Flow, u.Slot, u.Step))
			continue
		}
		kept = append(kept, u)
	}
	if len(kept) == 0 {
		kept = nil
	}
	f.Uses = kept
}

// find returns the index of the step with the given id, or of the step
// that replaces that id (a step renamed since a checkpoint was written).
func (fr *flowRT) find(id string) (int, bool) {
	if i, ok := fr.index[id]; ok {
		return i, true
	}
	i, ok := fr.replaced[id]
	return i, ok
}
