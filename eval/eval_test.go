package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/soni-dev/soni/understand"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func golden(t *testing.T, path, got string) {
	t.Helper()
	if os.Getenv("SONI_UPDATE") != "" {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run with SONI_UPDATE=1 to write %s", path)
	assert.Equal(t, string(want), got, "%s is out of date: SONI_UPDATE=1 go test ./eval", path)
}

// TestRulesOnTheSmallSet pins the whole report, text and JSON, of the
// built-in rules on a small set.
func TestRulesOnTheSmallSet(t *testing.T) {
	path := "testdata/small.eval.yaml"
	f, prog, dir, err := Load(path)
	require.NoError(t, err)
	r, err := Run(context.Background(), path, f, prog, dir, understand.New(prog))
	require.NoError(t, err)
	assert.Equal(t, 8, r.Total)
	var text bytes.Buffer
	WriteText(&text, r)
	golden(t, "testdata/small.golden.txt", text.String())
	js, err := json.MarshalIndent(r, "", "  ")
	require.NoError(t, err)
	golden(t, "testdata/small.golden.json", string(js)+"\n")
}

// always answers every message with the same commands.
type always []vm.Command

func (a always) Understand(context.Context, string, vm.View) ([]vm.Command, error) {
	return a, nil
}

// TestScoring: a layer that always says fallback is right once, and
// every other case is a confusion; one that says nothing is a fallback.
func TestScoring(t *testing.T) {
	path := "testdata/small.eval.yaml"
	f, prog, dir, err := Load(path)
	require.NoError(t, err)
	for _, u := range []vm.Understander{always{{Kind: vm.CmdFallback}}, always{}} {
		r, err := Run(context.Background(), path, f, prog, dir, u)
		require.NoError(t, err)
		assert.Equal(t, 1, r.Correct)
		assert.InDelta(t, 1.0/8, r.Accuracy, 1e-9)
		assert.Len(t, r.Confusions, 7)
		assert.Equal(t, Kind{Total: 1, Correct: 1, Accuracy: 1}, r.ByKind["fallback"])
		assert.Equal(t, Kind{Total: 4, Correct: 0, Accuracy: 0}, r.ByKind["start_flow"])
		assert.Equal(t, "[fallback]", r.Confusions[0].Got)
	}
	// Extra commands are wrong too: the answer is compared whole.
	r, err := Run(context.Background(), path, f, prog, dir, always{{Kind: vm.CmdFallback}, {Kind: vm.CmdChitchat}})
	require.NoError(t, err)
	assert.Equal(t, 0, r.Correct)
}

// TestBadFiles: every mistake in an eval file is named.
func TestBadFiles(t *testing.T) {
	tests := []struct {
		name, body, err string
	}{
		{"not yaml", "flows: [", "eval file"},
		{"unknown field", "flows: ../../flows/banking\ncases: []\n", `unknown field "cases"`},
		{"no cases", "flows: ../../flows/banking\n", "needs flows: (the project) and eval_cases"},
		{"no project", "flows: nowhere\neval_cases: [{message: hi, expect: [fallback]}]\n", "has errors"},
		{"bad before", "flows: ../../flows/banking\neval_cases: [{message: hi, before: [3], expect: [fallback]}]\n", "before 1 is neither a message nor {commands: [...]}"},
		{"bad commands", "flows: ../../flows/banking\neval_cases: [{message: hi, before: [{commands: [{start_flow: nope}]}], expect: [fallback]}]\n", `before 1`},
		{"bad expect", "flows: ../../flows/banking\neval_cases: [{message: hi, expect: [{set_slot: 3}]}]\n", "expect"},
		{"unknown flow expected", "flows: ../../flows/banking\neval_cases: [{message: hi, expect: [{start_flow: nope}]}]\n", `"nope"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			banking, err := filepath.Abs("../flows/banking")
			require.NoError(t, err)
			path := filepath.Join(t.TempDir(), "bad.eval.yaml")
			body := strings.ReplaceAll(tt.body, "../../flows/banking", filepath.ToSlash(banking))
			require.NoError(t, os.WriteFile(path, []byte(body), 0o644))
			f, prog, dir, err := Load(path)
			if err == nil {
				_, err = Run(context.Background(), path, f, prog, dir, understand.New(prog))
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.err)
		})
	}
}
