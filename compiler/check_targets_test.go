package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

func TestCheckTargets(t *testing.T) {
	t.Parallel()
	const msg = `: flow "main" has no step with this id (use one of its step ids, or "__end__" to end the flow)`
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{"every kind of jump", `flows:
  main:
    steps:
      - {step: ask, type: collect, slot: n, message: n?, on_invalid: giveup, jump_to: chek}
      - step: check
        type: branch
        slot: n
        cases: {">5": big, default: __END__}
      - {step: big, type: action, call: pay, on_error: oops}
      - {step: sure, type: confirm, slot: n, on_confirm: nowhere, on_deny: ask_}
      - {step: loop, type: while, condition: "n > 1", do: [ask, sure, aks], exit_to: out}
      - {step: bye, type: say, message: bye, jump_to: "__end__"}
`, []string{
			`4:70 unknown jump target "giveup" in on_invalid` + msg,
			`4:87 unknown jump target "chek" in jump_to` + msg + ` (did you mean "check"?)`,
			`8:37 unknown jump target "__END__" in the case "default"` + msg + ` (did you mean "__end__"?)`,
			`9:56 unknown jump target "oops" in on_error` + msg + ` (did you mean "loop"?)`,
			`10:58 unknown jump target "nowhere" in on_confirm` + msg,
			`10:76 unknown jump target "ask_" in on_deny` + msg + ` (did you mean "ask"?)`,
			`11:71 unknown step "aks" in the do list of while "loop": flow "main" has no step with this id (did you mean "ask"?)`,
			`11:86 unknown jump target "out" in exit_to` + msg,
		}},
		{"__end__ is no body step", `flows:
  main:
    steps:
      - step: loop
        type: while
        condition: "true"
        do: [__end__]
`, []string{`7:14 unknown step "__end__" in the do list of while "loop": flow "main" has no step with this id`}},
		{"targets are looked up in the step's own flow", `flows:
  main:
    steps:
      - {step: a, type: say, message: hi, jump_to: b}
  other:
    steps:
      - {step: b, type: say, message: hi}
`, []string{`4:52 unknown jump target "b" in jump_to` + msg}},
		{"fields of other step types are left to the schema", `flows:
  main:
    steps:
      - {step: a, type: say, message: hi, on_error: nope, exit_to: nope}
`, nil},
		{"valid targets, inline body steps included", `flows:
  main:
    steps:
      - {step: ask, type: collect, slot: n, message: n?, on_invalid: __end__}
      - step: loop
        type: while
        condition: n > 1
        do:
          - ask
          - {step: inner, type: say, message: again, jump_to: ask}
        exit_to: done
      - {step: done, type: confirm, slot: n, on_confirm: __end__, on_deny: ask}
      - {step: check, type: branch, slot: n, cases: {">5": inner, default: done}}
`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, codeDiags(t, tc.src, diag.CodeUnknownTarget))
		})
	}
}
