package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

func TestCheckSlotRefs(t *testing.T) {
	t.Parallel()
	const declare = `declare it in the top-level slots or the flow's slots, or fix its name`
	const confirmHint = `a confirm asks the user to check a value the flow already has and does not store the answer: name a slot that is collected, set or mapped from an action before it, or fix its name`
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{"templates", `slots:
  name: {type: text}
flows:
  main:
    steps:
      - {step: a, type: say, message: "Hi {nmae}, { nme } and {nmae.first}!"}
      - step: b
        type: say
        message: |
          Dear {name},
            your code is {cdoe}.
      - {step: c, type: set, slots: {greeting: "Hello {who}"}}
`, []string{
			`6:44 unknown slot "nmae" in template: ` + declare + ` (did you mean "name"?)`,
			`6:53 unknown slot "nme" in template: ` + declare + ` (did you mean "name"?)`,
			`6:64 unknown slot "nmae" in template: ` + declare + ` (did you mean "name"?)`,
			`11:27 unknown slot "cdoe" in template: ` + declare,
			`12:56 unknown slot "who" in template: ` + declare,
		}},
		{"conversation slot templates see conversation slots only", `slots:
  age:
    type: integer
    invalid_message: "{agee} is not an age, {nick}"
flows:
  main:
    slots: [{name: nick}]
    steps:
      - {step: a, type: collect, slot: age, message: "age, {nick}?"}
`, []string{
			`4:24 unknown slot "agee" in template: declare it in the top-level slots, or fix its name (did you mean "age"?)`,
			`4:46 unknown slot "nick" in template: it is a slot of flow "main", and a flow slot is seen only by its own flow: declare it in the top-level slots to share it between flows`,
		}},
		{"a slot of another flow", `flows:
  main:
    steps:
      - {step: a, type: call, target: verify}
      - {step: b, type: say, message: "Verified with {code}."}
      - {step: c, type: branch, evaluate: "code != ''", cases: {"true": a}}
      - {step: d, type: confirm, slot: code}
  verify:
    slots: [{name: code, type: text}]
    steps:
      - {step: a, type: collect, slot: code, message: code?}
  other:
    steps:
      - {step: a, type: set, slots: {code: x}}
      - {step: b, type: call, target: main}
`, []string{
			`5:55 unknown slot "code" in template: it is a slot of flows "verify", "other", and a flow slot is seen only by its own flow: declare it in the top-level slots to share it between flows`,
			`6:44 unknown slot "code" in evaluate expression: it is a slot of flows "verify", "other", and a flow slot is seen only by its own flow: declare it in the top-level slots to share it between flows`,
			`7:40 unknown slot "code" in confirm: it is a slot of flows "verify", "other", and a flow slot is seen only by its own flow: declare it in the top-level slots to share it between flows`,
		}},
		{"expressions", `slots:
  amount: {type: number}
flows:
  main:
    steps:
      - {step: a, type: set, condition: "amout > 5 and slots.nope", slots: {x: {expr: "amount * rate"}}}
      - step: b
        type: while
        condition: |
          amount > 0 and
            value < 3
        do: [a]
      - {step: c, type: branch, evaluate: "slots.amount > 1", cases: {"true": a}}
`, []string{
			`6:42 unknown slot "amout" in condition: ` + declare + ` (did you mean "amount"?)`,
			`6:62 unknown slot "nope" in condition: ` + declare,
			`6:97 unknown slot "rate" in expression: ` + declare,
			`11:13 unknown slot "value" in condition: "value" is defined only in a slot's validation and a collect step's validator`,
		}},
		{"branch and confirm slots", `slots:
  color: {values: [red, blue]}
flows:
  main:
    steps:
      - {step: a, type: collect, slot: color, message: color?}
      - {step: b, type: branch, slot: colour, cases: {red: a}}
      - {step: c, type: confirm, slot: colr}
`, []string{
			`7:39 unknown slot "colour" in branch: ` + declare + ` (did you mean "color"?)`,
			`8:40 unknown slot "colr" in confirm: ` + confirmHint + ` (did you mean "color"?)`,
		}},
		// The Python framework's habit of naming a slot for the answer is a
		// label: W014 (W014_confirm_label.yaml), not this error.
		{"confirm of an answer slot", `flows:
  main:
    steps:
      - {step: a, type: collect, slot: amount, message: how much?}
      - {step: b, type: confirm, slot: transfer_confirmed, message: "Send {amount}?"}
`, nil},
		{"action inputs", `slots:
  account: {type: text}
actions:
  balance:
    inputs: [acount, {name: currency, required: true}, pin]
flows:
  main:
    steps:
      - {step: a, type: collect, slot: currency, message: which currency?}
      - {step: b, type: action, call: balance}
`, []string{
			`5:14 unknown slot "acount" in the inputs of action "balance": no conversation slot or flow slot has this name (did you mean "account"?)`,
			`5:56 unknown slot "pin" in the inputs of action "balance": no conversation slot or flow slot has this name`,
		}},
		{"set and map_outputs targets that look like typos", `slots:
  amount: {type: number}
flows:
  main:
    slots: [{name: receipt}]
    steps:
      - {step: a, type: set, slots: {amout: 3, total: 4, ammount: 5}}
      - {step: b, type: action, call: pay, map_outputs: {id: reciept, when: paid_at}}
`, []string{
			`7:38 unknown slot "amout" in set: to create a new flow slot, declare it in the flow's slots (did you mean "amount"?)`,
			`7:58 unknown slot "ammount" in set: to create a new flow slot, declare it in the flow's slots (did you mean "amount"?)`,
			`8:62 unknown slot "reciept" in map_outputs: to create a new flow slot, declare it in the flow's slots (did you mean "receipt"?)`,
		}},
		{"every slot visible", `slots:
  amount: {type: number, validation: "value > 0", invalid_message: "{amount} is too small"}
actions:
  pay: {inputs: [amount, note], outputs: [id]}
flows:
  main:
    slots: [{name: note}]
    steps:
      - {step: a, type: collect, slot: amount, message: "How much, {note}?", validator: "value < amount + 1"}
      - {step: b, type: set, condition: "slots.amount > 1 AND NOT (amount < 0)", slots: {note: "{amount}", amount: 2, count: 1}}
      - {step: c, type: branch, slot: note, cases: {x: a}}
      - {step: d, type: action, call: pay, map_outputs: {id: payment_id}}
      - {step: e, type: confirm, slot: payment_id}
      - {step: f, type: set, slots: {total: {expr: "amount * 2"}}}
`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, codeDiags(t, tc.src, diag.CodeUnknownSlot))
		})
	}
}

// TestUncalledActionInputs: an action that no step calls can never run, so
// an input that names no slot is a warning beside W005, not an error (the
// Python framework's banking example declares such an action).
func TestUncalledActionInputs(t *testing.T) {
	t.Parallel()
	src := `actions:
  format_balance: {inputs: [balance]}
flows:
  main:
    steps:
      - {step: a, type: say, message: hi}
`
	assert.Nil(t, codeDiags(t, src, diag.CodeUnknownSlot))
	assert.Equal(t, []string{
		`2:3 action "format_balance" is declared but no step calls it: call it from an action step or remove its declaration`,
		`2:29 unknown slot "balance" in the inputs of action "format_balance", which no step calls: declare the slot or fix its name before calling the action, or remove the declaration`,
	}, codeDiags(t, src, diag.CodeUnusedAction))
}
