package understand

import (
	"strings"
	"sync"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/values"
)

// programFacts holds what the rules read out of their program's own
// text for every message (a slot's name words, the flows that say a
// kind of small talk), worked out once instead of at every message. It
// depends on the program alone, never on a conversation. New makes one
// per Rules, and the copies Read makes share it; what is computed when
// a message first asks is guarded by a sync.Once.
type programFacts struct {
	// talks are the flows' talkSaid, by kind of small talk.
	talks map[string]*talkOnce
	// names are the words of the program's slot names (slotWords), and
	// selfNames their stems as selfNamedAnswer compares them.
	names     map[string]slotWords
	selfNames map[string][]string
	// described are the normalized words of the slots' descriptions.
	described map[*ir.Slot][]string
	// marks are the symbols the slots' values start with (markOf).
	marks map[*ir.Slot]string
	// texts are the readings of the short messages read lately (memo.go).
	texts textMemo
}

// talkOnce is the flows' talkSaid for one kind, computed once.
type talkOnce struct {
	once  sync.Once
	flows []talkSaid
}

// slotWords are the words of a slot's name, split at its underscores:
// parts counts them all, empty ones included; words are the non-empty
// ones normalized; norm are all of them normalized.
type slotWords struct {
	parts int
	words []string
	norm  []string
}

func newProgramFacts(p *ir.Program) *programFacts {
	f := &programFacts{talks: map[string]*talkOnce{}, names: map[string]slotWords{}, selfNames: map[string][]string{}, described: map[*ir.Slot][]string{}, marks: map[*ir.Slot]string{}}
	for kind := range talkFlowWords {
		f.talks[kind] = &talkOnce{}
	}
	if p == nil {
		return f
	}
	for _, s := range p.Slots {
		f.addSlot(s)
	}
	for _, fl := range p.Flows {
		if fl == nil {
			continue
		}
		for _, s := range fl.Slots {
			f.addSlot(s)
		}
	}
	return f
}

// addSlot learns a slot's words; New calls it for the slots it reads
// as another type too (readas.go). Only New calls it: the facts are
// read-only once the Rules are made.
func (f *programFacts) addSlot(s *ir.Slot) {
	if s == nil {
		return
	}
	if _, ok := f.names[s.Name]; !ok {
		f.names[s.Name] = nameWords(s.Name)
		f.selfNames[s.Name] = selfNameStems(s.Name)
	}
	if _, ok := f.described[s]; !ok {
		f.described[s] = descriptionWords(s)
		f.marks[s] = markOf(s)
	}
}

// mark returns markOf(s).
func (f *programFacts) mark(s *ir.Slot) string {
	if m, ok := f.marks[s]; ok {
		return m
	}
	return markOf(s)
}

// talk returns the talkOnce of a kind; a kind with none gets a fresh one
// each time.
func (f *programFacts) talk(kind string) *talkOnce {
	if t := f.talks[kind]; t != nil {
		return t
	}
	return &talkOnce{}
}

// nameWords returns the words of a slot's name.
func (f *programFacts) nameWords(name string) slotWords {
	if w, ok := f.names[name]; ok {
		return w
	}
	return nameWords(name)
}

// selfName returns selfNameStems(name).
func (f *programFacts) selfName(name string) []string {
	if st, ok := f.selfNames[name]; ok {
		return st
	}
	return selfNameStems(name)
}

// descriptionWords returns the normalized words of a slot's
// description.
func (f *programFacts) descriptionWords(s *ir.Slot) []string {
	if w, ok := f.described[s]; ok {
		return w
	}
	return descriptionWords(s)
}

func nameWords(name string) slotWords {
	parts := strings.Split(name, "_")
	w := slotWords{parts: len(parts), words: lowerWords(parts), norm: make([]string, len(parts))}
	for i, part := range parts {
		w.norm[i] = values.Normalize(part)
	}
	return w
}

func descriptionWords(s *ir.Slot) []string {
	var out []string
	for _, w := range strings.Fields(s.Description) {
		out = append(out, values.Normalize(w))
	}
	return out
}

// lookupWords is m[strings.Join(words, " ")] without building the
// string: the words are joined in a buffer on the stack, which a map
// index reads in place.
func lookupWords[V any](m map[string]V, words []string) (V, bool) {
	var buf [128]byte
	b := buf[:0]
	for i, w := range words {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, w...)
	}
	v, ok := m[string(b)]
	return v, ok
}
