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

// TestEncodeTestsBuiltRoundTrip writes a file built in code with every
// section and reads it back to the same model.
func TestEncodeTestsBuiltRoundTrip(t *testing.T) {
	f := &TestFile{
		Comments: []string{"built in code"},
		Flows:    "../flows/bank", HasFlows: true,
		Now:      "2027-03-10",
		Fixtures: []*Fixture{{Name: "rich", Slots: []SlotValue{{Slot: "balance", Value: int64(900), HasValue: true}}, Tail: []string{"a slot left out"}}},
		Metadata: []*MetadataDef{{Name: "web", Value: NewData(map[string]any{"channel": "web"}, false)}},
		Services: []*Service{{Env: "API_URL", Command: []string{"go", "run", "./cmd/api"}}},
		Stubs: []*Stub{
			{Action: "check", Outputs: NewData(map[string]any{"ok": true, "n": 1.5}, false), Comments: []string{"kept"}},
			{Case: "c", Action: "send", Error: "no route", Fails: true},
		},
		ValidatorStubs: []*ValidatorStub{{Validator: "iban", Valid: true, Value: "ES12", HasValue: true}},
		CasesComments:  []string{"before the cases"},
		Cases: []*TestCase{{Name: "c", Fixtures: []NameRef{{Name: "rich"}}, Metadata: NameRef{Name: "web"}, Comments: []string{"a case"}, Tail: []string{"the end"},
			Steps: []*TestStep{
				{Kind: "user", Text: "yes: now", HasCommands: true, Commands: []*Command{{Kind: "affirm"}, {Kind: "set_slot", Arg: NewData(map[string]any{"to": "Ana"}, true)}},
					HasOrdered: true, Ordered: true,
					Assertions: []*Assertion{
						{Kind: "flow_started", Text: "transfer", StepID: "ask"},
						{Kind: "slot_was_set", Slots: []SlotValue{{Slot: "to", Value: "Ana", HasValue: true}}},
						{Kind: "bot_uttered", Response: "utter_ok", TextMatches: "^Ok", HasTextMatches: true, HasButtons: true, Buttons: []TestButton{{Title: "Yes", Payload: "/affirm"}}, Comments: []string{"checked"}},
						{Kind: "pattern_clarification_contains", Names: []string{"a", "b"}},
					}, AssertionsTail: []string{"after"}},
				{Kind: "bot", Text: "Done.", Comments: []string{"the reply"}},
				{Kind: "slot_was_set", Slots: []SlotValue{{Slot: "to"}, {Slot: "n", Value: []any{"x", "y"}, HasValue: true}}},
			}}},
	}
	out, err := EncodeTests(f)
	require.NoError(t, err)
	g, ds := DecodeTests("t.yaml", out)
	require.False(t, ds.HasErrors(), "%v\n%s", ds, out)
	assert.Equal(t, "../flows/bank", g.Flows)
	assert.Equal(t, "2027-03-10", g.Now)
	require.Len(t, g.Fixtures, 1)
	assert.Equal(t, "rich", g.Fixtures[0].Name)
	assert.Equal(t, int64(900), g.Fixtures[0].Slots[0].Value)
	assert.Equal(t, map[string]any{"channel": "web"}, g.Metadata[0].Value.Go())
	assert.Equal(t, []string{"go", "run", "./cmd/api"}, g.Services[0].Command)
	assert.Equal(t, map[string]any{"ok": true, "n": 1.5}, g.Stubs[0].Outputs.Go())
	assert.Equal(t, "no route", g.Stubs[1].Error)
	assert.Equal(t, "c", g.Stubs[1].Case)
	assert.True(t, g.ValidatorStubs[0].Valid)
	assert.Equal(t, "ES12", g.ValidatorStubs[0].Value)
	c := g.Cases[0]
	assert.Equal(t, "c", c.Name)
	assert.Equal(t, "rich", c.Fixtures[0].Name)
	assert.Equal(t, "web", c.Metadata.Name)
	require.Len(t, c.Steps, 3)
	u := c.Steps[0]
	assert.Equal(t, "yes: now", u.Text)
	require.Len(t, u.Commands, 2)
	assert.Equal(t, "affirm", u.Commands[0].Kind)
	assert.Equal(t, map[string]any{"to": "Ana"}, u.Commands[1].Arg.Go())
	assert.True(t, u.Ordered)
	require.Len(t, u.Assertions, 4)
	assert.Equal(t, "ask", u.Assertions[0].StepID)
	assert.Equal(t, "Ana", u.Assertions[1].Slots[0].Value)
	assert.Equal(t, []TestButton{{Title: "Yes", Payload: "/affirm"}}, u.Assertions[2].Buttons)
	assert.Equal(t, "^Ok", u.Assertions[2].TextMatches)
	assert.Equal(t, []string{"a", "b"}, u.Assertions[3].Names)
	assert.Equal(t, "Done.", c.Steps[1].Text)
	assert.Equal(t, []SlotValue{{Slot: "to", Pos: c.Steps[2].Slots[0].Pos}, {Slot: "n", Value: []any{"x", "y"}, HasValue: true, Pos: c.Steps[2].Slots[1].Pos}}, c.Steps[2].Slots)
	for _, comment := range []string{"# built in code\n", "# a slot left out\n", "# kept\n", "# before the cases\n", "# a case\n", "# the end\n", "# checked\n", "# after\n", "# the reply\n"} {
		assert.Contains(t, string(out), comment)
	}
	again, err := EncodeTests(g)
	require.NoError(t, err)
	assert.Equal(t, string(out), string(again), "a decoded file is written as it was")
}
