package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

func TestUnusedActions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{
			name: "declared, never called",
			src: `actions:
  used: {}
  spare:
    description: never called
flows:
  f:
    trigger:
      intents: [go]
    steps:
      - step: a
        type: action
        call: used
`,
			want: []string{`3:3 action "spare" is declared but no step calls it: call it from an action step or remove its declaration`},
		},
		{
			name: "a call step of another type does not count",
			src: `actions:
  g: {}
flows:
  f:
    trigger:
      intents: [go]
    steps:
      - step: a
        type: call
        target: g
  g:
    steps:
      - step: a
        type: say
        message: hi
`,
			want: []string{`2:3 action "g" is declared but no step calls it: call it from an action step or remove its declaration`},
		},
		{
			name: "called from any flow",
			src: `actions:
  lookup: {}
flows:
  f:
    trigger:
      intents: [go]
    steps:
      - step: a
        type: say
        message: hi
  g:
    trigger:
      intents: [other]
    steps:
      - step: a
        type: action
        call: lookup
`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, warnDiags(t, tc.src, diag.CodeUnusedAction))
		})
	}
}
