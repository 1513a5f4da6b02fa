package compiler

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// codeDiags compiles one file and returns its diagnostics of one code, each
// as "line:col message" with " (suggestion)" when there is one.
func codeDiags(t *testing.T, src, code string) []string {
	t.Helper()
	return inputsDiags(t, []input{{name: "t.yaml", src: []byte(src)}}, code)
}

// inputsDiags compiles several files as one project and returns the
// diagnostics of one code as "file:line:col message (suggestion)" when
// there are several files, "line:col message (suggestion)" otherwise.
func inputsDiags(t *testing.T, inputs []input, code string) []string {
	t.Helper()
	r := compileInputs(inputs, Options{}.withDefaults(), nil, true, true)
	require.NotNil(t, r)
	var out []string
	for _, d := range r.Diags {
		if d.Code != code {
			continue
		}
		s := fmt.Sprintf("%d:%d %s", d.Pos.Line, d.Pos.Col, d.Message)
		if len(inputs) > 1 {
			s = d.Pos.File + ":" + s
		}
		if d.Suggestion != "" {
			s += " (" + d.Suggestion + ")"
		}
		out = append(out, s)
	}
	return out
}

func TestRefUtils(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s         string
		off       int
		line, col int
	}{
		{"abc", 0, 1, 0},
		{"abc", 2, 1, 2},
		{"ab\ncd", 3, 2, 0},
		{"ab\ncd", 4, 2, 1},
		{"né{x}", 3, 1, 3},
		{"", 5, 1, 0},
	} {
		line, col := runeLineCol(tc.s, tc.off)
		assert.Equal(t, [2]int{tc.line, tc.col}, [2]int{line, col}, "%q at %d", tc.s, tc.off)
	}
	for path, want := range map[string]string{
		"flows.f.StepsByID[2].condition":      "condition",
		"flows.f.StepsByID[2].slots.x.expr":   "expr",
		"flows.f.StepsByID[2].do[0].evaluate": "evaluate",
		"slots.amount.validation":             "validation",
		"x":                                   "x",
		"a.b[3]":                              "b",
	} {
		assert.Equal(t, want, lastPathKey(path), path)
	}
	for s, want := range map[string][2]bool{
		"ab_1": {true, true}, "_x": {true, true}, "a-b": {false, true}, "1a": {false, false},
		"": {false, false}, "a b": {false, false}, "-a": {false, false}, "é": {false, false},
	} {
		assert.Equal(t, want[0], isIdentName(s, false), "%q", s)
		assert.Equal(t, want[1], isIdentName(s, true), "%q with dash", s)
	}
}

// TestRefChecksOnMalformedInput compiles malformed projects: the checks of
// this half must neither panic nor depend on map order.
func TestRefChecksOnMalformedInput(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"flows: {a: null}\n",
		"flows: {a: {steps: null}}\n",
		"flows: {a: {steps: [null, 1, [], {}]}}\n",
		"flows: {a: {slots: [null, {}, {name: null}, {pattern: '('}], steps: [{step: x}]}}\n",
		"flows: {a: {steps: [{step: w, type: while, do: [null, {}, [], w, {do: [w]}]}]}}\n",
		"flows: {a: {steps: [{step: s, type: set, slots: {'': 1, x: {expr: null}, y: {}}}]}}\n",
		"flows: {a: {steps: [{type: branch, cases: {'': null, x: [1]}}, {type: action, call: f, map_outputs: {'': null}}]}}\n",
		"flows: {a: {trigger: {intents: [null, 1, '']}, steps: [{type: link, target: null}, {type: call, target: ''}]}}\n",
		"actions: {f: {inputs: [null, {name: null}, {}], outputs: null}}\nflows: {a: {steps: [{type: action, call: f, map_outputs: {x: y}}]}}\n",
		"slots: {'': {type: date}, x: null}\nsettings: null\nflows: {'': {steps: [{step: '', type: set, slots: {'': 2}}]}}\n",
		"flows: {a: {steps: [{step: a, type: say, message: '{'}, {step: b, type: set, condition: ')(', slots: {x: '}'}}]}}\n",
	} {
		t.Run(src, func(t *testing.T) {
			var runs [2][]string
			for i := range runs {
				require.NotPanics(t, func() {
					r := CompileSource("t.yaml", []byte(src), Options{})
					for _, d := range r.Diags {
						runs[i] = append(runs[i], d.String())
					}
				})
			}
			assert.Equal(t, runs[0], runs[1])
		})
	}
}
