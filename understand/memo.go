package understand

// conceptsMemo keeps the last readings of a text's concepts while one
// message is read: whether the message is about a flow (byMeaning),
// plainly about another one (strongOther), a sure answer or a plain
// opening each read the same text's concepts. The concepts and typos
// given are shared: no caller may change them.
type conceptsMemo struct {
	entries [2]conceptsEntry
	next    int
}

type conceptsEntry struct {
	set      bool
	norm     string
	concepts []string
	typos    map[string]bool
}

// conceptsOf is r.mean.lex.conceptsTypos(norm, r.mean.typos), from the
// memo when the reading read the same text lately.
func (r *Rules) conceptsOf(norm string) ([]string, map[string]bool) {
	if r.sure == nil {
		return r.mean.lex.conceptsTypos(norm, r.mean.typos)
	}
	m := &r.sure.concepts
	for i := range m.entries {
		if e := &m.entries[i]; e.set && e.norm == norm {
			return e.concepts, e.typos
		}
	}
	concepts, typos := r.mean.lex.conceptsTypos(norm, r.mean.typos)
	m.entries[m.next] = conceptsEntry{set: true, norm: norm, concepts: concepts, typos: typos}
	m.next = (m.next + 1) % len(m.entries)
	return concepts, typos
}
