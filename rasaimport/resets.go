package rasaimport

import "slices"

// nullChecks finds, once, the slots the project's e2e tests check were
// set to null (slot_was_set: [{name: X, value: null}]), with the first
// such check's place.
func (im *importer) nullChecks() map[string]loc {
	if im.nulls != nil {
		return im.nulls
	}
	im.nulls = map[string]loc{}
	var walk func(n *node)
	walk = func(n *node) {
		if n == nil {
			return
		}
		for i, k := range n.keys {
			if k == "slot_was_set" {
				for _, it := range n.vals[i].list() {
					if v := it.get("value"); it.kind == kMap && it.has("value") && (v == nil || v.kind == kNull) {
						if name := it.get("name").str(); name != "" {
							if _, seen := im.nulls[name]; !seen {
								im.nulls[name] = it.at
							}
						}
					}
				}
			}
			walk(n.vals[i])
		}
		for _, it := range n.items {
			walk(it)
		}
	}
	for _, t := range im.p.tests {
		walk(t.n)
	}
	return im.nulls
}

// reportNullResets reports, for the slots a flow resets at its end that
// the tests check were set to null, that soni only logs a reset of a slot
// that held a value: Rasa sets every slot the flow collected, with a slot
// event even for one that held none, so such a check fails in soni when
// the conversation never filled the slot.
//
// A flow's own slots (soni's flow slots) are cleared when it ends too.
func (im *importer) reportNullResets(fl *rflow, resets []string, out string) {
	checks := im.nullChecks()
	cleared := slices.Clone(resets)
	for _, name := range im.slotOrder {
		if im.slots[name].flow == fl.name && !slices.Contains(cleared, name) {
			cleared = append(cleared, name)
		}
	}
	for _, s := range cleared {
		at, ok := checks[s]
		if !ok {
			continue
		}
		im.rep.addAbout(aboutReset, fl.at, "flow", StatusApproximated, out, "nothing, unless a test checks the reset of a slot the conversation never filled: then drop that check",
			"flow %q resets %q when it ends; Rasa then logs a slot event even when the slot held no value, soni only when it held one, so a test's check that %q was set to null (as at %s) fails in soni when the conversation never filled it", fl.name, s, s, at)
	}
}
