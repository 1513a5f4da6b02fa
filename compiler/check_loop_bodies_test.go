package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

func TestCheckLoopBodies(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{"a step in two bodies, twice in one, and a while listing itself", `flows:
  main:
    steps:
      - {step: ask, type: collect, slot: n, message: n?, force: true}
      - {step: first, type: while, condition: n > 1, do: [ask, ask]}
      - {step: second, type: while, condition: n > 2, do: [ask, second]}
`, []string{
			`5:64 step "ask" is listed twice in the body of while "first": list each step once`,
			`6:60 step "ask" is already in the body of while "first" at t.yaml:5:16: list each step in at most one do`,
			`6:65 while "second" lists itself in its do: remove it, a while repeats its body by itself`,
		}},
		{"a reference to another while's inline step", `flows:
  main:
    steps:
      - {step: first, type: while, condition: "true", do: [inner]}
      - step: second
        type: while
        condition: "true"
        do:
          - {step: inner, type: collect, slot: n, message: n?, force: true}
`, []string{`4:60 step "inner" is already in the body of while "second" at t.yaml:5:15: list each step in at most one do`}},
		{"whiles inside each other's bodies", `flows:
  main:
    steps:
      - {step: a, type: while, condition: "true", do: [b]}
      - {step: b, type: while, condition: "true", do: [a]}
`, []string{
			`4:16 while "a" is inside its own body through while "b": a loop body cannot hold its own loop`,
			`5:16 while "b" is inside its own body through while "a": a loop body cannot hold its own loop`,
		}},
		{"nested loops and separate bodies", `flows:
  main:
    steps:
      - {step: ask, type: collect, slot: n, message: n?, force: true}
      - {step: outer, type: while, condition: n > 1, do: [ask, inner]}
      - step: inner
        type: while
        condition: n > 2
        do:
          - {step: say, type: say, message: hi}
          - step: innermost
            type: while
            condition: n > 3
            do: [{step: deep, type: collect, slot: n, message: again?, force: true}]
`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, codeDiags(t, tc.src, diag.CodeLoopBody))
		})
	}
}
