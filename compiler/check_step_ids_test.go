package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

func TestCheckStepIDs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{"two top-level steps", `flows:
  main:
    steps:
      - {step: greet, type: say, message: hi}
      - {step: bye, type: say, message: bye}
      - {step: greet, type: say, message: again}
      - step: greet
        type: say
        message: thrice
`, []string{
			`6:16 step id "greet" is already used in flow "main" at t.yaml:4:16: give every step of a flow its own id`,
			`7:15 step id "greet" is already used in flow "main" at t.yaml:4:16: give every step of a flow its own id`,
		}},
		{"an inline body step and a later top-level step", `flows:
  main:
    steps:
      - step: loop
        type: while
        condition: "true"
        do:
          - {step: ask, type: collect, slot: x, message: x?, force: true}
      - {step: ask, type: say, message: done}
`, []string{`9:16 step id "ask" is already used in flow "main" at t.yaml:8:20: give every step of a flow its own id`}},
		{"same id in two flows is fine", `flows:
  main:
    steps:
      - {step: a, type: say, message: hi}
  other:
    steps:
      - {step: a, type: say, message: hi}
`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, codeDiags(t, tc.src, diag.CodeDuplicateStep))
		})
	}
}
