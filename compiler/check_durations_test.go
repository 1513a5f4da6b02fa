package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

func TestCheckDurations(t *testing.T) {
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
