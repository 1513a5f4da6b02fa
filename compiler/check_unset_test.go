package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

func TestMaybeUnset(t *testing.T) {
	t.Parallel()
	const head = "flows:\n  f:\n    trigger:\n      intents: [go]\n    steps:\n"
	const convFix = ` (collect or set it on every path before this step, or give it an "initial" value)`
	const flowFix = ` (collect or set it on every path before this step)`
	msg := func(pos, slot, step, fix string) string {
		return pos + ` slot "` + slot + `" may be unset here: no step sets it on every path to step "` + step + `"` + fix
	}
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{
			name: "a template before any collect, at the name inside the quotes",
			src: head + `      - step: hi
        type: say
        message: "Hi {name}, and {name} again"
      - step: ask
        type: collect
        slot: name
        message: Name?
`,
			want: []string{msg("8:23", "name", "hi", flowFix)},
		},
		{
			name: "a conversation slot gets the initial-value hint; with initial it is set",
			src: `slots:
  name: {type: text}
  city: {type: text, initial: Paris}
` + head + `      - step: hi
        type: say
        message: "{ city } {name}"
`,
			want: []string{msg("11:29", "name", "hi", convFix)},
		},
		{
			name: "set on one branch only",
			src: head + `      - step: ask
        type: collect
        slot: yes
        message: sure?
      - step: b
        type: branch
        slot: yes
        cases:
          "no": show
      - step: name
        type: collect
        slot: name
        message: name?
      - step: show
        type: say
        message: "{name}"
`,
			want: []string{msg("21:20", "name", "show", flowFix)},
		},
		{
			name: "a collect does not set its slot on the on_invalid edge",
			src: head + `      - step: ask
        type: collect
        slot: n
        message: n?
        on_invalid: sorry
      - step: fine
        type: say
        message: "got {n}"
        jump_to: __end__
      - step: sorry
        type: say
        message: "no {n}"
`,
			want: []string{msg("17:23", "n", "sorry", flowFix)},
		},
		{
			name: "an action sets its outputs on the normal edge only",
			src: head + `      - step: act
        type: action
        call: lookup
        map_outputs:
          balance: balance
        on_error: failed
      - step: show
        type: say
        message: "{balance}"
        jump_to: __end__
      - step: failed
        type: say
        message: "{balance}"
`,
			want: []string{msg("18:20", "balance", "failed", flowFix)},
		},
		{
			name: "a conditional set sets nothing; a null clears",
			src: head + `      - step: ask
        type: collect
        slot: n
        message: n?
      - step: maybe
        type: set
        condition: "n == 'a'"
        slots:
          m: one
      - step: clear
        type: set
        slots:
          n: null
      - step: show
        type: say
        message: "{m} {n}"
`,
			want: []string{msg("21:20", "m", "show", flowFix), msg("21:24", "n", "show", flowFix)},
		},
		{
			name: "set values see the entries before them, not after",
			src: head + `      - step: s
        type: set
        slots:
          a: 1
          b: "{a}"
          c: {expr: "a + d"}
          d: 2
`,
			want: []string{msg("11:26", "d", "s", flowFix)},
		},
		{
			name: "conditions, evaluate, branch and confirm slots",
			src: head + `      - step: w
        type: while
        condition: "x > 1"
        do: [body]
      - step: body
        type: collect
        slot: x
        message: x?
        force: true
      - step: e
        type: branch
        evaluate: "y == 2"
        cases:
          "true": b
      - step: b
        type: branch
        slot: z
        cases:
          "1": c
      - step: c
        type: confirm
        slot: q
      - step: sets
        type: set
        slots:
          y: 1
          z: 1
          q: 1
`,
			want: []string{
				msg("8:21", "x", "w", flowFix),
				msg("17:20", "y", "e", flowFix),
				msg("22:15", "z", "b", flowFix),
				msg("27:15", "q", "c", flowFix),
			},
		},
		{
			name: "a while condition read again after the body sets the slot is fine the second time only",
			src: head + `      - step: ask
        type: collect
        slot: more
        message: more?
      - step: w
        type: while
        condition: "more == 'yes'"
        do:
          - step: again
            type: collect
            slot: more
            message: more?
            force: true
`,
		},
		{
			name: "validators, validations and unreachable steps are not reads",
			src: `slots:
  age:
    type: integer
    validation: "value > limit"
` + head + `      - step: ask
        type: collect
        slot: age
        message: age?
        validator: "value < limit"
      - step: limit
        type: set
        slots:
          limit: 100
        jump_to: __end__
      - step: never
        type: say
        message: "{nothing}"
      - step: define
        type: set
        slots:
          nothing: x
`,
		},
		{
			name: "a called flow's conversation slots are set after the call",
			src: `slots:
  city: {type: text}
` + head + `      - step: where
        type: call
        target: ask_city
      - step: show
        type: say
        message: "{city} {note}"
      - step: ask_note
        type: collect
        slot: note
        message: note?
  ask_city:
    steps:
      - step: ask
        type: collect
        slot: city
        message: city?
        max_attempts: 2
      - step: note
        type: collect
        slot: note
        message: note?
`,
			// The callee's own flow slot "note" is not the caller's.
			want: []string{msg("13:27", "note", "show", flowFix)},
		},
		{
			name: "a called flow that may complete without the slot does not set it",
			src: `slots:
  city: {type: text}
` + head + `      - step: where
        type: call
        target: ask_city
      - step: show
        type: say
        message: "{city}"
  ask_city:
    steps:
      - step: ask
        type: collect
        slot: city
        message: city?
        on_invalid: __end__
`,
			want: []string{msg("13:20", "city", "show", convFix)},
		},
		{
			name: "a flow that links away sets what the linked flow sets",
			src: `slots:
  city: {type: text}
` + head + `      - step: where
        type: call
        target: menu
      - step: show
        type: say
        message: "{city}"
  menu:
    steps:
      - step: go
        type: link
        target: ask_city
  ask_city:
    steps:
      - step: ask
        type: collect
        slot: city
        message: city?
`,
		},
		{
			name: "a block scalar template",
			src: head + `      - step: hi
        type: say
        message: |
          Hello
            and {who}
      - step: ask
        type: collect
        slot: who
        message: who?
`,
			want: []string{msg("10:18", "who", "hi", flowFix)},
		},
		{
			name: "a pattern override's context is set when soni starts it",
			src: `flows:
  pattern_cannot_handle:
    steps:
      - step: check
        type: branch
        evaluate: 'context.reason == "cannot_handle_chitchat" or reason == "x"'
        cases: {"true": why}
      - step: ask
        type: collect
        slot: more
        message: "More?"
      - step: why
        type: say
        message: "{reason} {context.reason} {question_pending}"
    slots:
      - {name: more, type: text}
`,
		},
		{
			name: "a test for nil, a default with ?? and reads a nil test guards are no reads of an unset slot",
			src: `slots:
  handle: {type: text}
  points: {type: number}
` + head + `      - step: b1
        type: branch
        evaluate: 'slots.handle != nil or nil == handle or slots.handle is None'
        cases: {"true": b2}
      - step: b2
        type: branch
        evaluate: "(slots.points ?? 0) > 1 and (handle == nil or handle == 'x')"
        cases: {"true": b3}
      - step: b3
        type: branch
        evaluate: "points != nil and points > 2 and (slots.handle != nil ? len(handle) > 1 : false)"
        cases: {"true": ask}
      - step: ask
        type: collect
        slot: handle
        message: handle?
`,
		},
		{
			name: "a read a nil test does not guard still warns",
			src: `slots:
  handle: {type: text}
` + head + `      - step: b1
        type: branch
        evaluate: "handle == nil and handle == 'x'"
        cases: {"true": ask}
      - step: b2
        type: branch
        evaluate: "(handle ?? 'a') == 'b' or handle > 'c'"
        cases: {"true": ask}
      - step: ask
        type: collect
        slot: handle
        message: handle?
`,
			want: []string{msg("10:20", "handle", "b1", convFix), msg("14:21", "handle", "b2", convFix)},
		},
		{
			name: "a branch that tests a slot for nil sets it on the case that needs it set",
			src: `slots:
  handle: {type: text}
  tier: {type: text}
` + head + `      - step: b1
        type: branch
        evaluate: "slots.handle != nil and tier != nil and tier == 'gold'"
        cases: {"true": show, default: ask}
      - step: ask
        type: collect
        slot: handle
        message: handle?
      - step: b2
        type: branch
        evaluate: "slots.tier == nil"
        cases: {"false": show2}
      - step: nothing
        type: say
        message: "no tier"
        jump_to: __end__
      - step: show2
        type: say
        message: "{tier} {handle}"
        jump_to: __end__
      - step: show
        type: say
        message: "{handle} {tier}"
`,
		},
		{
			name: "the other cases of a nil test set nothing",
			src: `slots:
  handle: {type: text}
` + head + `      - step: b1
        type: branch
        evaluate: "not (slots.handle == nil)"
        cases: {"false": show, ">1": show}
      - step: show2
        type: say
        message: "{handle}"
      - step: show
        type: say
        message: "{handle}!"
`,
			want: []string{msg("14:20", "handle", "show2", convFix), msg("17:20", "handle", "show", convFix)},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, warnDiags(t, tc.src, diag.CodeMaybeUnset))
		})
	}
}

func TestMaybeUnsetRecursionTerminates(t *testing.T) {
	t.Parallel()
	src := `slots:
  city: {type: text}
flows:
  a:
    trigger:
      intents: [go]
    steps:
      - step: c
        type: call
        target: b
      - step: show
        type: say
        message: "{city}"
  b:
    steps:
      - step: c
        type: call
        target: a
      - step: ask
        type: collect
        slot: city
        message: city?
`
	got := warnDiags(t, src, diag.CodeMaybeUnset)
	// b's summary is computed while a is still being analysed, so the call
	// in b learns nothing from a; a learns from b that city is set.
	assert.Equal(t, []string(nil), got)
}
