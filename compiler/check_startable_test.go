package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

func TestStartable(t *testing.T) {
	t.Parallel()
	const fix = `add "trigger: {intents: [...]}" or link or call it from another flow`
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{
			name: "no trigger and nobody links or calls it",
			src: `flows:
  main:
    trigger:
      intents: [go]
    steps:
      - step: a
        type: say
        message: hi
  orphan:
    steps:
      - step: a
        type: say
        message: hi
`,
			want: []string{`9:3 flow "orphan" can never start: it has no trigger intents and no other flow links to it or calls it; ` + fix},
		},
		{
			name: "an empty intents list is no trigger, and calling itself does not start it",
			src: `flows:
  loop:
    trigger:
      intents: []
    steps:
      - step: a
        type: call
        target: loop
`,
			want: []string{`2:3 flow "loop" can never start: it has no trigger intents and no other flow links to it or calls it; ` + fix},
		},
		{
			name: "a trigger with a schema error gets that error, not a second warning",
			src: `flows:
  typo:
    trigger:
      intent: [go]
    steps:
      - step: a
        type: say
        message: hi
  listed:
    trigger: [go on]
    steps:
      - step: a
        type: say
        message: hi
  unquoted:
    trigger:
      intents: go
    steps:
      - step: a
        type: say
        message: hi
`,
		},
		{
			name: "started by a link or a call",
			src: `flows:
  main:
    trigger:
      intents: [go]
    steps:
      - step: a
        type: call
        target: sub
      - step: b
        type: link
        target: next
  sub:
    steps:
      - step: a
        type: say
        message: sub
  next:
    steps:
      - step: a
        type: say
        message: next
`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, warnDiags(t, tc.src, diag.CodeUnstartableFlow))
		})
	}
}
