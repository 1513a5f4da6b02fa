package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAskActions checks a collect's ask_action: it is lowered to the IR,
// counts as a use of the action (no W005) and as a call of an undeclared
// one (W006), needs no message or utter_ask_SLOT response (no E041), and
// may not name a built-in action (E014).
func TestAskActions(t *testing.T) {
	t.Parallel()
	const head = `slots:
  handle: {type: text}
flows:
  f:
    trigger:
      intents: [go]
    steps:
`
	for _, tc := range []struct {
		name, src, code string
		want            []string
	}{
		{"a declared ask action is used", `actions:
  action_ask_handle: {}
` + head + `      - {step: ask, type: collect, slot: handle, ask_action: action_ask_handle}
`, diag.CodeUnusedAction, nil},
		{"an undeclared one warns like an action step", head + `      - {step: ask, type: collect, slot: handle, ask_action: action_ask_handle}
`, diag.CodeUndeclaredAction, []string{`8:62 action "action_ask_handle" is not declared: at run time it must be provided by Go code or a test stub; declare it under "actions" to run it from the CLI`}},
		{"no message and no utter_ask_SLOT response is no error", head + `      - {step: ask, type: collect, slot: handle, ask_action: action_ask_handle}
`, diag.CodeUnknownResponse, nil},
		{"a built-in action asks nothing", head + `      - {step: ask, type: collect, slot: handle, ask_action: action_listen}
`, diag.CodeInvalidValue, []string{`8:62 ask_action "action_listen" is one of soni's built-in actions, which ask nothing: name an action that asks the question, or use message or response`}},
		{"unless the project declares its own", `actions:
  action_listen: {}
` + head + `      - {step: ask, type: collect, slot: handle, ask_action: action_listen}
`, diag.CodeInvalidValue, nil},
		{"only a collect has one", head + `      - {step: hi, type: say, message: hi, ask_action: action_ask_handle}
`, diag.CodeUnknownKey, []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := codeDiags(t, tc.src, tc.code)
			if tc.want != nil && len(tc.want) == 0 {
				assert.NotEmpty(t, got)
				return
			}
			assert.Equal(t, tc.want, got)
		})
	}

	r := CompileSource("t.yaml", []byte(`actions:
  action_ask_handle: {}
`+head+`      - {step: ask, type: collect, slot: handle, ask_action: action_ask_handle}
      - {step: ask2, type: collect, slot: handle, ask_action: action_ask_handle, message: "Your handle?", force: true}
`), Options{})
	require.NotNil(t, r.Program)
	f := r.Program.Flow("f")
	assert.Equal(t, "action_ask_handle", f.Nodes[0].AskAction)
	assert.Nil(t, f.Nodes[0].Message, "no implicit utter_ask_handle")
	assert.Equal(t, "action_ask_handle", f.Nodes[1].AskAction)
	assert.Equal(t, "Your handle?", f.Nodes[1].Message.Src)
	for _, d := range r.Diags {
		assert.NotEqual(t, diag.Error, d.Severity, "%s", d)
	}
}
