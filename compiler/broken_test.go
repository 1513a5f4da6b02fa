package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBrokenFileComesFirst: a file that does not parse is reported first,
// and what it would have defined or used is not blamed on the other files
// without saying so.
func TestBrokenFileComesFirst(t *testing.T) {
	t.Parallel()
	main := []byte(`version: "1.0"
slots:
  unused_here: {type: text}
flows:
  main:
    trigger:
      intents: ["hello"]
    steps:
      - step: go
        type: call
        target: helper
      - step: bye
        type: say
        message: "Bye {name}"
`)
	broken := []byte(`version: "1.0"
slots:
  name: {type: text}
flows:
  helper:
    steps:
      - step: ask
        type: collect
        slot: name
         message: "Name?"
`)
	fixed := []byte(`version: "1.0"
slots:
  name: {type: text}
flows:
  helper:
    steps:
      - step: ask
        type: collect
        slot: name
        message: "Name?"
      - step: tell
        type: say
        message: "{unused_here}"
`)
	render := func(ds diag.List) []string {
		var out []string
		for _, d := range ds {
			out = append(out, d.Code+" "+d.Pos.String()+" "+d.Message)
		}
		return out
	}
	r := compileInputs([]input{{"a.yaml", main}, {"b.yaml", broken}}, Options{}.withDefaults(), nil, true, true)
	assert.Equal(t, []string{
		"E003 b.yaml:9:15 invalid YAML: mapping value is not allowed in this context",
		`W004 a.yaml:3:3 slot "unused_here" is declared but never used: collect, set or read it in a flow, or remove its declaration; but "b.yaml" could not be parsed and may use it: fix that file first`,
		`E031 a.yaml:11:17 unknown flow "helper" in call: no flow of the project has this name; but "b.yaml" could not be parsed and may define it: fix that file first`,
		`E032 a.yaml:14:24 unknown slot "name" in template: declare it in the top-level slots or the flow's slots, or fix its name; but "b.yaml" could not be parsed and may define it: fix that file first`,
	}, render(r.Diags))

	r = compileInputs([]input{{"a.yaml", main}, {"b.yaml", broken}, {"c.yaml", []byte("flows: [")}}, Options{}.withDefaults(), nil, true, true)
	require.GreaterOrEqual(t, len(r.Diags), 3)
	assert.Equal(t, diag.CodeYAMLSyntax, r.Diags[0].Code)
	assert.Equal(t, diag.CodeYAMLSyntax, r.Diags[1].Code)
	assert.Contains(t, r.Diags[3].Message, `but "b.yaml" or "c.yaml" could not be parsed; one may define it`)

	r = compileInputs([]input{{"a.yaml", main}, {"b.yaml", fixed}}, Options{}.withDefaults(), nil, true, true)
	for _, d := range r.Diags {
		assert.NotContains(t, d.Message, "could not be parsed")
		assert.Equal(t, diag.Warning, d.Severity, d.String())
	}
	require.NotNil(t, r.Program, "fixed, the project compiles")
}
