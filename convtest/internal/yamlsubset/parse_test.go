package yamlsubset

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	goccy "github.com/goccy/go-yaml/parser"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// corpus returns the YAML files of the repository.
func corpus(t testing.TB) map[string]string {
	files := map[string]string{}
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git") {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files[path] = string(b)
		}
		return nil
	})
	require.NoError(t, err)
	return files
}

// same checks that Parse either refuses text or gives goccy/go-yaml's
// tree; it reports whether Parse took it.
func same(t testing.TB, text string) bool {
	return sameWith(t, new(Parser), text)
}

// sameWith is same, parsing with ps.
func sameWith(t testing.TB, ps *Parser, text string) bool {
	f, ok := ps.Parse(text)
	if !ok {
		return false
	}
	want, err := goccy.ParseBytes([]byte(text), 0)
	if err != nil {
		t.Fatalf("the subset took what goccy/go-yaml refuses (%v):\n%s", err, text)
	}
	if got, exp := dump(f), dump(want); got != exp {
		assert.Equal(t, exp, got, "the trees differ for:\n%s", text)
		t.FailNow()
	}
	return true
}

func TestSameTreeAsGoccy(t *testing.T) {
	cases := map[string]struct {
		text string
		ok   bool
	}{
		"scalars":                 {ok: true, text: "a: x\nb: 5\nc: -5\nd: 1.5\ne: true\nf: ~\ng: Null\nh: .inf\ni: 0x1F\nj: 1_000\nk: 2027-03-05\nl: yes\nm: .nan\nn: 010\n"},
		"quoted":                  {ok: true, text: "a: \"x \\\"y\\\" \\\\ \\/ \\n \\t\"\nb: 'it''s'\nc: \"\"\nd: ''\ne: \"a: b # c\"\n"},
		"comments":                {ok: true, text: "# head\n\na: x # trailing\n  # indented\nb:   # after key\n  - c # entry\n\n  # between\n  - d\n"},
		"compact":                 {ok: true, text: "cases:\n  - name: one\n    steps:\n      - user: hi\n      -   bot: there\n      - slot_was_set:\n          - amount: 50\n  - name: two\n"},
		"list at key indentation": {ok: true, text: "a:\n- x\n- y\nb: z\n"},
		"flow":                    {ok: true, text: "a: {x: 1, y: [1, 'two', \"three\"], z: {}, w: []}\nb: [ {c: d} , e ]\n"},
		"keys":                    {ok: true, text: "a::b: 1\nc/d: 2\n5: five\ntrue: t\n"},
		"unicode":                 {ok: true, text: "a: {b: ñññ, c: d}\nx: ¿y? {ñ}\n"},
		"plain marks":             {ok: true, text: "a: x [y], {z}\nb: a:b\nc: 50%\nd: x#y\n"},
		"next-line scalar":        {ok: true, text: "a:\n  x\nb: y\n"},
		"no final newline":        {ok: true, text: "a: b"},

		"tab":                {text: "a:\tb\n"},
		"document":           {text: "---\na: b\n"},
		"directive":          {text: "%YAML 1.2\n---\na: b\n"},
		"anchor":             {text: "a: &x b\nc: *x\n"},
		"tag":                {text: "a: !!str 5\n"},
		"block scalar":       {text: "a: |\n  x\n"},
		"folded":             {text: "a: x\n  y\n"},
		"empty value":        {text: "a:\nb: c\n"},
		"empty entry":        {text: "a:\n  -\n  - b\n"},
		"duplicate":          {text: "a: 1\na: 2\n"},
		"quoted key":         {text: "\"a\": 1\n"},
		"nested entry":       {text: "a:\n  - - x\n"},
		"value mapping":      {text: "a: b: c\n"},
		"multi-line flow":    {text: "a: {b: c,\n  d: e}\n"},
		"trailing comma":     {text: "a: [b, c,]\n"},
		"root list":          {text: "- a\n"},
		"root scalar":        {text: "a\n"},
		"indented root":      {text: "  a: b\n"},
		"bad indent":         {text: "a:\n    b: c\n  d: e\n"},
		"escape":             {text: "a: \"\\u00e9\"\n"},
		"CR":                 {text: "a: b\r\n"},
		"space before colon": {text: "a : b\n"},
		"dotted key":         {text: "a.b: c\n"},
		"long duplicate":     {text: "k0: 0\nk1: 1\nk2: 2\nk3: 3\nk4: 4\nk5: 5\nk6: 6\nk7: 7\nk8: 8\nk9: 9\nk10: 10\nk11: 11\nk12: 12\nk13: 13\nk14: 14\nk15: 15\nk16: 16\nk3: 3\n"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, c.ok, same(t, c.text))
		})
	}
}

// TestRepositoryYAML holds Parse to goccy/go-yaml on every YAML file of
// the repository, and checks that it takes every conversation test file
// of the example projects: the subset is what test files are written in.
func TestRepositoryYAML(t *testing.T) {
	took := 0
	for path, text := range corpus(t) {
		ok := same(t, text)
		if ok {
			took++
		}
		if strings.Contains(filepath.ToSlash(path), "flows/") && strings.Contains(filepath.ToSlash(path), "/tests/") && strings.Contains(text, "test_cases:") {
			assert.True(t, ok, "the subset refuses the example test file %s", path)
		}
	}
	t.Logf("%d files in the subset", took)
}

func FuzzSameTreeAsGoccy(f *testing.F) {
	for _, text := range corpus(f) {
		if len(text) < 4096 {
			f.Add(text)
		}
	}
	f.Add("a: {x: 1, y: [1, 'two']}\nb:\n- c: d\n  e: 'f'\n")
	f.Fuzz(func(t *testing.T, text string) {
		same(t, text)
	})
}

// TestGeneratedDocuments holds Parse to goccy/go-yaml on documents made
// from the subset's pieces and the characters near its edges.
func TestGeneratedDocuments(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	scalars := []string{"x", "hello world", "5", "-5", "0x1F", "010", "1.5", ".5", "1e5", "true", "False", "yes", "null", "~", ".inf", "-.inf", ".nan",
		"2027-03-05", "a:b", "a,b", "a [b]", "{c}", "x#y", "50%", "-a", "ñandú", "¿qué?", "'q'", "\"q\"", "'it''s'", "\"a \\\" b\"", "\"a\\\\b\"", "\"\\n\"",
		"\"a: b\"", "'#x'", "x # c", "x ", "<<", "@x", "`x`", "&a x", "*a", "!t x", "|", ">", "? x", ": x", "- x", "-", "a: b", "a:", "\"\\u00e9\"", "''", "\"\""}
	keys := []string{"a", "b", "c", "user", "bot", "a::b", "x/y", "5", "true", "null", "~", "a b", "a.b", "\"q\"", "k-1", "ñ"}
	var gen func(b *strings.Builder, indent, depth int, inSeq bool)
	pad := func(n int) string { return strings.Repeat(" ", n) }
	flow := func() string {
		switch r.IntN(4) {
		case 0:
			return "[" + scalars[r.IntN(len(scalars))] + ", " + scalars[r.IntN(len(scalars))] + "]"
		case 1:
			return "{" + keys[r.IntN(len(keys))] + ": " + scalars[r.IntN(len(scalars))] + ", " + keys[r.IntN(len(keys))] + ": [x]}"
		case 2:
			return "[" + keys[r.IntN(len(keys))] + ": " + scalars[r.IntN(len(scalars))] + "]"
		}
		return "{}"
	}
	gen = func(b *strings.Builder, indent, depth int, inSeq bool) {
		n := 1 + r.IntN(3)
		seq := r.IntN(3) == 0 && depth > 0
		for i := 0; i < n; i++ {
			if r.IntN(8) == 0 {
				b.WriteString(pad(r.IntN(indent+3)) + "# comment\n")
			}
			if r.IntN(10) == 0 {
				b.WriteString("\n")
			}
			first := pad(indent)
			if inSeq && i == 0 {
				first = ""
			}
			if seq {
				b.WriteString(first + "-")
				if depth < 4 && r.IntN(2) == 0 {
					b.WriteString(" ")
					gen(b, indent+2, depth+1, true)
					continue
				}
				b.WriteString(" " + scalars[r.IntN(len(scalars))] + "\n")
				continue
			}
			b.WriteString(first + keys[r.IntN(len(keys))] + ":")
			switch {
			case depth < 4 && r.IntN(3) == 0:
				b.WriteString("\n")
				gen(b, indent+1+r.IntN(3), depth+1, false)
			case r.IntN(4) == 0:
				b.WriteString(" " + flow() + "\n")
			default:
				b.WriteString(" " + scalars[r.IntN(len(scalars))] + "\n")
			}
		}
	}
	took := 0
	ps := new(Parser) // one parser for all: its memory is reused
	for i := 0; i < 5000; i++ {
		var b strings.Builder
		gen(&b, 0, 0, false)
		if sameWith(t, ps, b.String()) {
			took++
		}
	}
	t.Logf("%d of 5000 in the subset", took)
	assert.Greater(t, took, 100)
}

// benchText is a test file of 500 four-turn cases, as bench/loop.sh writes
// them.
func benchText() string {
	var b strings.Builder
	b.WriteString("flows: ../book_flight.yaml\ntest_cases:\n")
	for i := 0; i < 500; i++ {
		b.WriteString("  - test_case: c" + strconv.Itoa(i) + "\n    steps:\n      - user: book a flight\n      - bot: Welcome\n      - bot: Where from?\n      - user: Madrid\n      - bot: Where to?\n      - user: Lisbon\n      - bot: What date?\n      - user: \"2027-03-05\"\n      - bot: Found a flight from Madrid to Lisbon on 2027-03-05 for 156\n")
	}
	return b.String()
}

// BenchmarkParse compares Parse with goccy/go-yaml on a test file:
//
//	go test -run '^$' -bench BenchmarkParse -benchmem ./internal/yamlsubset
func BenchmarkParse(b *testing.B) {
	text := benchText()
	b.Run("subset", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, ok := Parse(text); !ok {
				b.Fatal("refused")
			}
		}
	})
	b.Run("goccy", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := goccy.ParseBytes([]byte(text), 0); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestParseSkippingIsParseWithBlankLines: ParseSkipping(text, at, skip)
// gives the tree Parse gives of text with skip blank lines before its line
// at, as a reader sees it (dump shows lines and columns, not offsets).
func TestParseSkippingIsParseWithBlankLines(t *testing.T) {
	text := "flows: x\ntest_cases:\n  - test_case: a\n    steps:\n      - user: hi\n      - bot: {text: \"Hello\"}\n  - test_case: b\n    steps: [{user: yo}]\n"
	lines := strings.SplitAfter(text, "\n")
	ps := new(Parser)
	for at := 0; at <= len(lines); at++ {
		for _, skip := range []int{0, 1, 7, 1000} {
			padded := strings.Join(lines[:at], "") + strings.Repeat("\n", skip) + strings.Join(lines[at:], "")
			want, ok := Parse(padded)
			require.True(t, ok, padded)
			got, ok := ps.ParseSkipping(text, at, skip)
			require.True(t, ok)
			assert.Equal(t, dump(want), dump(got), "at %d, skip %d", at, skip)
		}
	}
	_, ok := ps.ParseSkipping(text, 1, -1)
	assert.False(t, ok, "a negative skip is refused")
}
