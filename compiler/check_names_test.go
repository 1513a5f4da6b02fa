package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

func TestCheckNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{"slot and action names with a dash", `slots:
  first-name: {type: text}
actions:
  send-mail: {}
flows:
  main:
    steps:
      - {step: a, type: say, message: hi}
`, []string{
			`2:3 slot name "first-name" is invalid: expressions use it, so it must start with a letter or '_' and hold only letters, digits and '_' (did you mean "first_name"?)`,
			`4:3 action name "send-mail" is invalid: expressions use it, so it must start with a letter or '_' and hold only letters, digits and '_' (did you mean "send_mail"?)`,
		}},
		{"flow name and step ids", `flows:
  2fa:
    steps:
      - {step: ask code, type: say, message: hi}
      - step: __end__
        type: say
        message: bye
      - {step: "", type: say, message: x}
`, []string{
			`2:3 flow name "2fa" is invalid: it must start with a letter or '_' and hold only letters, digits, '_' and '-' (did you mean "_2fa"?)`,
			`4:16 step id "ask code" is invalid: it must start with a letter or '_' and hold only letters, digits, '_' and '-' (did you mean "ask_code"?)`,
			`5:15 step id "__end__" is reserved: "__end__" ends a flow, so choose another name`,
			`8:17 step id "" is invalid: it must start with a letter or '_' and hold only letters, digits, '_' and '-'`,
		}},
		{"reserved flow name", `flows:
  __end__:
    steps:
      - {step: a, type: say, message: hi}
`, []string{`2:3 flow name "__end__" is reserved: "__end__" ends a flow, so choose another name`}},
		{"flow slots, declared and implicit", `flows:
  main:
    slots:
      - {name: zip.code}
    steps:
      - {step: a, type: collect, slot: zip.code, message: zip?}
      - {step: b, type: collect, slot: user name, message: name?}
      - {step: c, type: set, slots: {user-id: 1}}
      - {step: d, type: collect, slot: user name, message: again?}
`, []string{
			`4:16 slot name "zip.code" is invalid: expressions use it, so it must start with a letter or '_' and hold only letters, digits and '_' (did you mean "zip_code"?)`,
			`7:40 slot name "user name" is invalid: expressions use it, so it must start with a letter or '_' and hold only letters, digits and '_' (did you mean "user_name"?)`,
			`8:38 slot name "user-id" is invalid: expressions use it, so it must start with a letter or '_' and hold only letters, digits and '_' (did you mean "user_id"?)`,
		}},
		{"valid names", `slots:
  _x1: {type: text}
actions:
  Send_Mail2: {}
flows:
  check-out_2:
    slots: [{name: total_2}]
    steps:
      - {step: ask-total_1, type: collect, slot: total_2, message: total?}
      - {step: end-it, type: say, message: "{_x1}"}
`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, codeDiags(t, tc.src, diag.CodeInvalidName))
		})
	}
	for _, tc := range []struct {
		in   string
		dash bool
		want string
	}{
		{"a-b", false, "a_b"}, {"a-b", true, "a-b"}, {"9lives", false, "_9lives"},
		{"-x", true, "_-x"}, {"---", true, ""}, {"é", false, ""}, {" a b ", false, "a_b"},
	} {
		assert.Equal(t, tc.want, fixName(tc.in, tc.dash), "%q", tc.in)
	}
}
