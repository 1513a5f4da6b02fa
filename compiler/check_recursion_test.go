package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

// Links count as edges of a cycle, but only cycles with at least one call
// are reported: a link replaces the linking flow, so links alone never
// grow the stack, while a call keeps its caller below.
func TestCallRecursion(t *testing.T) {
	t.Parallel()
	const fix = ": every round nests another call until max_stack_depth stops the conversation; break the cycle, for example with a link or by ending a flow instead of calling back"
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{
			name: "a flow that calls itself",
			src: `flows:
  f:
    trigger:
      intents: [go]
    steps:
      - step: a
        type: call
        target: f
`,
			want: []string{`8:17 flow "f" calls itself` + fix},
		},
		{
			name: "a cycle through a call and a link, reported once at the first call",
			src: `flows:
  a:
    trigger:
      intents: [go]
    steps:
      - step: x
        type: call
        target: b
  b:
    steps:
      - step: y
        type: link
        target: c
  c:
    steps:
      - step: z
        type: call
        target: a
`,
			want: []string{`8:17 flow "a" calls "b" which links to "c" which calls "a"` + fix},
		},
		{
			name: "the shortest way back is named",
			src: `flows:
  a:
    trigger:
      intents: [go]
    steps:
      - step: x
        type: call
        target: b
  b:
    steps:
      - step: long
        type: call
        target: c
      - step: short
        type: call
        target: a
  c:
    steps:
      - step: z
        type: call
        target: a
`,
			want: []string{`8:17 flow "a" calls "b" which calls "a"` + fix},
		},
		{
			name: "links alone never nest",
			src: `flows:
  a:
    trigger:
      intents: [go]
    steps:
      - step: x
        type: link
        target: b
  b:
    steps:
      - step: y
        type: link
        target: a
`,
		},
		{
			name: "calls without a cycle",
			src: `flows:
  a:
    trigger:
      intents: [go]
    steps:
      - step: x
        type: call
        target: b
      - step: y
        type: call
        target: b
  b:
    steps:
      - step: z
        type: say
        message: hi
`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, warnDiags(t, tc.src, diag.CodeCallRecursion))
		})
	}
}
