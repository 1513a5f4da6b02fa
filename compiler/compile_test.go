package compiler

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTenMistakes compiles one file with ten different mistakes and expects
// all ten, in one pass, sorted by position.
func TestTenMistakes(t *testing.T) {
	t.Parallel()
	r := Compile("../testdata/ten_mistakes.yaml", Options{})
	require.Nil(t, r.Program)
	var got []string
	codes := map[string]bool{}
	for _, d := range r.Diags {
		got = append(got, fmt.Sprintf("%d:%d %s", d.Pos.Line, d.Pos.Col, d.Code))
		codes[d.Code] = true
	}
	assert.Equal(t, []string{
		"6:3 W004", "18:9 E011", "23:20 E030", "28:37 E032", "34:11 E036",
		"37:35 E034", "42:19 E035", "43:28 E033", "46:17 E031", "49:18 E037",
	}, got)
	assert.Len(t, codes, 10, "ten different mistakes")
	assert.True(t, sort.SliceIsSorted(r.Diags, func(i, j int) bool { return diag.Less(r.Diags[i], r.Diags[j]) }))
}

// TestExamplesIRGolden keeps the IR of every example project as a golden
// file, and checks that compiling twice gives the same bytes.
func TestExamplesIRGolden(t *testing.T) {
	for _, name := range []string{"banking", "travel", "support", "compat"} {
		t.Run(name, func(t *testing.T) {
			wd, err := os.Getwd()
			require.NoError(t, err)
			require.NoError(t, os.Chdir(".."))
			defer func() { require.NoError(t, os.Chdir(wd)) }()
			path := filepath.Join("flows", name)
			r := Compile(path, Options{})
			require.NotNil(t, r.Program, "%v", r.Diags)
			b, err := ir.Encode(r.Program)
			require.NoError(t, err)
			again, err := ir.Encode(Compile(path, Options{}).Program)
			require.NoError(t, err)
			require.Equal(t, b, again, "compile is not deterministic")
			golden := filepath.Join("compiler", "testdata", "ir", name+".json")
			if os.Getenv("SONI_UPDATE") != "" {
				require.NoError(t, os.MkdirAll(filepath.Dir(golden), 0o755))
				require.NoError(t, os.WriteFile(golden, b, 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "run SONI_UPDATE=1 go test ./compiler to create it")
			assertSameLines(t, string(want), string(b), golden)
			p, err := ir.Decode(b)
			require.NoError(t, err, "a compiled program loads back without YAML")
			b2, err := ir.Encode(p)
			require.NoError(t, err)
			assert.Equal(t, b, b2, "decode and encode round-trip")
		})
	}
}

// TestExamplesStrict: every example project is free of errors and warnings.
func TestExamplesStrict(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"banking", "travel", "support"} {
		r := Compile(filepath.Join("..", "flows", name), Options{})
		for _, d := range r.Diags {
			t.Errorf("%s", d)
		}
	}
}

// TestPythonStyleLoadsWithSameMeaning checks the Python-framework-style
// file: only the warnings its header predicts, free-form types read as
// text, implicit slots of type any, and the while loop over referenced
// steps wired as the Python framework ran it.
func TestPythonStyleLoadsWithSameMeaning(t *testing.T) {
	t.Parallel()
	r := Compile("../flows/compat/python_style.yaml", Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	assert.Empty(t, r.Diags, "its warnings are acknowledged with soni:ignore comments")
	src, err := os.ReadFile("../flows/compat/python_style.yaml")
	require.NoError(t, err)
	bare := CompileSource("python_style.yaml", regexp.MustCompile(`\s*# soni:ignore W\d+`).ReplaceAll(src, nil), Options{})
	codes := map[string]int{}
	for _, d := range bare.Diags {
		codes[d.Code]++
	}
	assert.Equal(t, map[string]int{diag.CodeUnknownSlotType: 2, diag.CodeUndeclaredAction: 3}, codes, "without the comments")
	f := r.Program.Flow("book_flight")
	require.NotNil(t, f)
	assert.Equal(t, []string{"book a flight", "I want to book a flight", "find me a cheap flight"}, f.Triggers)
	types := map[string]ir.SlotType{}
	for _, s := range f.Slots {
		types[s.Name] = s.Type
	}
	assert.Equal(t, ir.TypeText, types["origin"], "free-form type hints are text")
	assert.Equal(t, ir.TypeText, types["passenger_name"], "string is text")
	assert.Equal(t, ir.TypeNumber, types["max_price"], "float is number")
	assert.Equal(t, ir.TypeBoolean, types["search_again"], "bool is boolean")
	assert.Equal(t, ir.TypeAny, types["flight_number"], "an action output slot is implicit")
	id := func(i int) string {
		if i == ir.End {
			return ir.EndStep
		}
		return f.Nodes[i].ID
	}
	node := func(name string) *ir.Node { return f.Nodes[f.Index(name)] }
	loop := node("cheaper_loop")
	assert.Equal(t, "lower_budget", id(*loop.Body))
	assert.Equal(t, "confirm_booking", id(*loop.Exit), "exit skips the body steps")
	assert.Equal(t, "search_cheaper", id(node("lower_budget").Next))
	assert.Equal(t, "cheaper_loop", id(node("ask_again").Next), "the last body step tests the condition again")
	assert.Equal(t, "booking_cancelled", id(*node("confirm_booking").OnDeny))
	assert.Equal(t, []ir.Mapping{{Output: "flight_number", Slot: "flight_number"}, {Output: "price", Slot: "price"}}, node("first_search").MapOutputs)
}

// TestAnySlotsCompareInExpressions: slots of type any (implicit ones) may be
// compared with anything in conditions.
func TestAnySlotsCompareInExpressions(t *testing.T) {
	t.Parallel()
	src := `version: "1.0"
flows:
  f:
    trigger: {intents: ["go"]}
    steps:
      - {step: a, type: action, call: lookup, map_outputs: {price: price}}
      - step: b
        type: branch
        evaluate: "price < 50 and price != nil"
        cases: {"true": c}
      - {step: c, type: say, message: "ok {price}"}
`
	r := CompileSource("t.yaml", []byte(src), Options{})
	for _, d := range r.Diags {
		assert.NotEqual(t, diag.Error, d.Severity, "%s", d)
	}
	require.NotNil(t, r.Program)
}

// TestBadInputs: hostile or broken inputs give a positioned diagnostic,
// never a panic or a hang.
func TestBadInputs(t *testing.T) {
	t.Parallel()
	deep := func(open, close string, n int) []byte {
		return []byte("a: " + string(bytes.Repeat([]byte(open), n)) + string(bytes.Repeat([]byte(close), n)) + "\n")
	}
	var blockDeep bytes.Buffer
	blockDeep.WriteString("flows:\n")
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&blockDeep, "%s k%d:\n", string(bytes.Repeat([]byte(" "), i+1)), i)
	}
	var bomb bytes.Buffer
	bomb.WriteString("a: &a [x, x, x, x, x, x, x, x, x, x]\n")
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		fmt.Fprintf(&bomb, "%s: &%s [*%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s]\n", n, n, prev, prev, prev, prev, prev, prev, prev, prev, prev, prev)
		prev = n
	}
	garbage := make([]byte, 4096)
	for i := range garbage {
		garbage[i] = byte(i*7919 + i/3)
	}
	tests := []struct {
		name string
		src  []byte
		opts Options
		code string
	}{
		{"empty file", nil, Options{}, diag.CodeEmptyFile},
		{"only a comment", []byte("# nothing here\n"), Options{}, diag.CodeEmptyFile},
		{"not UTF-8", []byte("flows:\n  a: \"\xff\xfe\"\n"), Options{}, diag.CodeNotUTF8},
		{"binary garbage", garbage, Options{}, diag.CodeNotUTF8},
		{"NUL byte", []byte("flows: {}\x00\n"), Options{}, diag.CodeNotUTF8},
		{"two documents", []byte("version: \"1.0\"\n---\nflows: {}\n"), Options{}, diag.CodeMultiDoc},
		{"tab indentation", []byte("flows:\n\tgreet: {}\n"), Options{}, diag.CodeYAMLSyntax},
		{"duplicate keys", []byte("version: \"1.0\"\nversion: \"1.0\"\nflows: {}\n"), Options{}, diag.CodeDuplicateKey},
		{"alias bomb", bomb.Bytes(), Options{}, diag.CodeAliasLimit},
		{"10,000 nested flow sequences", deep("[", "]", 10_000), Options{}, diag.CodeNestingLimit},
		{"10,000 nested flow mappings", deep("{a: ", "}", 10_000), Options{}, diag.CodeNestingLimit},
		{"10,000 nested block sequences", []byte(string(bytes.Repeat([]byte("- "), 10_000)) + "x\n"), Options{}, diag.CodeNestingLimit},
		{"deep block mappings", blockDeep.Bytes(), Options{}, diag.CodeNestingLimit},
		{"over the size limit", bytes.Repeat([]byte("# padding\n"), 200), Options{MaxFileSize: 1024}, diag.CodeFileLimit},
		{"syntax error", []byte("flows: [unclosed\n"), Options{}, diag.CodeYAMLSyntax},
		{"a scalar document", []byte("just text\n"), Options{}, diag.CodeWrongType},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := CompileSource("bad.yaml", tt.src, tt.opts)
			require.Nil(t, r.Program)
			var codes []string
			for _, d := range r.Diags {
				codes = append(codes, d.Code)
				assert.Equal(t, "bad.yaml", d.Pos.File)
				assert.Positive(t, d.Pos.Line, "%s has a position", d)
			}
			assert.Contains(t, codes, tt.code)
		})
	}
}

// nestingAttacks are files that nest block collections far beyond the depth
// limit. The YAML library's cost grows quadratically with such nesting, so
// they must be refused before it parses them.
func nestingAttacks() []struct {
	name      string
	src       []byte
	line, col int
} {
	var indented bytes.Buffer
	for i := range 3000 {
		indented.WriteString(strings.Repeat(" ", i) + "- \n")
	}
	return []struct {
		name      string
		src       []byte
		line, col int
	}{
		{"40,000 compact sequences", []byte(strings.Repeat("- ", 40_000) + "x\n"), 1, 201},
		{"40,000 compact complex keys", []byte(strings.Repeat("? ", 40_000) + "x\n"), 1, 201},
		{"compact sequences under a key", []byte("flows:\n  a:\n    " + strings.Repeat("- ", 40_000) + "x\n"), 3, 201},
		{"3,000 indented sequences", indented.Bytes(), 102, 102},
	}
}

// TestNestingAttacksRefusedCheaply: block nesting far past the limit is
// refused with E007 at the first level past it, within a budget of bytes
// allocated that does not depend on the machine (the 40,000 compact
// sequences once took 2.5 GB). Their time is BenchmarkNestingAttacks'.
func TestNestingAttacksRefusedCheaply(t *testing.T) {
	// Not parallel: it measures the process's heap, which other tests
	// running at the same time would change.
	for _, tc := range nestingAttacks() {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			r := CompileSource("deep.yaml", tc.src, Options{})
			runtime.ReadMemStats(&after)
			require.Nil(t, r.Program)
			require.Len(t, r.Diags, 1, "%v", r.Diags)
			d := r.Diags[0]
			assert.Equal(t, diag.CodeNestingLimit, d.Code)
			assert.Equal(t, diag.Pos{File: "deep.yaml", Line: tc.line, Col: tc.col}, d.Pos)
			assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<20), "bytes allocated")
		})
	}
}

func BenchmarkNestingAttacks(b *testing.B) {
	for _, tc := range nestingAttacks() {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.src)))
			for b.Loop() {
				CompileSource("deep.yaml", tc.src, Options{})
			}
		})
	}
}

// TestBlockDepthIsALowerBound: the pre-parse estimate never refuses a file
// whose real nesting is within the limit, also with block scalars whose
// text is indented like deep nesting.
func TestBlockDepthIsALowerBound(t *testing.T) {
	t.Parallel()
	var scalar bytes.Buffer
	scalar.WriteString("version: \"1.0\"\nflows:\n  f:\n    trigger: {intents: [hi]}\n    steps:\n      - step: s\n        type: say\n        message: |\n")
	for i := range 150 {
		scalar.WriteString(strings.Repeat(" ", 10+i) + "- x\n")
	}
	r := CompileSource("ok.yaml", scalar.Bytes(), Options{})
	for _, d := range r.Diags {
		assert.NotEqual(t, diag.CodeNestingLimit, d.Code, "%s", d)
	}
	// The estimate agrees with the tree's depth at the limit: 100 compact
	// sequences are allowed, 101 are not.
	_, _, depth := blockDepth([]byte(strings.Repeat("- ", 50)+"x\n"), 100)
	assert.Equal(t, 50, depth)
	for n, want := range map[int]bool{100: false, 101: true} {
		r := CompileSource("n.yaml", []byte(strings.Repeat("- ", n)+"x\n"), Options{})
		var nesting bool
		for _, d := range r.Diags {
			nesting = nesting || d.Code == diag.CodeNestingLimit
		}
		assert.Equal(t, want, nesting, "%d compact sequences", n)
	}
}

// TestBigFile: a 50 MiB file is refused by the size limit before it is read
// whole, and the message says how to raise the limit.
func TestBigFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "big.yaml")
	f, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(50<<20))
	require.NoError(t, f.Close())
	r := Compile(path, Options{})
	require.Len(t, r.Diags, 1)
	assert.Equal(t, diag.CodeFileLimit, r.Diags[0].Code)
	assert.Contains(t, r.Diags[0].Message, "50.0 MiB")
	assert.Contains(t, r.Diags[0].Message, "--max-file-size")
}

// TestDirectoryFaults: unreadable entries, symlink loops and hidden or test
// files in a project directory.
func TestDirectoryFaults(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, src string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	write("a.yaml", "version: \"1.0\"\nflows:\n  greet:\n    trigger: {intents: [hi]}\n    steps:\n      - {step: s, type: say, message: Hello}\n")
	write(".hidden/b.yaml", "not: [valid\n")
	write("tests/t.yaml", "test_cases: []\n")
	require.NoError(t, os.Symlink("loop2.yaml", filepath.Join(dir, "loop1.yaml")))
	require.NoError(t, os.Symlink("loop1.yaml", filepath.Join(dir, "loop2.yaml")))
	require.NoError(t, os.Symlink(".", filepath.Join(dir, "self")))
	require.NoError(t, os.Symlink("missing.yaml", filepath.Join(dir, "dangling.yaml")))
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "fifo.yaml"), 0o644), "a FIFO must be refused, not read (reading it would block)")
	r := Compile(dir, Options{})
	var got []string
	for _, d := range r.Diags {
		got = append(got, filepath.Base(d.Pos.File)+" "+d.Code)
	}
	assert.Equal(t, []string{"dangling.yaml E001", "fifo.yaml E001", "loop1.yaml E001", "loop2.yaml E001"}, got)
}

// assertSameLines compares a golden file line by line and reports the first
// difference only, so a changed IR gives a readable failure.
func assertSameLines(t *testing.T, want, got, name string) {
	t.Helper()
	if want == got {
		return
	}
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			t.Errorf("%s differs at line %d (refresh with SONI_UPDATE=1 if intended):\nwant: %s\ngot:  %s", name, i+1, w, g)
			return
		}
	}
}

// TestRecursiveAliases: an alias inside its own anchor (which goccy
// accepts) must be refused, not expanded forever. Found by FuzzCompile.
func TestRecursiveAliases(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"a: &a [*a, *a]\nflows: {}\n",
		"settings:\n  b: &b [*b,*b, *b, *b, *b,*b,*b, *b, *b, *b]\nflows: {}\n",
		"a: &a {x: {y: *a}}\n",
	} {
		r := CompileSource("r.yaml", []byte(src), Options{})
		require.Nil(t, r.Program)
		require.NotEmpty(t, r.Diags)
		assert.Equal(t, diag.CodeAliasLimit, r.Diags[0].Code, "%s", r.Diags[0])
	}
}

// TestLetVariablesAreNotSlots: names declared with let are local to the
// expression, not unknown slots.
func TestLetVariablesAreNotSlots(t *testing.T) {
	t.Parallel()
	src := `version: "1.0"
slots:
  amount: {type: number}
flows:
  f:
    trigger: {intents: ["go"]}
    steps:
      - {step: a, type: collect, slot: amount, message: "How much?"}  # soni:ignore W017
      - step: b
        type: branch
        evaluate: "let double = amount * 2; double > 10"
        cases: {"true": c}
      - {step: c, type: say, message: "ok"}
`
	r := CompileSource("t.yaml", []byte(src), Options{})
	assert.Empty(t, r.Diags)
	require.NotNil(t, r.Program)
}

// TestPositionsInsideQuotedStrings: a double-quoted template with an
// apostrophe keeps exact columns for what is inside it.
func TestPositionsInsideQuotedStrings(t *testing.T) {
	t.Parallel()
	src := "version: \"1.0\"\nflows:\n  f:\n    trigger: {intents: [\"go\"]}\n    steps:\n      - {step: a, type: say, message: \"It's {nope}\"}\n"
	r := CompileSource("t.yaml", []byte(src), Options{})
	require.NotEmpty(t, r.Diags)
	d := r.Diags[0]
	assert.Equal(t, diag.CodeUnknownSlot, d.Code)
	assert.Equal(t, 6, d.Pos.Line)
	assert.Equal(t, strings.Index("      - {step: a, type: say, message: \"It's {nope}\"}", "nope")+1, d.Pos.Col)
}

// TestCRLFPositions: a file with Windows line endings and comments gets
// the same positions as its LF form.
func TestCRLFPositions(t *testing.T) {
	t.Parallel()
	src := "# a comment\nversion: \"1.0\"\n# another\nflows:\n  f:\n    trigger: {intents: [go]}\n    steps:\n      - step: a\n        type: say\n        mesage: hi\n"
	lf := CompileSource("t.yaml", []byte(src), Options{})
	crlf := CompileSource("t.yaml", []byte(strings.ReplaceAll(src, "\n", "\r\n")), Options{})
	require.NotEmpty(t, lf.Diags)
	assert.Equal(t, lf.Diags, crlf.Diags)
	assert.Equal(t, 10, crlf.Diags[0].Pos.Line)
}

// TestSlotNamedLikeBuiltinKeepsTheFunction: a slot named len is the slot as
// a bare name, and len(...) is still the function.
func TestSlotNamedLikeBuiltinKeepsTheFunction(t *testing.T) {
	t.Parallel()
	src := `version: "1.0"
slots:
  len: {type: integer}
  name: {type: text}
flows:
  f:
    trigger: {intents: ["go"]}
    steps:
      - {step: a, type: collect, slot: len, message: "How long?"}  # soni:ignore W017
      - {step: b, type: collect, slot: name, message: "Name?"}  # soni:ignore W017
      - step: c
        type: branch
        evaluate: "len > 3 and len(name) > 1"
        cases: {"true": d}
      - {step: d, type: say, message: "ok"}
`
	r := CompileSource("t.yaml", []byte(src), Options{})
	assert.Empty(t, r.Diags)
}

// TestLanguageSetting: the language setting is the project's default
// language (ir.Settings.Language), which picks a response's translation;
// before, it was kept among the unknown settings and never used.
func TestLanguageSetting(t *testing.T) {
	t.Parallel()
	r := CompileSource("p.yaml", []byte(`version: "1.0"
settings:
  language: es
responses:
  utter_hi:
    - text: "Hello!"
      translation: {es: "¡Hola!"}
flows:
  greet:
    trigger: {intents: ["hello"]}
    steps:
      - {step: s, type: say, response: utter_hi}
`), Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	assert.Equal(t, "es", r.Program.Settings.Language)
	assert.NotContains(t, r.Program.Settings.Extra, "language")
}
