package payload

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Payload
		err  string
	}{
		{in: "hello", want: Payload{}},
		{in: "/", want: Payload{}},
		{in: "/ hi", want: Payload{}},
		{in: "/path/to/file", want: Payload{}},
		{in: "/SetSlots(account_type=savings)", want: Payload{Kind: SetSlots, Slots: []Slot{{"account_type", "savings"}}}},
		{in: " /SetSlots(a=1, b = two words ,c=\"x, y\", d='q', e=null) ", want: Payload{Kind: SetSlots, Slots: []Slot{{"a", "1"}, {"b", "two words"}, {"c", "x, y"}, {"d", "q"}, {"e", nil}}}},
		{in: "/SetSlots(confirm_slot_correction=true)", want: Payload{Kind: SetSlots, Slots: []Slot{{"confirm_slot_correction", "true"}}}},
		{in: "/SetSlots()", err: "no slot=value pair"},
		{in: "/SetSlots(=1)", err: "expected slot=value"},
		{in: "/SetSlots(a=\"x)", err: "no closing quote"},
		{in: "/SetSlots(a=1", err: "write /SetSlots"},
		{in: "/greet", want: Payload{Kind: Intent, Name: "greet"}},
		{in: `/inform{"location":"amsterdam", "people": 4, "ok": true}`, want: Payload{Kind: Intent, Name: "inform", Slots: []Slot{{"location", "amsterdam"}, {"ok", true}, {"people", int64(4)}}}},
		{in: `/inform{"amount": 12.5}`, want: Payload{Kind: Intent, Name: "inform", Slots: []Slot{{"amount", 12.5}}}},
		{in: `/inform{location: x}`, err: "must be a JSON object"},
		{in: `/inform{"location": "x"`, err: "must be a JSON object"},
		{in: `/inform{"location": "x"} please`, err: "must be a JSON object"},
		{in: "/start transfer_money", want: Payload{Kind: Command, Name: "start", Flow: "transfer_money"}},
		{in: "/start", err: "write /start FLOW"},
		{in: "/set amount = 50", want: Payload{Kind: Command, Name: "set", Slots: []Slot{{"amount", "50"}}}},
		{in: "/set amount", err: "write /set SLOT=VALUE"},
		{in: "/yes", want: Payload{Kind: Command, Name: "yes"}},
		{in: "/no", want: Payload{Kind: Command, Name: "no"}},
		{in: "/cancel", want: Payload{Kind: Command, Name: "cancel"}},
		{in: "/cancel now", err: "takes nothing after it"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := Parse(tc.in)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}
