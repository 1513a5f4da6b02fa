package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRun(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		inputs     string
		wantOut    string
		wantErr    string
		wantStatus int
	}{
		{name: "checking balance", args: []string{"get_balance"}, inputs: `{"account_type": "checking"}`, wantOut: `{"balance":1520.5,"currency":"EUR"}`},
		{name: "savings balance", args: []string{"get_balance"}, inputs: `{"account_type": "savings"}`, wantOut: `{"balance":8200,"currency":"EUR"}`},
		{name: "unknown account", args: []string{"get_balance"}, inputs: `{"account_type": "gold"}`, wantStatus: 1, wantErr: `bank: get_balance: unknown account_type "gold": use checking or savings`},
		{name: "account unset", args: []string{"get_balance"}, inputs: `{"account_type": null}`, wantStatus: 1, wantErr: `unknown account_type ""`},
		{name: "good code", args: []string{"verify_code"}, inputs: `{"otp_code": "123456"}`, wantOut: `{}`},
		{name: "wrong code", args: []string{"verify_code"}, inputs: `{"otp_code": "000000"}`, wantStatus: 1, wantErr: `bank: verify_code: the code is wrong or has expired`},
		{name: "malformed code", args: []string{"verify_code"}, inputs: `{"otp_code": "12"}`, wantStatus: 1, wantErr: `otp_code "12" is not six digits`},
		{name: "transfer", args: []string{"make_transfer"}, inputs: `{"account_type": "checking", "recipient": "Ana", "amount": 50}`, wantOut: `{"reference":"TR-`},
		{name: "transfer over the balance", args: []string{"make_transfer"}, inputs: `{"account_type": "checking", "recipient": "Ana", "amount": 2000}`, wantStatus: 1, wantErr: `insufficient funds: 1520.50 EUR in checking, 2000.00 EUR requested`},
		{name: "transfer without recipient", args: []string{"make_transfer"}, inputs: `{"account_type": "savings", "recipient": " ", "amount": 5}`, wantStatus: 1, wantErr: `recipient is not set`},
		{name: "transfer of text", args: []string{"make_transfer"}, inputs: `{"account_type": "savings", "recipient": "Ana", "amount": "5"}`, wantStatus: 1, wantErr: `amount 5 is not a positive number`},
		{name: "block", args: []string{"block_card"}, inputs: `{"card_last4": "4821"}`, wantOut: `{"messages":[{"response":"utter_card_blocked"}],"reference":"BLK-4821-`},
		{name: "block bad card", args: []string{"block_card"}, inputs: `{"card_last4": "48a1"}`, wantStatus: 1, wantErr: `card_last4 "48a1" is not four digits`},
		{name: "express card", args: []string{"order_card"}, inputs: `{"card_last4": "4821", "delivery": "express"}`, wantOut: `{"eta_days":2}`},
		{name: "standard card", args: []string{"order_card"}, inputs: `{"card_last4": "4821", "delivery": "standard"}`, wantOut: `{"eta_days":7}`},
		{name: "unknown delivery", args: []string{"order_card"}, inputs: `{"card_last4": "4821", "delivery": "drone"}`, wantStatus: 1, wantErr: `unknown delivery "drone"`},
		{name: "no action", args: nil, wantStatus: 2, wantErr: "usage: bank ACTION"},
		{name: "unknown action", args: []string{"rob_bank"}, wantStatus: 2, wantErr: `got ["rob_bank"]`},
		{name: "request not JSON", args: []string{"get_balance"}, inputs: "-", wantStatus: 1, wantErr: "bank: the request is not JSON"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := `{"action": "x", "session": "s", "inputs": ` + tc.inputs + `}`
			if tc.inputs == "-" {
				in = "not json"
			}
			var out, errOut bytes.Buffer
			status := run(tc.args, strings.NewReader(in), &out, &errOut)
			assert.Equal(t, tc.wantStatus, status)
			if tc.wantStatus != 0 {
				assert.Contains(t, errOut.String(), tc.wantErr)
				assert.Empty(t, out.String())
				return
			}
			assert.Empty(t, errOut.String())
			assert.True(t, strings.HasPrefix(out.String(), tc.wantOut), "got %s", out.String())
		})
	}
}

func TestReferencesAreDerivedFromTheInputs(t *testing.T) {
	ref := func(inputs string) string {
		var out bytes.Buffer
		status := run([]string{"make_transfer"}, strings.NewReader(`{"inputs": `+inputs+`}`), &out, &bytes.Buffer{})
		assert.Equal(t, 0, status)
		return out.String()
	}
	a := ref(`{"account_type": "savings", "recipient": "Ana", "amount": 50}`)
	assert.Equal(t, a, ref(`{"account_type": "savings", "recipient": "Ana", "amount": 50}`), "same inputs, same reference")
	assert.NotEqual(t, a, ref(`{"account_type": "savings", "recipient": "Ana", "amount": 51}`))
	assert.NotEqual(t, a, ref(`{"account_type": "savings", "recipient": "Bo", "amount": 50}`))
	assert.Regexp(t, `^\{"reference":"TR-[0-9A-F]{8}"\}\n$`, a)
}
