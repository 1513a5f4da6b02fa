package understand

import (
	"strings"
	"sync"

	"github.com/soni-dev/soni/vm"
)

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
	if t := &r.sure.text; t.more != nil && norm == t.norm {
		return t.more.concepts(r, norm)
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

// textMemo keeps the textReading of the short messages the rules read,
// by their text: "yes", "no", a city, a greeting come again and again in
// the conversations a process serves. It holds at most maxTexts
// readings of messages of at most maxTextLen bytes, and starts over
// when it is full; concurrent turns share it.
type textMemo struct {
	mu    sync.RWMutex
	texts map[string]textReading
}

const (
	maxTexts   = 4096
	maxTextLen = 256
)

// textOf is readText(trimmed), from the memo when the rules read the
// same text before.
func (r *Rules) textOf(trimmed string) textReading {
	if len(trimmed) > maxTextLen || r.facts == nil {
		return r.readText(trimmed)
	}
	m := &r.facts.texts
	m.mu.RLock()
	t, ok := m.texts[trimmed]
	m.mu.RUnlock()
	if ok {
		return t
	}
	// A copy, so that the memo keeps no larger message it was cut from.
	key := strings.Clone(trimmed)
	t = r.readText(key)
	m.mu.Lock()
	if m.texts == nil || len(m.texts) >= maxTexts {
		m.texts = map[string]textReading{}
	}
	m.texts[key] = t
	m.mu.Unlock()
	return t
}

// textMore is what the rules work out of a message's normalized text
// (norm) and its head, when a rule first asks: whether it is small
// talk, its concepts, the correction it starts with. Like the rest of
// a textReading it depends on the text alone, and the turns that read
// the same text share it.
type textMore struct {
	talkOnce sync.Once
	talk     vm.Command
	talkOK   bool

	conceptsOnce sync.Once
	conceptsOf   []string
	typos        map[string]bool

	corrOnce            sync.Once
	corrRest            string
	corrWeak, corrFound bool
}

// smallTalk is smallTalkOf(norm), for the reading's norm.
func (m *textMore) smallTalk(norm string) (vm.Command, bool) {
	m.talkOnce.Do(func() { m.talk, m.talkOK = smallTalkOf(norm) })
	return m.talk, m.talkOK
}

// concepts is the concepts of the reading's norm (Rules.conceptsOf).
func (m *textMore) concepts(r *Rules, norm string) ([]string, map[string]bool) {
	m.conceptsOnce.Do(func() { m.conceptsOf, m.typos = r.mean.lex.conceptsTypos(norm, r.mean.typos) })
	return m.conceptsOf, m.typos
}

// correction is correction(head), for the reading's head.
func (m *textMore) correction(head string) (string, bool, bool) {
	m.corrOnce.Do(func() { m.corrRest, m.corrWeak, m.corrFound = correction(head) })
	return m.corrRest, m.corrWeak, m.corrFound
}
