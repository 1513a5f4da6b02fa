package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

func TestCheckOutputs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{"unknown outputs", `actions:
  balance: {outputs: [amount, currency]}
  ping: {}
flows:
  main:
    steps:
      - {step: a, type: action, call: balance, map_outputs: {amuont: total, currency: cur, status: st}}
      - {step: b, type: action, call: ping, map_outputs: {pong: reply}}
`, []string{
			`7:62 action "balance" has no output "amuont": use one of its outputs "amount", "currency", or declare it (did you mean "amount"?)`,
			`7:92 action "balance" has no output "status": use one of its outputs "amount", "currency", or declare it`,
			`8:59 action "ping" declares no outputs, so map_outputs cannot read "pong": add it to the action's outputs`,
		}},
		{"undeclared actions are skipped", `flows:
  main:
    steps:
      - {step: a, type: action, call: external, map_outputs: {anything: x}}
`, nil},
		{"declared outputs", `actions:
  balance: {outputs: [amount, currency]}
flows:
  main:
    steps:
      - {step: a, type: action, call: balance, map_outputs: {amount: total, currency: cur}}
`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, codeDiags(t, tc.src, diag.CodeUnknownOutput))
		})
	}
}
