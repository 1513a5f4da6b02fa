package rasaimport

import (
	"fmt"

	"github.com/soni-dev/soni/syntax"
)

// Rasa runs a custom action named validate_SLOT after a collect step
// fills SLOT: the action checks the value and answers with events, a
// SlotSet of the slot to null to reject it (Rasa asks again, after the
// messages the action sent) or to a value to accept it (a normalised
// one, say), and SlotSets of other slots (a readable form of a date,
// SLOT_readable). soni has no such hook on a collect, so the import writes
// what Rasa does as steps:
//
//	- the collect, as translated
//	- an action step that calls validate_SLOT and maps every slot it sets
//	- a branch: SLOT is null (rejected) → a copy of the collect that asks
//	  again (force: true) and then runs the validation again; else on,
//	  to the collect's own branches when it has them (they test the
//	  validated value, as in Rasa).

// validationAction returns the action Rasa runs to validate slot after a
// collect fills it (validate_SLOT, when the domain lists it or a Python
// class of the action server names it), or "".
func (im *importer) validationAction(slot string) string {
	name := "validate_" + slot
	if im.p.py[name] != nil || im.domainAction(name) {
		return name
	}
	return ""
}

// validation writes the collect m, the steps that run its slot's
// validation action after it and where the flow goes on (nx, else fall),
// and reports true; with no validation action it writes nothing and
// reports false. A collect followed by branches (nx a list) gets them
// after the validation.
func (b *flowBuilder) validation(st *node, m *syntax.Step, comment []string, nx *node, fall string) bool {
	slot := st.get("collect").str()
	act := b.im.validationAction(slot)
	if act == "" {
		return false
	}
	id := m.ID.V
	b.emit(m, comment)

	validate := b.unique(id + "_validate")
	am := newStep(validate, "action")
	am.Action().Call = syntax.S(act)
	b.mapOutputs(am, act)
	if len(am.MapOutputs) == 0 {
		am.Action().MapOutputs = []*syntax.OutputMap{{Output: syntax.S(slot), Slot: syntax.S(slot)}}
	}
	b.emit(am, []string{fmt.Sprintf("Rasa runs %s after the collect fills %s; setting the slot to null rejects it.", act, slot)})

	again := b.unique(id + "_again")
	check := newStep(b.unique(id+"_validated"), "branch")
	check.Branch().Evaluate = syntax.S(slot + " == nil")
	addCase(check, "true", again)

	// The copy that asks again comes right after the check, which must
	// therefore always jump on: to the collect's next, or past it.
	to, branches := fall, ""
	switch {
	case nx != nil && nx.kind == kSeq:
		branches = b.unique(id + "_next")
		to = branches
	case nx != nil && nx.kind == kScalar:
		to = b.target(nx.str(), nx.at)
	case to == "":
		to = "__end__"
	}
	check.JumpTo = syntax.S(to)
	b.emit(check, nil)

	// The copy has the collect's fields and the comment on its slot
	// (soni:ignore), not the comment above it.
	ask := *m
	cf := *m.Collect()
	ask.CollectFields = &cf
	ask.ID, ask.Comments = syntax.S(again), nil
	if c := m.Comments.Get("slot"); c != nil {
		ask.Comments.SetLine("slot", c.Line)
	}
	cf.Force = true
	ask.JumpTo = syntax.S(validate)
	b.emit(&ask, []string{"Asked again when " + act + " rejects the answer."})
	if branches != "" {
		b.branches(st, branches, nil, nil, nx.list())
	}

	b.im.rep.add(st.at, "action", StatusApproximated, b.out, "nothing, unless the action relied on Rasa's other events",
		"the validation action %q runs after the collect of %q, as Rasa runs it, as steps of flow %q; a rejection (the slot set to null) asks again", act, slot, b.f.name)
	return true
}
