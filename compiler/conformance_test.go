package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

// This file holds regression tests for places where soni disagreed with
// the language contract (shared spec, docs/language.md), found by
// reviewing the compiler against it.

// oneFlow is a minimal valid flow appended to the top-level keys under test.
const oneFlow = `flows:
  f:
    trigger: {intents: [go]}
    steps:
      - {step: a, type: say, message: hi}
`

func TestVersionValues(t *testing.T) {
	for _, tc := range []struct {
		version string
		want    []string
	}{
		{`"1.0"`, nil},
		{`'1.0'`, nil},
		{`1.0`, nil},
		{`1`, nil},
		{`1.00`, nil},
		{`"1"`, []string{`1:11 unsupported version "1": this soni supports version "1.0"`}},
		{`"1.0.0"`, []string{`1:11 unsupported version "1.0.0": this soni supports version "1.0"`}},
		{`2.0`, []string{`1:10 unsupported version "2.0": this soni supports version "1.0"`}},
		{`"v1.0"`, []string{`1:11 unsupported version "v1.0": this soni supports version "1.0"`}},
		// Not a scalar: the schema reports the wrong type (E012), and E010
		// does not add a confusing `unsupported version "null"`.
		{`[1.0]`, nil},
		{`{v: 1}`, nil},
		{`null`, nil},
	} {
		t.Run(tc.version, func(t *testing.T) {
			src := "version: " + tc.version + "\n" + oneFlow
			assert.Equal(t, tc.want, codeDiags(t, src, diag.CodeVersion))
		})
	}
}
