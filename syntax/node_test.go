package syntax

import (
	"testing"

	"github.com/goccy/go-yaml/parser"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/diag"
)

// read parses src and returns a reader over its body.
func read(t *testing.T, src string) (*Reader, Entry) {
	t.Helper()
	f, err := parser.ParseBytes([]byte(src), 0, parser.AllowDuplicateMapKey())
	require.NoError(t, err)
	r := NewReader("f.yaml", []byte(src), f.Docs[0].Body, nil, nil)
	return r, Entry{Value: f.Docs[0].Body}
}

func TestReaderStrPositions(t *testing.T) {
	tests := []struct {
		name, src string
		want      Str
		// at is the position At(1, 2) gives.
		at Pos
	}{
		{"plain", "k: hello\n", Str{V: "hello", Pos: Pos{File: "f.yaml", Line: 1, Col: 4}, Path: "k", Mode: ModeInline, Set: true}, Pos{File: "f.yaml", Line: 1, Col: 6}},
		{"double quoted", "k: \"hi {x}\"\n", Str{V: "hi {x}", Pos: Pos{File: "f.yaml", Line: 1, Col: 5}, Path: "k", Mode: ModeInline, Set: true}, Pos{File: "f.yaml", Line: 1, Col: 7}},
		{"number", "k: 12\n", Str{V: "12", Pos: Pos{File: "f.yaml", Line: 1, Col: 4}, Path: "k", Mode: ModeInline, Set: true}, Pos{File: "f.yaml", Line: 1, Col: 6}},
		{"literal block", "k: |\n  ab\n  cd\n", Str{V: "ab\ncd\n", Pos: Pos{File: "f.yaml", Line: 2, Col: 3}, Path: "k", Mode: ModeBlock, Set: true}, Pos{File: "f.yaml", Line: 2, Col: 5}},
		{"null", "k: null\n", Str{Pos: Pos{File: "f.yaml", Line: 1, Col: 4}, Path: "k"}, Pos{File: "f.yaml", Line: 1, Col: 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, doc := read(t, tt.src)
			es := r.Entries(doc.Value, "")
			require.Len(t, es, 1)
			got := r.Str(es[0].Value, es[0].Key.Path)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.at, got.At(1, 2))
		})
	}
}

func TestReaderEscapesMapEachRune(t *testing.T) {
	r, doc := read(t, "k: \"caf\\u00e9 {x}\"\n")
	s := r.Str(r.Entries(doc.Value, "")[0].Value, "k")
	require.Equal(t, "café {x}", s.V)
	assert.Equal(t, ModeMapped, s.Mode)
	// The { after the escape is at column 15 of the line.
	assert.Equal(t, Pos{File: "f.yaml", Line: 1, Col: 15}, s.At(1, 5))
}

func TestReaderDuplicateKeysAndMerges(t *testing.T) {
	r, doc := read(t, "base: &b {x: 1, y: 2}\nm:\n  <<: *b\n  y: 3\n  z: 4\n  z: 5\n")
	es := r.Entries(doc.Value, "")
	require.Len(t, es, 2)
	m := r.Entries(es[1].Value, "m")
	var keys []string
	for _, e := range m {
		keys = append(keys, e.Key.Path)
	}
	assert.Equal(t, []string{"m.y", "m.z", "m.x"}, keys)
	require.Len(t, *r.Diags, 1)
	d := (*r.Diags)[0]
	assert.Equal(t, diag.CodeDuplicateKey, d.Code)
	assert.Equal(t, Pos{File: "f.yaml", Line: 6, Col: 3}, d.Pos)
	assert.Contains(t, d.Message, `key "z" is already defined at 5:3`)
	assert.Equal(t, map[string]any{"x": uint64(1), "y": uint64(2)}, r.Generic(es[0].Value))
}

func TestAttachComments(t *testing.T) {
	src := `# head
#
version: "1.0"  # v trailing
flows:
  f:
    steps:
      # before step
      - step: a
        # before type
        type: say  # trailing
      - b  # item trailing
      # before c
      - c
  g:  # key trailing
    x: "# not a comment"
# end
`
	r, doc := read(t, src)
	var walk func(n Entry)
	walk = func(e Entry) {
		for _, x := range r.Entries(e.Value, e.Key.Path) {
			walk(x)
		}
		for i, it := range r.ItemsAt(e.Value, e.Key.Path) {
			walk(Entry{Key: Str{Path: Index(e.Key.Path, i)}, Value: it})
		}
	}
	walk(doc)
	got, foot := r.AttachComments([]byte(src))
	assert.Equal(t, map[string]*Comment{
		"version":               {Head: []string{"head", ""}, Line: "v trailing"},
		"flows.f.steps[0]":      {Head: []string{"before step"}},
		"flows.f.steps[0].type": {Head: []string{"before type"}, Line: "trailing"},
		"flows.f.steps[1]":      {Line: "item trailing"},
		"flows.f.steps[2]":      {Head: []string{"before c"}},
		"flows.g":               {Line: "key trailing"},
	}, got)
	assert.Equal(t, []string{"end"}, foot)
}

func TestEmit(t *testing.T) {
	steps := &Seq{}
	first := &Map{}
	first.Add("step", "a")
	first.Add("message", "Hello {name}: welcome").Trailing = "soni:ignore W001"
	steps.Add(first, "the first step")
	second := &Map{}
	second.Add("step", "b").Comments = []string{"before b's key"}
	second.Add("slots", &Map{Flow: true, Entries: []MapEntry{{Key: "x", Value: nil}, {Key: "y", Value: true}}})
	steps.Add(second)
	steps.Add("ref").Trailing = "a reference"
	steps.Tail = []string{"the end\nof the list"}
	flow := &Map{}
	flow.Add("intents", &Seq{Flow: true, Items: []SeqItem{{Value: "yes"}, {Value: 3}}})
	flow.Add("steps", steps)
	doc := &Map{}
	doc.Add("version", "1.0")
	doc.Add("flows", &Map{Entries: []MapEntry{{Key: "f", Value: flow}}})
	doc.Add("empty", &Seq{})
	got := string(Emit(doc, []string{"header", ""}))
	want := `# header
#
version: "1.0"
flows:
  f:
    intents: ["yes", 3]
    steps:
      # the first step
      - step: a
        message: "Hello {name}: welcome"  # soni:ignore W001
      -
        # before b's key
        step: b
        slots: {x: null, "y": true}
      - ref  # a reference
      # the end
      # of the list
empty: []
`
	assert.Equal(t, want, got)
	_, err := parser.ParseBytes([]byte(got), parser.ParseComments)
	require.NoError(t, err)
}
