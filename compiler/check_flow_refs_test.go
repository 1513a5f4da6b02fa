package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

func TestCheckFlowRefs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{"link and call", `flows:
  main:
    steps:
      - {step: a, type: call, target: chekout}
      - {step: b, type: link, target: nothing_like_it}
  checkout:
    steps:
      - {step: a, type: say, message: hi}
`, []string{
			`4:39 unknown flow "chekout" in call: no flow of the project has this name (did you mean "checkout"?)`,
			`5:39 unknown flow "nothing_like_it" in link: no flow of the project has this name`,
		}},
		{"a step id is no flow", `flows:
  main:
    steps:
      - {step: a, type: say, message: hi}
      - {step: b, type: link, target: a}
`, []string{`5:39 unknown flow "a" in link: no flow of the project has this name`}},
		{"an action step's call names an action, not a flow", `flows:
  main:
    steps:
      - {step: a, type: action, call: nothing}
`, nil},
		{"known flows", `flows:
  main:
    steps:
      - {step: a, type: call, target: other}
      - {step: b, type: link, target: main}
  other:
    steps:
      - {step: a, type: say, message: hi}
`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, codeDiags(t, tc.src, diag.CodeUnknownFlow))
		})
	}
}
