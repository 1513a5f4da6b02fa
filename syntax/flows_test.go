package syntax

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
)

const sample = `# A sample project file.
version: "1.0"
slots:
  amount:  # how much
    type: number
flows:
  transfer:
    description: Send money
    trigger:
      intents:
        - send money  # the usual words
    steps:
      # Ask first.
      - step: ask
        type: collect
        slot: amount
        message: "How much?"
      - step: loop
        type: while
        condition: "amount > 0"
        do:
          # inline body
          - step: body
            type: say
            message: "{amount}"
            jump_to: __end_flow__
responses:
  utter_hi:
    - text: Hi
      # a button
      buttons:
        - {title: "Yes", payload: /yes}
# the end
`

func TestDecodeFlows(t *testing.T) {
	f, err := DecodeFlows("p.yaml", []byte(sample))
	require.NoError(t, err)
	assert.Equal(t, "1.0", f.Version.V)
	require.Len(t, f.Slots, 1)
	assert.Equal(t, ir.TypeNumber, f.Slots[0].Resolved)
	assert.Equal(t, Pos{File: "p.yaml", Line: 4, Col: 3}, f.Slots[0].Pos)
	require.Len(t, f.Flows, 1)
	fl := f.Flows[0]
	assert.Equal(t, "transfer", fl.Name.V)
	assert.Equal(t, []string{"send money"}, strs(fl.Triggers))
	require.Len(t, fl.Steps, 3)
	assert.Equal(t, 2, fl.Main)
	body := fl.Steps[2]
	assert.True(t, body.Inline)
	assert.Equal(t, "flows.transfer.steps[1].do[0]", body.Path)
	assert.Equal(t, ir.EndStep, body.JumpTo.V, "__end_flow__ reads as __end__")
	assert.Equal(t, Pos{File: "p.yaml", Line: 17, Col: 19}, fl.Steps[0].Message.Pos)
	require.Len(t, f.Responses, 1)
	assert.Equal(t, "/yes", f.Responses[0].Variations[0].Buttons[0].Payload.V)

	// Each comment is on the node it belongs to.
	assert.Equal(t, &Comment{Head: []string{"A sample project file."}}, f.Comments.Get("version"))
	assert.Equal(t, &Comment{Line: "how much"}, f.Slots[0].Comments.Get(""))
	assert.Equal(t, &Comment{Line: "the usual words"}, fl.Comments.Get("trigger.intents[0]"))
	assert.Equal(t, &Comment{Head: []string{"Ask first."}}, fl.Steps[0].Comments.Get(""))
	assert.Equal(t, &Comment{Head: []string{"inline body"}}, body.Comments.Get(""))
	assert.Equal(t, &Comment{Head: []string{"a button"}}, f.Responses[0].Variations[0].Comments.Get("buttons"))
	assert.Equal(t, []string{"the end"}, f.Foot)
}

func strs(ss []Str) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.V
	}
	return out
}

func TestDecodeFlowsErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"invalid YAML", "flows: [\n", "p.yaml: invalid YAML"},
		{"two documents", "a: 1\n---\nb: 2\n", "more than one YAML document"},
		{"not a mapping", "- a\n", "is a list, not a mapping"},
		{"duplicate key", "flows: {}\nflows: {}\n", `key "flows" is already defined at 1:1`},
		{"version", "version: \"2.0\"\n", `unsupported version "2.0"`},
		{"alias bomb", bomb(), "this looks like an alias bomb"},
		{"deep nesting", "flows: " + strings.Repeat("[", 150) + strings.Repeat("]", 150) + "\n", "nesting is deeper than 100 levels"},
		{"not UTF-8", "flows: \xff\n", "not UTF-8 text"},
		{"unknown alias", "flows: *nothing\n", `alias "nothing" refers to no anchor`},
		{"recursive alias", "flows: &loop [a, *loop]\n", `alias "loop" refers to the anchor it is inside of`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeFlows("p.yaml", []byte(tt.src))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	_, err := DecodeFlows("p.yaml", []byte("version: \"2.0\"\n"))
	var le diag.ListError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, diag.CodeVersion, le[0].Code)
}

// projectFiles lists the example projects' and test data's project files
// (not conversation tests).
func projectFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, root := range []string{"../flows", "../testdata"} {
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if base := d.Name(); base == "tests" || strings.HasPrefix(base, ".") || base == "rasa" {
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml") {
				src, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				if isProjectFile(src) {
					out = append(out, p)
				}
			}
			return nil
		})
		require.NoError(t, err)
	}
	return out
}

// isProjectFile reports whether a file defines flows, slots, actions or
// responses at its top level.
func isProjectFile(src []byte) bool {
	for _, k := range []string{"flows:", "slots:", "actions:", "responses:", "validators:"} {
		for _, l := range strings.Split(string(src), "\n") {
			if strings.HasPrefix(l, k) {
				return true
			}
		}
	}
	return false
}

// TestSharedEmptyStepGroupsStayEmpty: steps without a group's fields share
// one empty group, which decoding never writes to.
func TestSharedEmptyStepGroupsStayEmpty(t *testing.T) {
	for _, p := range projectFiles(t) {
		src, err := os.ReadFile(p)
		require.NoError(t, err)
		_, _ = DecodeFlows(p, src)
	}
	assert.Zero(t, noCollect)
	assert.Zero(t, noSet)
	assert.Zero(t, noBranch)
	assert.Zero(t, noWhile)
	assert.Zero(t, noAction)
	assert.Zero(t, noLink)
	assert.Zero(t, noConfirm)
}

// TestEncodeWritersFile: a file built by a writer (no positions, steps
// made with and without NewStep) encodes with the comments it set, and
// decodes back to the same definitions.
func TestEncodeWritersFile(t *testing.T) {
	ask := NewStep(nil, Pos{}, "")
	ask.ID, ask.Type, ask.Slot, ask.Message = S("ask"), S("collect"), S("amount"), S("How much?")
	ask.Collect().Validator = S("value > 0")
	ask.Comments.AddHead("", "Rasa asked with a form.\nneeds a person: check the form's rules")
	ask.Comments.SetLine("slot", "soni:ignore W017")
	done := &Step{ID: S("done"), Type: S("say"), Message: S("Sent {amount}.")}
	fl := &Flow{Name: S("send"), Description: S("Send money"), Triggers: []Str{S("send money")}, Steps: []*Step{ask, done}}
	fl.Comments.AddHead("", "Imported from rasa.")
	f := &File{Version: S("1.0"), Flows: []*Flow{fl}, Foot: []string{"the end"}}
	f.Comments.AddHead("", "Written by a test.")
	out, err := Encode(f)
	require.NoError(t, err)
	assert.Equal(t, `# Written by a test.
version: "1.0"
flows:
  # Imported from rasa.
  send:
    description: "Send money"
    trigger:
      intents:
        - "send money"
    steps:
      # Rasa asked with a form.
      # needs a person: check the form's rules
      - step: ask
        type: collect
        slot: amount  # soni:ignore W017
        message: "How much?"
        validator: "value > 0"
      - step: done
        type: say
        message: "Sent {amount}."
# the end
`, string(out))
	back, err := DecodeFlows("p.yaml", out)
	require.NoError(t, err)
	require.Len(t, back.Flows, 1)
	require.Len(t, back.Flows[0].Steps, 2)
	assert.Equal(t, "value > 0", back.Flows[0].Steps[0].Validator.V)
	assert.Equal(t, &Comment{Line: "soni:ignore W017"}, back.Flows[0].Steps[0].Comments.Get("slot"))
}

// TestFootComments: a comment after the last item of a list, indented
// as its items, stays the list's closing remark through decode and encode.
func TestFootComments(t *testing.T) {
	src := `version: "1.0"
responses:
  utter_a:
    - text: A
      buttons:
        - title: "Yes"
          payload: "/yes"
        # Rasa (kept as a comment):
        # - title: "Maybe"
  utter_b:
    - text: B
`
	f, err := DecodeFlows("r.yaml", []byte(src))
	require.NoError(t, err)
	assert.Equal(t, &Comment{Foot: []string{"Rasa (kept as a comment):", `- title: "Maybe"`}}, f.Responses[0].Variations[0].Comments.Get("buttons"))
	out, err := Encode(f)
	require.NoError(t, err)
	assert.Equal(t, src, string(out))
}

// bomb returns a file whose aliases double at each level.
func bomb() string {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x]\n")
	for i := 1; i < 30; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [*a%d, *a%d]\n", i, i, i-1, i-1)
	}
	return b.String()
}

// FuzzDecodeFlows: no input makes DecodeFlows or Encode panic, and what
// Encode writes decodes again.
func FuzzDecodeFlows(f *testing.F) {
	f.Add([]byte(sample))
	f.Add([]byte(bomb()))
	f.Add([]byte("flows: {a: {steps: [{step: x, type: while, do: [{step: y}]}]}}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		file, _ := DecodeFlows("f.yaml", src)
		if file == nil {
			return
		}
		out, err := Encode(file)
		if err != nil {
			return
		}
		if _, err := DecodeFlows("f.yaml", out); err != nil {
			var le diag.ListError
			if !errors.As(err, &le) {
				t.Fatalf("the encoding of %q does not decode: %v\n%s", src, err, out)
			}
		}
	})
}
