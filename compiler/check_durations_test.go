package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

func TestCheckDurations(t *testing.T) {
	t.Parallel()
	const head = "version: \"1.0\"\nactions:\n  a:\n    run:\n"
	const tail = "flows:\n  f:\n    trigger: {intents: [go]}\n    steps:\n      - {step: s, type: action, call: a}\n"
	tests := []struct {
		name, run string
		want      []string
	}{
		{"go duration", "      exec: [x]\n      timeout: 5s\n", nil},
		{"seconds", "      exec: [x]\n      timeout: 5\n", nil},
		{"fraction", "      exec: [x]\n      timeout: 2.5\n", nil},
		{"typo", "      exec: [x]\n      timeout: 5 seconds\n", []string{`6:16 action "a": invalid duration "5 seconds": write a number of seconds or a duration such as 10s or 500ms`}},
		{"zero", "      exec: [x]\n      timeout: 0s\n", []string{`6:16 action "a": invalid duration "0s": it must be positive`}},
		{"http and backoff", "      http:\n        url: http://127.0.0.1:1/a\n        timeout: soon\n        retry: {attempts: 2, backoff: -1s}\n", []string{
			`7:18 action "a": invalid duration "soon": write a number of seconds or a duration such as 10s or 500ms`,
			`8:39 action "a": invalid duration "-1s": it must be positive`,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, codeDiags(t, head+tc.run+tail, diag.CodeInvalidValue))
		})
	}
}

// TestSessionExpirationSetting: a duration or a number of minutes; a
// typo is an error; the IR keeps it as a Go duration.
func TestSessionExpirationSetting(t *testing.T) {
	t.Parallel()
	const tail = "flows:\n  f:\n    trigger: {intents: [go]}\n    steps:\n      - {step: s, type: say, message: hi}\n"
	tests := []struct {
		setting, ir string
		want        []string
	}{
		{"session_expiration: 60m", "1h0m0s", nil},
		{"session_expiration: 30", "30m0s", nil},
		{"session_expiration: an hour", "", []string{`2:3 session_expiration "an hour" is not a positive duration: write 60m, 2h or a number of minutes`}},
		{"session_expiration: -5m", "", []string{`2:3 session_expiration "-5m" is not a positive duration: write 60m, 2h or a number of minutes`}},
	}
	for _, tc := range tests {
		src := "settings:\n  " + tc.setting + "\n  carry_over_slots: false\n" + tail
		assert.Equal(t, tc.want, codeDiags(t, src, diag.CodeInvalidValue), tc.setting)
		if tc.want == nil {
			r := CompileSource("t.yaml", []byte(src), Options{})
			if assert.NotNil(t, r.Program) {
				assert.Equal(t, tc.ir, r.Program.Settings.SessionExpiration)
				assert.True(t, r.Program.Settings.DropSlotsOnExpiry)
			}
		}
	}
}
