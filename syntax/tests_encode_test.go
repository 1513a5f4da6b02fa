package syntax

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQuoteYAML renders scalars that read back unchanged.
func TestQuoteYAML(t *testing.T) {
	tests := []struct {
		in, style string
		flow      bool
		want      string
	}{
		{"Hello!", StylePlain, false, "Hello!"},
		{"Note: x", StylePlain, false, `"Note: x"`},
		{"a # b", StylePlain, false, `"a # b"`},
		{"true", StylePlain, false, `"true"`},
		{"12.5", StylePlain, false, `"12.5"`},
		{"- item", StylePlain, false, `"- item"`},
		{"a, b", StylePlain, true, `"a, b"`},
		{"a, b", StylePlain, false, "a, b"},
		{" padded", StylePlain, false, `" padded"`},
		{"", StylePlain, false, `""`},
		{"it's", StyleSingle, false, "'it''s'"},
		{"two\nlines", StyleSingle, false, `"two\nlines"`},
		{`say "hi" \o/`, StyleDouble, false, `"say \"hi\" \\o/"`},
		{"tab\there\x01", StyleDouble, false, `"tab\there\x01"`},
		{"café ☕", StyleDouble, false, `"café ☕"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := quoteYAML(tt.in, tt.style, tt.flow)
			assert.Equal(t, tt.want, got)
			step := "- user: " + got
			if tt.flow {
				step = "- {user: " + got + "}"
			}
			f, ds := DecodeTests("q.yaml", []byte("test_cases:\n  - test_case: q\n    steps:\n      "+step+"\n"))
			require.False(t, ds.HasErrors(), "%v", ds)
			assert.Equal(t, tt.in, f.Cases[0].Steps[0].Text, "reads back unchanged")
		})
	}
}

// TestEncodeTestsKeepsComments: a decoded file whose steps change is
// written with every comment, key and quoting style it had; only the
// changed, removed and added steps differ.
func TestEncodeTestsKeepsComments(t *testing.T) {
	src := `# head comment
flows: ../project   # the project
test_cases:
  # before the case
  - test_case: a   # trailing
    steps:
      - user: hello   # greet
      # between steps
      - bot: 'Hi!'    # single
      - bot: "Bye"
      - user: more
      - bot: Plain one   # plain
`
	f, ds := DecodeTests("t.yaml", []byte(src))
	require.False(t, ds.HasErrors(), "%v", ds)
	steps := f.Cases[0].Steps
	steps[1].Text = "Hello, it's me"
	steps[4].Text = "Note: quoted"
	f.Cases[0].Steps = append(append([]*TestStep{}, steps[:2]...), steps[3], steps[4], &TestStep{Kind: "bot", Text: "Added"})
	out, err := EncodeTests(f)
	require.NoError(t, err)
	assert.Equal(t, `# head comment
flows: ../project   # the project
test_cases:
  # before the case
  - test_case: a   # trailing
    steps:
      - user: hello   # greet
      # between steps
      - bot: 'Hello, it''s me'    # single
      - user: more
      - bot: "Note: quoted"   # plain
      - bot: 'Added'
`, string(out))

	// Unchanged, the file is written byte for byte.
	f, _ = DecodeTests("t.yaml", []byte(src))
	out, err = EncodeTests(f)
	require.NoError(t, err)
	assert.Equal(t, src, string(out))
}

// TestEncodeTestsLeavesFlowLists: a case whose steps are a flow list is
// left as it was, with a CaseError naming it; the other cases change.
func TestEncodeTestsLeavesFlowLists(t *testing.T) {
	src := "test_cases:\n  - test_case: flow\n    steps: [{user: hi}, {bot: Hi}]\n  - test_case: block\n    steps:\n      - user: hi\n      - bot: Hi\n"
	f, ds := DecodeTests("t.yaml", []byte(src))
	require.False(t, ds.HasErrors(), "%v", ds)
	f.Cases[0].Steps[1].Text = "Hello"
	f.Cases[1].Steps[1].Text = "Hello"
	out, err := EncodeTests(f)
	var ce *CaseError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "flow", ce.Case.Name)
	assert.Contains(t, err.Error(), "flow-style list")
	assert.Equal(t, "test_cases:\n  - test_case: flow\n    steps: [{user: hi}, {bot: Hi}]\n  - test_case: block\n    steps:\n      - user: hi\n      - bot: Hello\n", string(out))
}
