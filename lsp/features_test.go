package lsp

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// tripProject starts a server on a copy of testdata/trip and opens its
// flow file.
func tripProject(t *testing.T) (*client, string, string) {
	dir := copyProject(t, "trip")
	c := startServer(t, dir)
	uri := c.open(filepath.Join(dir, "trip.yaml"))
	c.waitDiags(uri)
	return c, dir, uri
}

// locs renders locations as file:line:col relative to dir.
func locs(t *testing.T, dir string, ls []protocol.Location) []string {
	out := []string{}
	for _, l := range ls {
		p, ok := uriToPath(l.URI)
		require.True(t, ok)
		rel, err := filepath.Rel(dir, p)
		require.NoError(t, err)
		out = append(out, fmt.Sprintf("%s:%d:%d-%d", filepath.ToSlash(rel), l.Range.Start.Line+1, l.Range.Start.Character+1, l.Range.End.Character+1))
	}
	sort.Strings(out)
	return out
}

type completionList struct {
	Items []struct {
		Label      string `json:"label"`
		InsertText string `json:"insertText"`
		Detail     string `json:"detail"`
	} `json:"items"`
}

func labels(l completionList) []string {
	out := []string{}
	for _, it := range l.Items {
		out = append(out, it.Label)
	}
	return out
}

func TestCompletion(t *testing.T) {
	c, _, uri := tripProject(t)
	src := mustReadURI(t, uri)
	at := func(text string, line, col int) completionList {
		t.Helper()
		c.change(uri, 2, text)
		var l completionList
		c.call(protocol.MethodTextDocumentCompletion, protocol.CompletionParams{TextDocumentPositionParams: docPos(uri, line, col)}, &l)
		return l
	}
	edit := func(old, new string) string {
		t.Helper()
		require.Contains(t, src, old)
		return strings.Replace(src, old, new, 1)
	}
	tests := []struct {
		name      string
		text      string
		line, col int
		want      []string
	}{
		{"slot of a collect", edit("        slot: city\n", "        slot: \n"), 18, 15, []string{"city", "nights", "reference"}},
		{"slot in a message's braces", edit("nights in {city}?", "nights in {ci}?"), 23, 41, []string{"city", "nights", "reference"}},
		{"slot in a condition", edit("evaluate: city == 'rome'", "evaluate: "), 26, 19, []string{"city", "nights", "reference"}},
		{"categorical value in a condition", edit("evaluate: city == 'rome'", "evaluate: city == '"), 26, 28, []string{"madrid", "paris", "rome"}},
		{"step id for jump_to", edit("jump_to: __end__", "jump_to: "), 37, 18, []string{"__end__", "ask_city", "ask_nights", "book", "check_city", "done"}},
		{"step id in a branch case", edit(`"true": book`, `"true": `), 28, 19, []string{"__end__", "ask_city", "ask_nights", "book", "check_city", "done"}},
		{"flow for a link", edit("target: book_trip", "target: "), 47, 17, []string{"book_trip", "cancel_trip"}},
		{"action for an action step", edit("call: book_hotel", "call: "), 31, 15, []string{"book_hotel"}},
		{"response", edit("response: utter_booked", "response: "), 36, 19, []string{"utter_booked"}},
		{"slot of a set step", edit("      - step: done\n", "      - step: reset\n        type: set\n        slots:\n          \n      - step: done\n"), 37, 11, []string{"city", "nights", "reference"}},
		{"slot for an action's output", edit("          reference: reference\n", "          reference: \n"), 33, 22, []string{"city", "nights", "reference"}},
		{"step kinds", edit("        type: say\n", "        type: \n"), 35, 15, []string{"say", "collect", "set", "branch", "while", "action", "link", "call", "confirm"}},
		{"keys of a say step", edit("        type: say\n", "        type: say\n        \n"), 36, 9, []string{"jump_to", "message", "rephrase", "response", "step", "type"}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := at(tt.text, tt.line, tt.col)
			if tt.name == "step kinds" {
				assert.ElementsMatch(t, tt.want, labels(got))
				return
			}
			if tt.name == "keys of a say step" {
				// The keys the schema gives a say step, which grow with
				// the language.
				assert.Subset(t, labels(got), tt.want)
				assert.Len(t, labels(got), len(stepKeys()["say"]))
				assert.NotContains(t, labels(got), "slot", "a key of other steps")
				return
			}
			assert.Equal(t, tt.want, labels(got), "case %d", i)
		})
	}
	// A categorical value gets its quotes when none is open.
	got := at(edit("evaluate: city == 'rome'", "evaluate: city == "), 26, 27)
	require.NotEmpty(t, got.Items)
	assert.Equal(t, "'madrid'", got.Items[0].InsertText)
}

func mustReadURI(t *testing.T, uri string) string {
	p, ok := uriToPath(uri)
	require.True(t, ok)
	return mustRead(t, p)
}

func TestCompletionInTestFiles(t *testing.T) {
	dir := copyProject(t, "trip")
	c := startServer(t, dir)
	path := filepath.Join(dir, "tests", "trip.yaml")
	src := strings.Replace(mustRead(t, path), "flow_started: book_trip", "flow_started: ", 1)
	uri := c.open(path, src)
	var l completionList
	c.call(protocol.MethodTextDocumentCompletion, protocol.CompletionParams{TextDocumentPositionParams: docPos(uri, 5, 23)}, &l)
	assert.Equal(t, []string{"book_trip", "cancel_trip"}, labels(l))

	// A start_flow command, in a flow mapping.
	src = strings.Replace(mustRead(t, path), `      - user: "paris"`, `      - user: "paris"`+"\n        commands: [{start_flow: ca", 1)
	c.change(uri, 2, src)
	c.call(protocol.MethodTextDocumentCompletion, protocol.CompletionParams{TextDocumentPositionParams: docPos(uri, 8, 36)}, &l)
	assert.Equal(t, []string{"book_trip", "cancel_trip"}, labels(l))
}

type hover struct {
	Contents struct {
		Kind  string `json:"kind"`
		Value string `json:"value"`
	} `json:"contents"`
}

func TestHover(t *testing.T) {
	c, _, uri := tripProject(t)
	get := func(line, col int) string {
		t.Helper()
		var h hover
		c.call(protocol.MethodTextDocumentHover, protocol.HoverParams{TextDocumentPositionParams: docPos(uri, line, col)}, &h)
		return h.Contents.Value
	}
	slot := get(23, 40)
	assert.Contains(t, slot, "**conversation slot** `city`: categorical")
	assert.Contains(t, slot, "Where the traveller goes")
	assert.Contains(t, slot, "values: `madrid`, `paris`, `rome`")
	assert.Contains(t, slot, "step `ask_city` of flow `book_trip` (trip/trip.yaml:18)")
	nights := get(22, 16)
	assert.Contains(t, nights, "min: 1")
	assert.Contains(t, nights, "max: 30")
	flow := get(47, 18)
	assert.Contains(t, flow, "**flow** `book_trip`")
	assert.Contains(t, flow, "Book a hotel for a trip")
	assert.Contains(t, flow, "Slots: `reference`")
	resp := get(36, 20)
	assert.Contains(t, resp, `- "Booked {nights} nights in {city}."`)
	assert.Contains(t, resp, `- "Your room in {city} is booked."`)
	action := get(31, 16)
	assert.Contains(t, action, "Book a hotel room")
	assert.Contains(t, action, "Inputs: `city`, `nights`")
	assert.Contains(t, action, "Outputs: `reference`")
	assert.Contains(t, get(28, 20), "**action step** `book` of flow `book_trip`")
	assert.Equal(t, "", get(2, 1), "no hover off a name")
}

func TestDefinitionAndReferences(t *testing.T) {
	c, dir, uri := tripProject(t)
	def := func(uri string, line, col int) []string {
		t.Helper()
		var ls []protocol.Location
		c.call(protocol.MethodTextDocumentDefinition, protocol.DefinitionParams{TextDocumentPositionParams: docPos(uri, line, col)}, &ls)
		return locs(t, dir, ls)
	}
	refs := func(uri string, line, col int, decl bool) []string {
		t.Helper()
		var ls []protocol.Location
		c.call(protocol.MethodTextDocumentReferences, protocol.ReferenceParams{TextDocumentPositionParams: docPos(uri, line, col), Context: protocol.ReferenceContext{IncludeDeclaration: decl}}, &ls)
		return locs(t, dir, ls)
	}
	// Across files: a slot, an action, a response, a flow and a step.
	assert.Equal(t, []string{"domain.yaml:5:3-7"}, def(uri, 23, 40))
	assert.Equal(t, []string{"domain.yaml:16:3-13"}, def(uri, 31, 16))
	assert.Equal(t, []string{"domain.yaml:22:3-15"}, def(uri, 36, 20))
	assert.Equal(t, []string{"trip.yaml:5:3-12"}, def(uri, 47, 18))
	assert.Equal(t, []string{"trip.yaml:29:15-19"}, def(uri, 28, 20))
	// From a test file to the flow, the slot and the action.
	turi := c.open(filepath.Join(dir, "tests", "trip.yaml"))
	assert.Equal(t, []string{"trip.yaml:5:3-12"}, def(turi, 5, 24))
	assert.Equal(t, []string{"domain.yaml:5:3-7"}, def(turi, 9, 14))
	assert.Equal(t, []string{"domain.yaml:16:3-13"}, def(turi, 12, 27))

	assert.Equal(t, []string{
		"domain.yaml:18:14-18",
		"domain.yaml:23:41-45",
		"domain.yaml:24:28-32",
		"domain.yaml:5:3-7",
		"tests/trip.yaml:9:13-17",
		"trip.yaml:18:15-19",
		"trip.yaml:23:39-43",
		"trip.yaml:26:19-23",
	}, refs(uri, 18, 16, true))
	assert.Equal(t, []string{
		"tests/trip.yaml:12:26-36",
		"tests/trip.yaml:14:3-13",
		"trip.yaml:31:15-25",
	}, refs(uri, 31, 16, false))
	assert.Equal(t, []string{"tests/trip.yaml:5:23-32", "trip.yaml:47:17-26"}, refs(uri, 5, 4, false))
}

func TestRename(t *testing.T) {
	c, dir, uri := tripProject(t)
	rename := func(line, col int, name string) map[string][]string {
		t.Helper()
		var we protocol.WorkspaceEdit
		c.call(protocol.MethodTextDocumentRename, protocol.RenameParams{TextDocumentPositionParams: docPos(uri, line, col), NewName: name}, &we)
		out := map[string][]string{}
		for u, edits := range we.Changes {
			p, _ := uriToPath(u)
			rel, _ := filepath.Rel(dir, p)
			for _, e := range edits {
				out[filepath.ToSlash(rel)] = append(out[filepath.ToSlash(rel)], fmt.Sprintf("%d:%d-%d %s", e.Range.Start.Line+1, e.Range.Start.Character+1, e.Range.End.Character+1, e.NewText))
			}
		}
		return out
	}
	assert.Equal(t, map[string][]string{
		"domain.yaml":     {"5:3-7 town", "18:14-18 town", "23:41-45 town", "24:28-32 town"},
		"trip.yaml":       {"18:15-19 town", "23:39-43 town", "26:19-23 town"},
		"tests/trip.yaml": {"9:13-17 town"},
	}, rename(23, 40, "town"))
	assert.Equal(t, map[string][]string{
		"trip.yaml":       {"5:3-12 book_stay", "47:17-26 book_stay"},
		"tests/trip.yaml": {"5:23-32 book_stay"},
	}, rename(5, 5, "book_stay"))
	assert.Equal(t, map[string][]string{
		"trip.yaml": {"28:19-23 reserve", "29:15-19 reserve"},
	}, rename(29, 16, "reserve"))

	// The edits, applied, give a project with the same diagnostics.
	err := c.callErr(protocol.MethodTextDocumentRename, protocol.RenameParams{TextDocumentPositionParams: docPos(uri, 23, 40), NewName: "nights"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "slot nights already exists")
	err = c.callErr(protocol.MethodTextDocumentRename, protocol.RenameParams{TextDocumentPositionParams: docPos(uri, 23, 40), NewName: "two words"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"two words" is not a valid slot name`)
	err = c.callErr(protocol.MethodTextDocumentRename, protocol.RenameParams{TextDocumentPositionParams: docPos(uri, 2, 1), NewName: "x"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no slot, flow, step, response or action at 2:1")
}

type codeAction struct {
	Title string `json:"title"`
	Edit  struct {
		Changes map[string][]protocol.TextEdit `json:"changes"`
	} `json:"edit"`
}

// apply applies one document's edits to its text.
func apply(text string, edits []protocol.TextEdit) string {
	sort.Slice(edits, func(i, j int) bool {
		a, b := edits[i].Range.Start, edits[j].Range.Start
		return a.Line > b.Line || a.Line == b.Line && a.Character > b.Character
	})
	for _, e := range edits {
		from, to := offsetOf(text, e.Range.Start), offsetOf(text, e.Range.End)
		text = text[:from] + e.NewText + text[to:]
	}
	return text
}

func TestCodeActions(t *testing.T) {
	c, _, uri := tripProject(t)
	src := mustReadURI(t, uri)
	actions := func(text string, line int) []codeAction {
		t.Helper()
		c.change(uri, 2, text)
		c.latestDiags(uri)
		var as []codeAction
		c.call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: uri},
			Range:        protocol.Range{Start: pos(line, 1), End: pos(line, 1)},
		}, &as)
		return as
	}
	fixed := func(text string, a codeAction) string {
		require.Len(t, a.Edit.Changes, 1)
		return apply(text, a.Edit.Changes[uri])
	}
	titles := func(as []codeAction) []string {
		out := []string{}
		for _, a := range as {
			out = append(out, a.Title)
		}
		return out
	}

	// Did you mean: the typo in a template is replaced, and the
	// diagnostic goes.
	typo := strings.Replace(src, "nights in {city}?", "nights in {cty}?", 1)
	as := actions(typo, 23)
	require.Equal(t, []string{`Change to "city"`, `Declare slot "cty" in the top-level slots`}, titles(as))
	c.change(uri, 3, fixed(typo, as[0]))
	assert.Len(t, c.latestDiags(uri), 2, "only the two W017 warnings are left")

	// Declaring the missing slot: trip.yaml has no slots mapping, so one
	// is made before flows:.
	c.change(uri, 4, fixed(typo, as[1]))
	ds := c.latestDiags(uri)
	for _, d := range ds {
		assert.NotEqual(t, "E032", d.Code, d.Message)
	}

	// A warning can be silenced on its line.
	as = actions(src, 18)
	require.Equal(t, []string{"Ignore W017 on this line (# soni:ignore W017)"}, titles(as))
	text := fixed(src, as[0])
	assert.Contains(t, text, "        slot: city  # soni:ignore W017\n")
	c.change(uri, 5, text)
	assert.Len(t, c.latestDiags(uri), 1)

	// A did-you-mean on a key's value: a jump to a step that is not there.
	bad := strings.Replace(src, `"true": book`, `"true": bok`, 1)
	as = actions(bad, 28)
	require.NotEmpty(t, as)
	assert.Equal(t, `Change to "book"`, as[0].Title)
	assert.Equal(t, src, fixed(bad, as[0]))
}

type docSymbol struct {
	Name     string         `json:"name"`
	Detail   string         `json:"detail"`
	Kind     int            `json:"kind"`
	Range    protocol.Range `json:"range"`
	Children []docSymbol    `json:"children"`
}

func TestDocumentSymbols(t *testing.T) {
	c, _, uri := tripProject(t)
	var syms []docSymbol
	c.call(protocol.MethodTextDocumentDocumentSymbol, protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}, &syms)
	var got []string
	for _, s := range syms {
		got = append(got, fmt.Sprintf("%s %s %d-%d", s.Detail, s.Name, s.Range.Start.Line+1, s.Range.End.Line+1))
		for _, ch := range s.Children {
			got = append(got, fmt.Sprintf("  %s %s %d-%d", ch.Detail, ch.Name, ch.Range.Start.Line+1, ch.Range.End.Line+1))
		}
	}
	assert.Equal(t, []string{
		"flow book_trip 5-38",
		"  collect step ask_city 16-19",
		"  collect step ask_nights 20-23",
		"  branch step check_city 24-28",
		"  action step book 29-33",
		"  say step done 34-38",
		"flow cancel_trip 39-47",
		"  link step start_over 45-47",
	}, got)
}

func TestFormatting(t *testing.T) {
	dir := copyProject(t, "trip")
	c := startServer(t, dir)
	messy := "#A comment that stays\r\nversion: \"1.0\"   \r\n\r\n\r\n\r\nflows:\r\n  f:   # a trailing comment\r\n    steps:\r\n      - step: a\r\n        type: say\r\n        message: |\r\n          two spaces after this:  \r\n\r\n\r\n          and blank lines above\r\n\r\n\r\n"
	uri := c.open(filepath.Join(dir, "messy.yaml"), messy)
	var edits []protocol.TextEdit
	c.call(protocol.MethodTextDocumentFormatting, protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}, &edits)
	require.Len(t, edits, 1)
	assert.Equal(t, "# A comment that stays\nversion: \"1.0\"\n\nflows:\n  f:   # a trailing comment\n    steps:\n      - step: a\n        type: say\n        message: |\n          two spaces after this:  \n\n\n          and blank lines above\n", apply(messy, edits))

	// A tidy file gets no edits; a broken one an error that says why.
	c.change(uri, 2, apply(messy, edits))
	c.call(protocol.MethodTextDocumentFormatting, protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}, &edits)
	assert.Empty(t, edits)
	c.change(uri, 3, "flows: [unclosed  \n")
	err := c.callErr(protocol.MethodTextDocumentFormatting, protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the file has a YAML error")
}

// While the file has a YAML error, completion still knows its flows'
// steps and slots, from the last text that parsed.
func TestCompletionWhileTheFileDoesNotParse(t *testing.T) {
	c, _, uri := tripProject(t)
	src := mustReadURI(t, uri)
	broken := strings.Replace(src, "jump_to: __end__", "jump_to: ", 1)
	broken = strings.Replace(broken, `        - "I need a room"`, `        - ["I need a room"`, 1)
	c.change(uri, 2, broken)
	ds := c.latestDiags(uri)
	require.NotEmpty(t, ds)
	assert.Equal(t, "E003", ds[0].Code, ds[0].Message)
	var l completionList
	c.call(protocol.MethodTextDocumentCompletion, protocol.CompletionParams{TextDocumentPositionParams: docPos(uri, 37, 18)}, &l)
	assert.Equal(t, []string{"__end__", "ask_city", "ask_nights", "book", "check_city", "done"}, labels(l))
	c.call(protocol.MethodTextDocumentCompletion, protocol.CompletionParams{TextDocumentPositionParams: docPos(uri, 18, 15)}, &l)
	assert.Equal(t, []string{"city", "nights", "reference"}, labels(l))
}
