package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

// respFlows is a project with responses; each case adds what it checks.
const respHead = `slots:
  tier: {type: categorical, values: [basic, gold]}
  language: {type: text}
responses:
  utter_ask_amount:
    - text: "How much?"
flows:
  pay:
    trigger: {intents: ["pay"]}
    slots:
      - {name: amount, type: number}
    steps:
      - {step: ask, type: collect, slot: amount}
`

func TestCheckResponses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		src  string
		code string
		want []string
	}{
		{"unknown response with a suggestion", respHead + `      - {step: done, type: say, response: utter_ask_amout}
`, diag.CodeUnknownResponse, []string{`14:43 unknown response "utter_ask_amout": no response of the project has this name (did you mean "utter_ask_amount"?)`}},
		{"a collect with no message and no utter_ask_SLOT", respHead + `      - {step: who, type: collect, slot: payee}
`, diag.CodeUnknownResponse, []string{`14:7 collect step "who" has no message, and there is no response "utter_ask_payee" to ask with: give it a message, or define the response`}},
		{"soni's default responses need no definition", respHead + `      - {step: done, type: say, response: utter_can_do_something_else}
`, diag.CodeUnknownResponse, nil},
		{"message and response", respHead + `      - {step: done, type: say, message: hi, response: utter_ask_amount}
`, diag.CodeInvalidValue, []string{`14:56 step "done" of flow "pay" has both message and response: keep one of the two`}},
		{"a say with neither", respHead + `      - {step: done, type: say}
`, diag.CodeMissingField, []string{`14:7 missing required field "message" in say step: give the message to say, or response: NAME to say a response`}},
		{"unused response", `responses:
  utter_bye:
    - text: Bye
  utter_ask_rephrase:
    - text: "Say it again?"
flows:
  f:
    trigger: {intents: ["go"]}
    steps:
      - {step: a, type: say, message: hi}
`, diag.CodeUnusedResponse, []string{`2:3 response "utter_bye" is never said: say it from a step with response: utter_bye, or remove it`}},
		{"a response's text reads a slot the flow saying it cannot see", `responses:
  utter_total:
    - text: "Total: {amount}"
flows:
  f:
    trigger: {intents: ["go"]}
    steps:
      - {step: a, type: say, response: utter_total}
  g:
    trigger: {intents: ["other"]}
    slots:
      - {name: amount, type: number}
    steps:
      - {step: a, type: collect, slot: amount, message: "How much?"}
`, diag.CodeUnknownSlot, []string{`3:22 unknown slot "amount" in response "utter_total", which flow "f" says: it is a slot of flow "g", and a flow slot is seen only by its own flow: declare it in the top-level slots to share it between flows`}},
		{"a condition on no slot", `responses:
  utter_done:
    - condition: [{type: slot, name: teir, value: gold}]
      text: Done.
slots:
  tier: {type: categorical, values: [basic, gold]}
flows:
  f:
    trigger: {intents: ["go"]}
    steps:
      - {step: a, type: say, response: utter_done}
      - {step: b, type: set, slots: {tier: gold}}
`, diag.CodeUnknownSlot, []string{`3:38 unknown slot "teir" in a condition of response "utter_done": no flow has this slot (did you mean "tier"?)`}},
		{"a condition on a pattern's slot", `responses:
  utter_greet:
    - condition: [{type: slot, name: question_pending, value: true}]
      text: Hello again.
    - condition: [{type: slot, name: small_talk, value: greet}]
      text: Hello!
flows:
  f:
    trigger: {intents: ["go"]}
    steps:
      - {step: a, type: say, message: Hi.}
`, diag.CodeUnknownSlot, nil},
		{"button payloads", `responses:
  utter_more:
    - text: More?
      buttons:
        - {title: ok, payload: "/SetSlots(tier=gold)"}
        - {title: a, payload: "/SetSlots(teir=gold)"}
        - {title: b, payload: "/SetSlots(tier=platinum)"}
        - {title: c, payload: "/SetSlots(tier"}
        - {title: d, payload: "/start pya"}
        - {title: e, payload: "/greet"}
        - {title: f, payload: '/pay{"tier": "gold"}'}
        - {title: g, payload: "plain text"}
        - {title: h, payload: '/pay{"tier": "gold"'}
slots:
  tier: {type: categorical, values: [basic, gold]}
flows:
  pay:
    trigger: {intents: ["pay"]}
    steps:
      - {step: a, type: say, response: utter_more}
      - {step: b, type: set, slots: {tier: gold}}
`, diag.CodeBadPayload, []string{
			`6:32 payload "/SetSlots(teir=gold)" sets slot "teir", which no flow has (did you mean "tier"?)`,
			`7:32 payload "/SetSlots(tier=platinum)" sets slot "tier" to platinum, which it cannot hold: "platinum" is not one of basic, gold`,
			`8:32 payload "/SetSlots(tier": write /SetSlots(slot=value, ...)`,
			`9:32 payload "/start pya" starts flow "pya", which the project does not have (did you mean "pay"?)`,
			`10:32 payload "/greet" names intent "greet", which is no flow's name or trigger, and sets no slot: it would not be understood`,
			`13:32 payload "/pay{\"tier\": \"gold\"": the entities after the intent name must be a JSON object such as {"slot": "value"}, and end the payload`,
		}},
		{"a pattern's context is read-only", respHead + `  pattern_cancel_flow:
    steps:
      - {step: a, type: set, slots: {reason: x, canceled_name: y}}
      - {step: b, type: action, call: action_cancel_flow}
`, diag.CodeReadOnlySlot, []string{`16:49 set of slot "canceled_name": it is a read-only slot of pattern_cancel_flow, filled by soni when the pattern starts: use another slot name`}},
		{"an override that can never end", respHead + `  pattern_completed:
    steps:
      - {step: a, type: say, message: again, jump_to: a}
`, diag.CodeEndlessPattern, []string{`14:3 pattern flow "pattern_completed" can never end: no path from its first step reaches its end, so the conversation it repairs would never go on; end it with its last step or __end__`}},
		{"an override that ends", respHead + `  pattern_completed:
    steps:
      - {step: a, type: say, message: done}
`, diag.CodeEndlessPattern, nil},
		{"the language slot is used by the responses", respHead, diag.CodeUnusedSlot, []string{`2:3 slot "tier" is declared but never used: collect, set or read it in a flow, or remove its declaration`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, codeDiags(t, tc.src, tc.code))
		})
	}
}
