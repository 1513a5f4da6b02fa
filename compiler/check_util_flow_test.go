package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/syntax"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// warnDiags compiles one file and returns its diagnostics of one code as
// "line:col message", with " (suggestion)" when there is one.
func warnDiags(t *testing.T, src, code string) []string {
	t.Helper()
	return codeDiags(t, src, code)
}

func TestSCCs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		edges [][]int
		want  [][]int
		cycle []bool
	}{
		{"empty", nil, nil, nil},
		{"single", [][]int{nil}, [][]int{{0}}, []bool{false}},
		{"self loop", [][]int{{0}}, [][]int{{0}}, []bool{true}},
		{"chain", [][]int{{1}, {2}, nil}, [][]int{{2}, {1}, {0}}, []bool{false, false, false}},
		{"two cycles", [][]int{{1}, {0, 2}, {3}, {2, -1}}, [][]int{{2, 3}, {0, 1}}, []bool{true, true}},
		{"out of range ignored", [][]int{{5, -2, 1}, {0}}, [][]int{{0, 1}}, []bool{true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			succ := func(i int) []int { return tc.edges[i] }
			got := sccs(len(tc.edges), succ)
			assert.Equal(t, tc.want, got)
			for i, comp := range got {
				assert.Equal(t, tc.cycle[i], isCycle(comp, succ), "component %v", comp)
			}
		})
	}
}

func TestSCCsDeepChain(t *testing.T) {
	t.Parallel()
	// A long cycle must not overflow the stack and must come out whole.
	const n = 200000
	succ := func(i int) []int { return []int{(i + 1) % n} }
	got := sccs(n, succ)
	require.Len(t, got, 1)
	assert.Len(t, got[0], n)
}

func TestBitset(t *testing.T) {
	t.Parallel()
	b := newFullBitset(70)
	require.Len(t, b, 2)
	assert.True(t, b.has(0))
	assert.True(t, b.has(69))
	b.clear(69)
	assert.False(t, b.has(69))
	o := make(bitset, 2)
	o.set(3)
	o.set(65)
	assert.True(t, b.and(o))
	assert.False(t, b.and(o), "a second intersection changes nothing")
	assert.True(t, b.has(3))
	assert.True(t, b.has(65))
	assert.False(t, b.has(4))
	b.andNot(o)
	assert.False(t, b.has(3))
	b.or(o)
	assert.True(t, b.has(65))
}

func TestRefPositions(t *testing.T) {
	t.Parallel()
	inline := syntax.Str{V: "x", Pos: flowPos(3, 10), Mode: syntax.ModeInline}
	block := syntax.Str{V: "x", Pos: flowPos(5, 7), Mode: syntax.ModeBlock}
	approx := syntax.Str{V: "x", Pos: flowPos(9, 4), Mode: syntax.ModeApprox}
	for _, tc := range []struct {
		name string
		src  syntax.Str
		tmpl bool
		off  int
		slot string
		want [2]int
	}{
		{"template inline", flowStrWith(inline, "Hi {name}!"), true, 3, "", [2]int{3, 14}},
		{"template spaces", flowStrWith(inline, "Hi {  name }"), true, 3, "", [2]int{3, 16}},
		{"template runes", flowStrWith(inline, "¿Sí {name}?"), true, 4, "", [2]int{3, 15}},
		{"template block second line", flowStrWith(block, "Hello\nand {name}\n"), true, 10, "", [2]int{6, 12}},
		{"template approx", flowStrWith(approx, "a {b}"), true, 2, "", [2]int{9, 4}},
		{"expr identifier", flowStrWith(inline, "a > 1 && bb < 2"), false, 0, "bb", [2]int{3, 19}},
		{"expr slots index", flowStrWith(inline, `slots["bb"] > 1`), false, 0, "bb", [2]int{3, 17}},
		{"expr slots member", flowStrWith(inline, `slots.bb > 1`), false, 0, "bb", [2]int{3, 16}},
		{"expr first use", flowStrWith(inline, "bb + bb"), false, 0, "bb", [2]int{3, 10}},
		{"expr capitals", flowStrWith(inline, "a AND NOT bb"), false, 0, "bb", [2]int{3, 20}},
		{"expr block", flowStrWith(block, "a &&\n  bb"), false, 0, "bb", [2]int{6, 9}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got [2]int
			if tc.tmpl {
				p := tmplRefPos(tc.src, tc.off)
				got = [2]int{p.Line, p.Col}
			} else {
				p, ok := exprRefPos(tc.src)[tc.slot]
				require.True(t, ok)
				got = [2]int{p.Line, p.Col}
			}
			assert.Equal(t, tc.want, got)
		})
	}
	assert.Empty(t, exprRefPos(flowStrWith(inline, "a >")), "a syntax error gives no positions")
}

func flowStrWith(s syntax.Str, v string) syntax.Str { s.V = v; s.Set = true; return s }

func TestQuoteListAndDidYouMean(t *testing.T) {
	t.Parallel()
	assert.Equal(t, `"a", "b"`, quoteList([]string{"a", "b"}))
	assert.Equal(t, `did you mean "lookup"?`, didYouMean("lokup", []string{"lookup", "other"}))
	assert.Equal(t, "", didYouMean("zzzzzz", []string{"lookup"}))
}

func flowPos(line, col int) diag.Pos { return diag.Pos{File: "t.yaml", Line: line, Col: col} }

// TestFlowWarningsOnOddInput compiles malformed projects: the checks of
// this half must not panic, and must give the same bytes every time.
func TestFlowWarningsOnOddInput(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"flows:\n  f:\n    steps: []\n",
		"flows:\n  f:\n    steps: x\n",
		"flows:\n  f:\n    steps:\n      - x\n      - {}\n      - {type: branch}\n      - {type: call}\n      - {type: link, target: 5}\n",
		"flows:\n  f:\n    steps:\n      - {step: w, type: while, condition: 'a >', do: [w]}\n",
		"flows:\n  f:\n    steps:\n      - {step: w, type: while, do: [{step: v, type: while, do: [{step: s, type: say, message: '{x'}]}]}\n",
		"flows:\n  f:\n    steps:\n      - {step: s, type: set, slots: [a, b]}\n      - {step: b, type: branch, slot: a, cases: [x]}\n",
		"flows:\n  f:\n    steps:\n      - {step: s, type: set, condition: '', slots: {a: null, b: {expr: 'a +'}}}\n      - {step: c, type: confirm}\n      - {step: d, type: collect, on_invalid: nowhere}\n",
		"slots:\n  s: {type: [1]}\nflows:\n  f:\n    steps:\n      - {step: a, type: action, call: 5, map_outputs: {x: ''}}\n",
		"flows:\n  f:\n    steps:\n      - {step: a, type: call, target: g}\n  g:\n    steps:\n      - {step: a, type: link, target: f}\n      - {step: a, type: call, target: g}\n",
	} {
		first := CompileSource("t.yaml", []byte(src), Options{})
		require.NotNil(t, first, src)
		again := CompileSource("t.yaml", []byte(src), Options{})
		assert.Equal(t, first.Diags, again.Diags, src)
	}
}
