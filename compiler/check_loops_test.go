package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

func TestLoops(t *testing.T) {
	t.Parallel()
	const head = "flows:\n  f:\n    trigger:\n      intents: [go]\n    steps:\n"
	const fix = "add a collect or confirm to the loop, or make a condition in it depend on a slot the loop changes"
	ask := `      - step: ask
        type: collect
        slot: n
        message: n?
`
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{
			name: "a step that jumps to itself",
			src: head + `      - step: a
        type: say
        message: hi
        jump_to: a
`,
			want: []string{`6:7 step "a" of flow "f" runs itself again without ever waiting for the user, so a turn may loop forever: ` + fix},
		},
		{
			name: "a jump back, reported at the first step in the file",
			src: head + `      - step: a
        type: say
        message: one
      - step: b
        type: say
        message: two
        jump_to: a
`,
			want: []string{`6:7 steps "a", "b" of flow "f" form a loop that never waits for the user, so a turn may loop forever: ` + fix},
		},
		{
			name: "a while whose condition nothing in the loop changes",
			src: head + ask + `      - step: loop
        type: while
        condition: "n == 'x'"
        do:
          - step: inner
            type: say
            message: again
`,
			want: []string{`10:7 steps "loop", "inner" of flow "f" form a loop that never waits for the user, so a turn may loop forever: ` + fix},
		},
		{
			name: "a collect of a slot that is already filled does not wait",
			src: head + ask + `      - step: loop
        type: while
        condition: "n == 'x'"
        do:
          - step: again
            type: collect
            slot: n
            message: again?
`,
			want: []string{`10:7 steps "loop", "again" of flow "f" form a loop that never waits for the user, so a turn may loop forever: ` + fix +
				` (collect "again" asks only while "n" is unset: give it force: true, or clear the slot with a set of n: null in the loop)`},
		},
		{
			name: "a call to a flow that never asks",
			src: head + `      - step: a
        type: call
        target: g
        jump_to: a
  g:
    steps:
      - step: x
        type: say
        message: x
`,
			want: []string{`6:7 step "a" of flow "f" runs itself again without ever waiting for the user, so a turn may loop forever: ` + fix},
		},
		{
			name: "a forced collect waits",
			src: head + `      - step: a
        type: collect
        slot: n
        message: n?
        force: true
        jump_to: a
`,
		},
		{
			name: "a collect whose slot the loop clears waits",
			src: head + `      - step: a
        type: collect
        slot: n
        message: n?
      - step: b
        type: set
        condition: "n != 'stop'"
        slots:
          n: null
        jump_to: a
`,
		},
		{
			name: "a confirm waits",
			src: head + ask + `      - step: sure
        type: confirm
        slot: n
        on_deny: ask
`,
		},
		{
			name: "a call to a flow that asks, even through another call",
			src: head + `      - step: a
        type: call
        target: g
        jump_to: a
  g:
    steps:
      - step: x
        type: link
        target: h
  h:
    steps:
      - step: y
        type: collect
        slot: m
        message: m?
`,
		},
		{
			name: "a counter loop may end by itself",
			src: head + `      - step: init
        type: set
        slots:
          count: 0
      - step: loop
        type: while
        condition: "count < 3"
        do:
          - step: bump
            type: set
            slots:
              count: {expr: "count + 1"}
`,
		},
		{
			name: "a polling loop whose branch reads an action result may end",
			src: head + `      - step: poll
        type: action
        call: status
        map_outputs:
          state: state
      - step: check
        type: branch
        slot: state
        cases:
          pending: poll
`,
		},
		{
			name: "a loop that changes a slot no exit reads still loops",
			src: head + ask + `      - step: loop
        type: while
        condition: "n == 'x'"
        do:
          - step: other
            type: set
            slots:
              m: 1
`,
			want: []string{`10:7 steps "loop", "other" of flow "f" form a loop that never waits for the user, so a turn may loop forever: ` + fix},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, warnDiags(t, tc.src, diag.CodeInputlessLoop))
		})
	}
}
