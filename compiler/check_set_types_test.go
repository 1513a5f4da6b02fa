package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
	"github.com/stretchr/testify/assert"
)

func TestCheckSetTypes(t *testing.T) {
	t.Parallel()
	const head = `slots:
  count: {type: integer}
  price: {type: number}
  ok: {type: boolean}
  size: {values: {small: [s, tiny], large: [l]}}
  day: {type: date}
  note: {type: text}
  blob: {type: any}
flows:
  main:
    slots: [{name: qty, type: int}]
    steps:
      - step: s
        type: set
        slots:
`
	for _, tc := range []struct {
		name  string
		slots string
		want  []string
	}{
		{"integer", `          count: "abc"
          qty: 2.5
`, []string{
			`16:18 cannot set integer slot "count" to "abc": write a whole number such as 3, or use {expr: ...}`,
			`17:16 cannot set integer slot "qty" to 2.5: write a whole number such as 3, or use {expr: ...}`,
		}},
		{"number", `          price: twelve
          count: true
`, []string{
			`16:18 cannot set number slot "price" to "twelve": write a number such as 12.5, or use {expr: ...}`,
			`17:18 cannot set integer slot "count" to true: write a whole number such as 3, or use {expr: ...}`,
		}},
		{"boolean", `          ok: yes
`, []string{
			`16:15 cannot set boolean slot "ok" to "yes": write true or false, or use {expr: ...}`,
		}},
		{"categorical", `          size: medium
`, []string{
			`16:17 cannot set categorical slot "size" to "medium": write one of its values "small", "large", or use {expr: ...}`,
		}},
		{"date", `          day: 31/12/2024
          note: [a, b]
`, []string{
			`16:16 cannot set date slot "day" to "31/12/2024": write an ISO date such as "2024-12-31", or use {expr: ...}`,
			`17:17 cannot set text slot "note" to a list: write a single text value, or use {expr: ...}`,
		}},
		{"valid literals, null, templates and expressions", `          count: 3
          qty: "42"
          price: 12.5
          ok: false
          size: Tiny
          day: 2024-02-29
          note: 15
          blob: {a: 1}
          unknown_yet: [1, 2]
      - step: t
        type: set
        slots:
          price: null
          count: {expr: "price * 2"}
          note: "{count} items"
`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, codeDiags(t, head+tc.slots, diag.CodeSetType))
			assert.Empty(t, codeDiags(t, head+tc.slots, diag.CodeDuplicateKey))
		})
	}
}

func TestLiteralMismatch(t *testing.T) {
	t.Parallel()
	slot := func(typ ir.SlotType, values ...ir.Value) *syntax.Slot {
		return &syntax.Slot{Resolved: typ, Values: values}
	}
	for _, tc := range []struct {
		slot *syntax.Slot
		v    any
		ok   bool
	}{
		{slot(ir.TypeInteger), int64(-3), true},
		{slot(ir.TypeInteger), uint64(1) << 63, false},
		{slot(ir.TypeInteger), 4.0, true},
		{slot(ir.TypeInteger), " 7 ", true},
		{slot(ir.TypeInteger), "7.5", false},
		{slot(ir.TypeNumber), "1e3", true},
		{slot(ir.TypeNumber), "NaN", false},
		{slot(ir.TypeNumber), false, false},
		{slot(ir.TypeBoolean), "TRUE", true},
		{slot(ir.TypeBoolean), "no", false},
		{slot(ir.TypeBoolean), int64(1), false},
		{slot(ir.TypeDate), "2023-02-29", false},
		{slot(ir.TypeDate), int64(20240101), false},
		{slot(ir.TypeCategorical, ir.Value{Value: "1"}, ir.Value{Value: "2"}), int64(2), true},
		{slot(ir.TypeCategorical, ir.Value{Value: "1"}), 1.5, false},
		{slot(ir.TypeCategorical), "anything", true},
		{slot(ir.TypeText), true, true},
		{slot(ir.TypeText), map[string]any{}, false},
		{slot(ir.TypeAny), []any{1}, true},
	} {
		got := literalMismatch(tc.slot, tc.v)
		assert.Equal(t, tc.ok, got == "", "%s slot, %#v: %q", tc.slot.Resolved, tc.v, got)
	}
}
