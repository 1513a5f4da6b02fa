// Package codec writes a conversation's state, a [vm.State], as checkpoint
// bytes and reads it back. The VM works on State values only; the soni
// Engine decodes a session's checkpoint with a [Codec], runs the turn on
// the State and encodes the new State, and the checkpoint stores keep the
// bytes, and the revision beside them, without looking inside.
//
// A checkpoint is indented JSON with its fields in a fixed order and map
// keys sorted, so the same state always gives the same bytes;
// docs/runtime.md documents the format. The encoder and the decoder are
// written by hand: a round trip is several times faster than through
// encoding/json (docs/performance.md), and the decoder never panics on
// malformed input (FuzzCheckpointDecode).
package codec

import (
	"github.com/soni-dev/soni/vm"
)

// Format is the value of a checkpoint's "format" field. It changes
// whenever the checkpoint layout changes; see docs/runtime.md.
const Format = "soni.checkpoint/v1"

// resumeAfterCall is the "resume" value of a frame waiting for a flow it
// called.
const resumeAfterCall = "after_call"

// maxValueDepth bounds the nesting of slot values in a checkpoint.
const maxValueDepth = 64

// Codec encodes and decodes the checkpoints of one machine's program. It
// is safe for concurrent use.
type Codec struct {
	m           *vm.Machine
	fingerprint string
	historySize int
	// names holds the program's flow, step and slot names, so that a
	// decoded state shares them instead of allocating its own copies.
	names map[string]string
}

// New returns the codec of a machine's program: Encode writes the
// program's fingerprint, and Decode checks what it reads against the
// program with [vm.Machine.Resume].
func New(m *vm.Machine) *Codec {
	c := &Codec{m: m, fingerprint: m.Fingerprint(), historySize: m.Settings().HistorySize, names: map[string]string{}}
	add := func(s string) {
		if s != "" {
			c.names[s] = s
		}
	}
	p := m.Program()
	for _, s := range p.Slots {
		if s != nil {
			add(s.Name)
		}
	}
	for _, f := range p.Flows {
		if f == nil {
			continue
		}
		add(f.Name)
		for _, s := range f.Slots {
			if s != nil {
				add(s.Name)
			}
		}
		for _, n := range f.Nodes {
			if n != nil {
				add(n.ID)
				add(n.Slot)
			}
		}
	}
	return c
}

// Machine returns the machine whose program the codec checks against.
func (c *Codec) Machine() *vm.Machine { return c.m }

// intern returns the program's copy of a name, or a new string when the
// program has no such name.
func (c *Codec) intern(b []byte) string {
	if s, ok := c.names[string(b)]; ok {
		return s
	}
	return string(b)
}

// internString is intern for a string.
func (c *Codec) internString(s string) string {
	if n, ok := c.names[s]; ok {
		return n
	}
	return s
}
