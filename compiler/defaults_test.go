package compiler

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
)

const flowA = "flows:\n  a:\n    steps:\n      - {step: s, type: say, message: hi}\n"

func compileOK(t *testing.T, src string) *ir.Program {
	t.Helper()
	r := CompileSource("p.yaml", []byte(src), Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	return r.Program
}

// TestDefaultPatterns checks that every program carries soni's default
// flow of each pattern and the default responses, marked Builtin, at
// their real positions in the embedded YAML file.
func TestDefaultPatterns(t *testing.T) {
	t.Parallel()
	p := compileOK(t, flowA)
	src, err := defaultFiles.ReadFile("defaults/patterns.yaml")
	require.NoError(t, err)
	lines := bytes.Split(src, []byte("\n"))
	lineOf := func(pos diag.Pos) string {
		require.Equal(t, ir.DefaultsFile, pos.File)
		require.True(t, pos.Line > 0 && pos.Line <= len(lines), "line %d", pos.Line)
		return string(lines[pos.Line-1])
	}
	for _, name := range ir.Patterns {
		f := p.Flow(name)
		require.NotNil(t, f, name)
		assert.True(t, f.Builtin, name)
		assert.Equal(t, "  "+name+":", lineOf(f.Pos), "the flow's position is its key in the file")
		for _, n := range f.Nodes {
			assert.Contains(t, lineOf(n.Pos), "step: "+n.ID, "%s.%s", name, n.ID)
		}
	}
	var names []string
	for _, r := range p.Responses {
		assert.True(t, r.Builtin, r.Name)
		assert.Equal(t, "  "+r.Name+":", lineOf(r.Pos))
		names = append(names, r.Name)
	}
	assert.ElementsMatch(t, ir.DefaultResponses, names, "ir.DefaultResponses lists the file's responses")
	assert.False(t, p.Flow("a").Builtin)

	greet := p.Response(ir.ResponseGreet)
	require.Len(t, greet.Variations, 2)
	assert.Equal(t, []ir.SlotCondition{{Slot: "question_pending", Value: true}}, greet.Variations[0].Condition)
	assert.Equal(t, "¡Hola!", greet.Variations[0].Translation["es"].Src)
	assert.Equal(t, "Hello! How can I help you?", greet.Variations[1].Text.Src)
}

// TestDefaultPatternsYieldToTheProject checks that a project's own
// pattern flow and response replace the defaults of the same name.
func TestDefaultPatternsYieldToTheProject(t *testing.T) {
	t.Parallel()
	p := compileOK(t, flowA+`  pattern_cancel_flow:
    steps:
      - {step: bye, type: say, message: "Stopped."}
      - {step: cancel, type: action, call: action_cancel_flow}
responses:
  utter_greet:
    - text: "Hi there"
`)
	f := p.Flow(ir.PatternCancelFlow)
	assert.False(t, f.Builtin)
	assert.Equal(t, "p.yaml", f.Pos.File)
	r := p.Response(ir.ResponseGreet)
	assert.False(t, r.Builtin)
	assert.Equal(t, "Hi there", r.Variations[0].Text.Src)
	n := 0
	for _, f := range p.Flows {
		if f.Name == ir.PatternCancelFlow {
			n++
		}
	}
	assert.Equal(t, 1, n)
	assert.True(t, slices.IsSortedFunc(p.Flows, func(a, b *ir.Flow) int { return strings.Compare(a.Name, b.Name) }))
	assert.True(t, slices.IsSortedFunc(p.Responses, func(a, b *ir.Response) int { return strings.Compare(a.Name, b.Name) }))
}

// TestDefaultPatternsFollowTheSettings checks the settings that configure
// the defaults: a message setting is the text of its response, at the
// setting's position; chitchat_message and handoff choose other flows.
func TestDefaultPatternsFollowTheSettings(t *testing.T) {
	t.Parallel()
	t.Run("messages", func(t *testing.T) {
		src := "settings:\n  fallback_message: \"Pardon?\"\n  chitchat_message: \"I'm a bot.\"\n  handoff: \"Call 555.\"\n" + flowA
		p := compileOK(t, src)
		lines := strings.Split(src, "\n")
		for name, want := range map[string]struct {
			text string
			line int
		}{ir.ResponseAskRephrase: {"Pardon?", 2}, ir.ResponseChitchat: {"I'm a bot.", 3}, ir.ResponseHumanHandoff: {"Call 555.", 4}} {
			r := p.Response(name)
			require.Len(t, r.Variations, 1, name)
			assert.Equal(t, want.text, r.Variations[0].Text.Src, name)
			assert.Nil(t, r.Variations[0].Translation, name)
			col := strings.Index(lines[want.line-1], want.text) + 1
			assert.Equal(t, diag.Pos{File: "p.yaml", Line: want.line, Col: col}, r.Variations[0].Text.Pos, name)
			assert.True(t, r.Builtin)
		}
		chitchat := p.Flow(ir.PatternChitchat)
		require.Len(t, chitchat.Nodes, 1)
		assert.Equal(t, ir.ResponseChitchat, chitchat.Nodes[0].Message.Response)
		assert.Equal(t, ir.DefaultsDir+"chitchat_message.yaml", chitchat.Pos.File)
		handoff := p.Flow(ir.PatternHumanHandoff)
		assert.Equal(t, "Says how to reach a person (soni's default)", handoff.Description)
		assert.Equal(t, ir.ResponseHumanHandoff, handoff.Nodes[0].Message.Response)
	})
	t.Run("handoff flow", func(t *testing.T) {
		p := compileOK(t, "settings:\n  handoff: agent\n"+flowA+"  agent:\n    steps:\n      - {step: s, type: say, message: one moment}\n")
		f := p.Flow(ir.PatternHumanHandoff)
		require.Len(t, f.Nodes, 1)
		assert.Equal(t, ir.KindLink, f.Nodes[0].Kind)
		assert.Equal(t, "agent", f.Nodes[0].Target)
		assert.True(t, f.Builtin)
		assert.Nil(t, p.Flow(handoffTarget), "the stand-in flow stays out of the program")
		assert.Equal(t, []string{"Sorry, I can't put you through to a person here, but I'm happy to help with what I can do."},
			[]string{p.Response(ir.ResponseHumanHandoff).Variations[0].Text.Src})
		// Another program's default is not changed by this one's link.
		other := compileOK(t, flowA)
		assert.Equal(t, ir.KindSay, other.Flow(ir.PatternHumanHandoff).Nodes[0].Kind)
	})
}
