package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

func TestCheckTriggers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{"the same phrase in two flows, written differently", `flows:
  a:
    trigger: {intents: ["Send money", "I'd like a transfer", "¿Qué tal?"]}
    steps: [{step: x, type: say, message: hi}]
  b:
    trigger:
      intents:
        - "  send   MONEY! "
        - Id like a transfer
        - que tal
        - que tal
    steps: [{step: x, type: say, message: hi}]
  c:
    trigger: {intents: ["send-money"]}
    steps: [{step: x, type: say, message: hi}]
`, []string{
			`8:12 trigger phrase "  send   MONEY! " of flow "b" is already a trigger of flow "a" at t.yaml:3:26: keep each phrase in one flow only`,
			`9:11 trigger phrase "Id like a transfer" of flow "b" is already a trigger of flow "a" at t.yaml:3:40: keep each phrase in one flow only`,
			`10:11 trigger phrase "que tal" of flow "b" is already a trigger of flow "a" at t.yaml:3:63: keep each phrase in one flow only`,
			`14:26 trigger phrase "send-money" of flow "c" is already a trigger of flow "a" at t.yaml:3:26: keep each phrase in one flow only`,
		}},
		{"the same phrase twice in one flow is harmless", `flows:
  a:
    trigger: {intents: ["help", "Help!", "help"]}
    steps: [{step: x, type: say, message: hi}]
  b:
    trigger: {intents: ["help me", "!!!"]}
    steps: [{step: x, type: say, message: hi}]
  c:
    trigger: {intents: ["...", "help  me  now"]}
    steps: [{step: x, type: say, message: hi}]
`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, codeDiags(t, tc.src, diag.CodeDuplicateTrigger))
		})
	}
	for in, want := range map[string]string{
		"  Send   MONEY!! ":   "send money",
		"I'd like a transfer": "id like a transfer",
		"¿Qué tal, señor?":    "que tal senor",
		"send-money":          "send money",
		"Straße":              "strasse",
		"e\u0301te":           "ete",
		"!!!":                 "",
		"привет, мир":         "привет мир",
	} {
		assert.Equal(t, want, triggerKey(in), "%q", in)
	}
}
