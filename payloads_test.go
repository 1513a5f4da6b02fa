package soni_test

import (
	"context"
	"strings"
	"testing"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const payloadYAML = `version: "1.0"
slots:
  tier: {type: categorical, values: [basic, gold]}
flows:
  transfer:
    trigger: {intents: ["send money", "transfer"]}
    slots:
      - {name: amount, type: number}
      - {name: ok, type: boolean}
    steps:
      - {step: ask, type: collect, slot: amount, message: "How much?"}
      - {step: sure, type: confirm, slot: amount, message: "Send {amount}?"}
      - {step: done, type: say, message: "Sent {amount}."}
  greet:
    trigger: {intents: ["hello"]}
    steps:
      - {step: hi, type: say, message: "Hello!"}
`

// TestPayloadsAreUnderstoodWhereverAMessageArrives: a button's payload
// that comes back as the message becomes commands before the
// understanding layer sees it.
func TestPayloadsAreUnderstoodWhereverAMessageArrives(t *testing.T) {
	r := compiler.CompileSource("p.yaml", []byte(payloadYAML), compiler.Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	eng, err := soni.New(r.Program, soni.Options{})
	require.NoError(t, err)
	ctx := context.Background()
	turn := func(session, msg string) *soni.Reply {
		t.Helper()
		rep, err := eng.Handle(ctx, session, vm.Input{Text: msg})
		require.NoError(t, err)
		return rep
	}
	kinds := func(rep *soni.Reply) string {
		var out []string
		for _, c := range rep.Commands {
			s := string(c.Kind)
			if c.Flow != "" {
				s += " " + c.Flow
			}
			if c.Slot != "" {
				s += " " + c.Slot
			}
			out = append(out, s)
		}
		return strings.Join(out, ", ")
	}
	for _, tc := range []struct {
		name, session string
		msgs          []string
		replies       []string
		commands      string
	}{
		{"intent with entities starts its flow", "a", []string{`/transfer{"amount": 20}`}, []string{"Send 20?"}, "start_flow transfer"},
		{"intent named by a trigger phrase", "b", []string{"/hello"}, []string{"Hello!"}, "start_flow greet"},
		{"SetSlots answers the pending question", "c", []string{"send money", "/SetSlots(amount=35)"}, []string{"Send 35?"}, "set_slot amount"},
		{"a conversation slot is set anywhere", "d", []string{"/SetSlots(tier=gold)"}, []string{"How can I help?"}, "set_slot tier"},
		{"a slot of no active flow is left out", "e", []string{"/SetSlots(amount=5)"}, []string{"How can I help?"}, "fallback"},
		{"malformed SetSlots is not understood", "f", []string{"send money", "/SetSlots(amount"}, []string{"Sorry, I didn't understand that.", "How much?"}, "fallback"},
		{"soni's own commands", "g", []string{"/start transfer", "/set amount=9", "/yes"}, []string{"Sent 9."}, "affirm"},
		{"/no", "h", []string{"send money", "12", "/no"}, []string{"Okay, I've cancelled that."}, "deny"},
		{"/cancel", "i", []string{"send money", "/cancel"}, []string{"Okay, I've cancelled that."}, "cancel_flow"},
		{"an intent that names nothing is read as its words", "j", []string{"/send_money"}, []string{"How much?"}, "start_flow transfer"},
		{"an intent of no flow sets its entities", "k", []string{"send money", `/inform{"amount": 15}`}, []string{"Send 15?"}, "set_slot amount"},
		{"an intent of no flow sets a conversation slot", "l", []string{`/choose{"tier": "gold"}`}, []string{"How can I help?"}, "set_slot tier"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rep *soni.Reply
			for _, m := range tc.msgs {
				rep = turn(tc.session, m)
			}
			assert.Equal(t, tc.replies, rep.Replies)
			assert.Equal(t, tc.commands, kinds(rep))
		})
	}
}
