package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

func TestReachability(t *testing.T) {
	t.Parallel()
	const head = "flows:\n  f:\n    trigger:\n      intents: [go]\n    steps:\n"
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{
			name: "after a jump to __end__",
			src: head + `      - step: a
        type: say
        message: hi
        jump_to: __end__
      - step: b
        type: say
        message: never
`,
			want: []string{`10:7 step "b" of flow "f" can never run: no step jumps to it and no path through the steps before it leads to it; jump to it from another step or remove it`},
		},
		{
			name: "after a link, every unreachable step is reported",
			src: head + `      - step: a
        type: link
        target: g
      - step: b
        type: say
        message: one
      - step: c
        type: say
        message: two
  g:
    steps:
      - step: x
        type: say
        message: x
`,
			want: []string{
				`9:7 step "b" of flow "f" can never run: no step jumps to it and no path through the steps before it leads to it; jump to it from another step or remove it`,
				`12:7 step "c" of flow "f" can never run: no step jumps to it and no path through the steps before it leads to it; jump to it from another step or remove it`,
			},
		},
		{
			name: "after a branch with default",
			src: head + `      - step: a
        type: collect
        slot: n
        message: n?
      - step: b
        type: branch
        slot: n
        cases:
          "yes": d
          default: __end__
      - step: c
        type: say
        message: skipped
      - step: d
        type: say
        message: "{n}"
`,
			want: []string{`16:7 step "c" of flow "f" can never run: no step jumps to it and no path through the steps before it leads to it; jump to it from another step or remove it`},
		},
		{
			name: "jumped to from later, inline while body, on_invalid, on_error, on_deny targets",
			src: head + `      - step: a
        type: collect
        slot: n
        message: n?
        on_invalid: bad
      - step: loop
        type: while
        condition: "n == 'x'"
        do:
          - step: inner
            type: collect
            slot: n
            message: again?
            force: true
      - step: act
        type: action
        call: go
        on_error: failed
      - step: ok
        type: confirm
        slot: n
        on_deny: denied
        jump_to: __end__
      - step: bad
        type: say
        message: bad
        jump_to: __end__
      - step: failed
        type: say
        message: failed
        jump_to: __end__
      - step: denied
        type: say
        message: denied
`,
		},
		{
			name: "a step of unknown type is left to the schema error",
			src: head + `      - step: a
        type: say
        message: hi
        jump_to: __end__
      - step: b
        type: shout
        message: b
`,
		},
		{
			name: "a flow with an unknown jump target is left to that error",
			src: head + `      - step: a
        type: say
        message: hi
        jump_to: nowhere
      - step: b
        type: say
        message: b
        jump_to: __end__
      - step: c
        type: say
        message: c
`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, warnDiags(t, tc.src, diag.CodeUnreachable))
		})
	}
}
