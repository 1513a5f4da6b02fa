package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckReplaces(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{"a rename", `flows:
  main:
    steps:
      - {step: ask_the_amount, type: say, message: hi, replaces: [ask_amount, amount]}
`, nil},
		{"a replaced id that is still a step", `flows:
  main:
    steps:
      - {step: a, type: say, message: hi, replaces: [b]}
      - {step: b, type: say, message: hi}
`, []string{`4:54 step "a" replaces "b", which is still a step of flow "main": a session paused there could resume at either; remove it from replaces or rename the other step`}},
		{"an id two steps replace", `flows:
  main:
    steps:
      - {step: a, type: say, message: hi, replaces: [old]}
      - {step: b, type: say, message: hi, replaces: [old]}
`, []string{`5:54 step "b" replaces "old", which a step already replaces at t.yaml:4:54: a former id resumes at one step; keep one`}},
		{"other flows may reuse it", `flows:
  main:
    steps:
      - {step: a, type: say, message: hi, replaces: [old]}
  other:
    steps:
      - {step: a, type: say, message: hi, replaces: [old]}
`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, codeDiags(t, tc.src, diag.CodeDuplicateStep))
		})
	}
}

// TestReplacesLowered: a step's replaces and the version_policy setting
// reach the program.
func TestReplacesLowered(t *testing.T) {
	t.Parallel()
	r := CompileSource("t.yaml", []byte("settings:\n  version_policy: upgrade\nflows:\n  main:\n    steps:\n      - {step: b, type: say, message: hi, replaces: [a]}\n"), Options{})
	require.NotNil(t, r.Program, r.Diags.Err())
	assert.Equal(t, []string{"a"}, r.Program.Flow("main").Nodes[0].Replaces)
	assert.Equal(t, "upgrade", r.Program.Settings.VersionPolicy)
}
