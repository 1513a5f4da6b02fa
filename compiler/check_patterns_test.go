package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

func TestCheckPatterns(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{"conversation and flow slots", `slots:
  code: {type: text, pattern: "(abc"}
  pin: {pattern: '[0-9]{4}x**'}
flows:
  main:
    slots:
      - {name: zip, pattern: "[0-9"}
    steps:
      - {step: a, type: collect, slot: zip, message: zip?}
      - {step: b, type: collect, slot: code, message: code?}
      - {step: c, type: collect, slot: pin, message: pin?}
`, []string{
			"2:32 invalid pattern \"(abc\" of slot \"code\": missing closing ): `(abc`; write a Go (RE2) regular expression",
			"3:28 invalid pattern \"[0-9]{4}x**\" of slot \"pin\": invalid nested repetition operator: `**`; write a Go (RE2) regular expression",
			"7:31 invalid pattern \"[0-9\" of slot \"zip\": missing closing ]: `[0-9`; write a Go (RE2) regular expression",
		}},
		{"escaped pattern points at the bad part in the file", `slots:
  code: {pattern: "\\d+(?<x"}
flows:
  main:
    steps:
      - {step: a, type: collect, slot: code, message: code?}
`, []string{"2:24 invalid pattern \"\\\\d+(?<x\" of slot \"code\": invalid named capture: `(?<x`; write a Go (RE2) regular expression"}},
		{"valid patterns", `slots:
  code: {pattern: '\d{3}-[A-Z]+'}
flows:
  main:
    steps:
      - {step: a, type: collect, slot: code, message: code?}
`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, codeDiags(t, tc.src, diag.CodeBadPattern))
		})
	}
}
