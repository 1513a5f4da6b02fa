package syntax

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDecodeEvals reads every field of an eval file with positions.
func TestDecodeEvals(t *testing.T) {
	src := "# labelled messages\r\nflows: ../flows/banking\r\nnow: 2027-03-10\r\neval_cases:\r\n  - name: send\r\n    before: [\"send money\", {commands: [affirm]}]\r\n    message: Ana\r\n    expect: [{set_slot: {recipient: Ana}}]\r\n    tags: [answer, es]\r\n  - {message: hi, expect: [chitchat]}\r\n"
	f, err := DecodeEvals("x.eval.yaml", []byte(src))
	require.NoError(t, err)
	assert.Equal(t, "../flows/banking", f.Flows)
	assert.Equal(t, "x.eval.yaml:2:8", f.FlowsPos.String())
	assert.Equal(t, "2027-03-10", f.Now)
	require.Len(t, f.Cases, 2)
	c := f.Cases[0]
	assert.Equal(t, "send", c.Name)
	assert.Equal(t, "x.eval.yaml:5:5", c.Pos.String())
	assert.Equal(t, "Ana", c.Message)
	assert.Equal(t, []string{"answer", "es"}, c.Tags)
	require.Len(t, c.Before, 2)
	assert.Equal(t, "send money", c.Before[0].Go())
	assert.Equal(t, map[string]any{"commands": []any{"affirm"}}, c.Before[1].Go())
	assert.Equal(t, map[string]any{"set_slot": map[string]any{"recipient": "Ana"}}, c.Expect[0].Go())
	assert.Equal(t, "hi", f.Cases[1].Message)
}

// TestDecodeEvalsErrors names each mistake with its position.
func TestDecodeEvalsErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"not yaml", "flows: [", "[1:8] invalid YAML: sequence end token ']' not found"},
		{"unknown field", "flows: x\ncases: []\n", `[2:1] unknown field "cases" in an eval file (the fields are flows, now, eval_cases)`},
		{"unknown case field", "eval_cases:\n  - {message: hi, bogus: 1}\n", `[2:19] unknown field "bogus" in an eval case`},
		{"message not a string", "eval_cases:\n  - message: [hi]\n", "[2:14] message must be a string, not a list"},
		{"expect not a list", "eval_cases:\n  - expect: fallback\n", "[2:13] expect must be a list, not a string"},
		{"cases not a list", "eval_cases: 3\n", "[1:13] eval_cases must be a list, not a number"},
		{"alias", "a: &x hi\neval_cases:\n  - {message: hi, expect: [*x]}\n", "[3:28] value is an alias: test files do not follow YAML aliases"},
		{"two documents", "flows: a\n---\nflows: b\n", "[3:1] more than one YAML document"},
		{"not text", "flows: \xff\n", "not UTF-8 text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeEvals("x.eval.yaml", []byte(tt.src))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}
