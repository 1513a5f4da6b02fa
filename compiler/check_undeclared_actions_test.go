package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

func TestUndeclaredActions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{
			name: "a typo of a declared action gets a suggestion",
			src: `actions:
  get_balance: {}
flows:
  f:
    trigger:
      intents: [go]
    steps:
      - step: a
        type: action
        call: get_balance
      - step: b
        type: action
        call: get_balanse
`,
			want: []string{`13:15 action "get_balanse" is not declared: at run time it must be provided by Go code or a test stub; declare it under "actions" to run it from the CLI (did you mean "get_balance"?)`},
		},
		{
			name: "no declarations at all, the Python framework's style",
			src: `flows:
  f:
    trigger:
      intents: [go]
    steps:
      - step: a
        type: action
        call: "send_mail"
`,
			want: []string{`8:16 action "send_mail" is not declared: at run time it must be provided by Go code or a test stub; declare it under "actions" to run it from the CLI`},
		},
		{
			name: "declared in another part of the project",
			src: `flows:
  f:
    trigger:
      intents: [go]
    steps:
      - step: a
        type: action
        call: ping
actions:
  ping: {}
`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, warnDiags(t, tc.src, diag.CodeUndeclaredAction))
		})
	}
}
