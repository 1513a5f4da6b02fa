package diag

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixtureFiles are the sources of the golden fixture, relative to
// testdata/render; diagnostics name them exactly so.
var fixtureFiles = []string{"flows/main.yaml", "flows/other.yaml"}

// fixtureList is the fixed list behind the golden files: two files with
// sources, a tab-indented line, a non-ASCII line, a line with wide runes, a
// diagnostic without a position, warnings, suggestions, a message with
// characters GitHub must escape and a line number with two digits. It is
// deliberately out of order; tests sort it.
func fixtureList() List {
	return List{
		{Pos: Pos{File: "flows/other.yaml", Line: 6, Col: 5}, Severity: Error, Code: CodeUnknownKey,
			Message: `unknown key "stpes" in flow`, Suggestion: `did you mean "steps"?`, Path: "flows.farewell.stpes"},
		{Pos: Pos{File: "flows/main.yaml", Line: 12, Col: 21}, Severity: Error, Code: CodeUnknownTarget,
			Message: `on_invalid names unknown step "helo" in flow "greet"`, Suggestion: `did you mean "hello"?`, Path: "flows.greet.steps[2].on_invalid"},
		{Pos: Pos{File: "flows/main.yaml", Line: 7, Col: 28}, Severity: Error, Code: CodeUnknownSlot,
			Message: `template uses unknown slot "nmae"`, Suggestion: `did you mean "name"?`, Path: "flows.greet.steps[0].say"},
		{Pos: Pos{File: "flows/other.yaml", Line: 3, Col: 11}, Severity: Warning, Code: CodeUnknownSlotType,
			Message: `unknown slot type "txt"; it is treated as text`, Path: "slots.name.type"},
		{Pos: Pos{}, Severity: Error, Code: CodeFileRead,
			Message: `cannot read "flows/secret.yaml": permission denied`},
		{Pos: Pos{File: "flows/main.yaml", Line: 9, Col: 3}, Severity: Error, Code: CodeYAMLSyntax,
			Message: "found a tab character where an indentation space is expected"},
		{Pos: Pos{File: "flows/other.yaml", Line: 8, Col: 15}, Severity: Error, Code: CodeExpression,
			Message: "expression \"size > 100%\" does not compile,\nunexpected token Operator(\"%\")", Path: "flows.farewell.steps[0].when"},
		{Pos: Pos{File: "flows/other.yaml", Line: 9, Col: 17}, Severity: Warning, Code: CodeMaybeUnset,
			Message: `slot "name" may be read before it is set`, Path: "flows.farewell.steps[0].say"},
	}
}

// fixtureSources reads the fixture's source files.
func fixtureSources(t *testing.T) SourceMap {
	t.Helper()
	m := SourceMap{}
	for _, f := range fixtureFiles {
		b, err := os.ReadFile(filepath.Join("testdata", "render", filepath.FromSlash(f)))
		require.NoError(t, err)
		m[f] = b
	}
	return m
}

// checkGolden compares got with testdata/render/name, or rewrites the file
// when SONI_UPDATE=1.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "render", name)
	if os.Getenv("SONI_UPDATE") == "1" {
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file; run SONI_UPDATE=1 go test ./diag/")
	assert.Equal(t, string(want), string(got))
}

func TestRenderGolden(t *testing.T) {
	src := fixtureSources(t)
	l := fixtureList()
	l.Sort()
	tool := ToolInfo{Name: "soni", Version: "1.2.3", InformationURI: "https://github.com/soni-dev/soni"}

	tests := []struct {
		golden string
		render func(w *bytes.Buffer) error
	}{
		{"text.golden", func(w *bytes.Buffer) error { return WriteText(w, l, src, TextOptions{}) }},
		{"text_color.golden", func(w *bytes.Buffer) error { return WriteText(w, l, src, TextOptions{Color: true}) }},
		{"text_nosource.golden", func(w *bytes.Buffer) error { return WriteText(w, l, nil, TextOptions{}) }},
		{"json.golden", func(w *bytes.Buffer) error { return WriteJSON(w, l) }},
		{"github.golden", func(w *bytes.Buffer) error { return WriteGitHub(w, l) }},
		{"sarif.golden", func(w *bytes.Buffer) error { return WriteSARIF(w, l, tool) }},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			var first, second bytes.Buffer
			require.NoError(t, tt.render(&first))
			require.NoError(t, tt.render(&second))
			assert.Equal(t, first.Bytes(), second.Bytes(), "output must be deterministic")
			checkGolden(t, tt.golden, first.Bytes())
		})
	}
}

func TestRenderEmpty(t *testing.T) {
	tests := []struct {
		name   string
		render func(w *bytes.Buffer) error
		want   string
	}{
		{"text", func(w *bytes.Buffer) error { return WriteText(w, nil, nil, TextOptions{}) }, "no problems found\n"},
		{"text color", func(w *bytes.Buffer) error { return WriteText(w, List{}, nil, TextOptions{Color: true}) }, "no problems found\n"},
		{"json", func(w *bytes.Buffer) error { return WriteJSON(w, nil) }, "[]\n"},
		{"github", func(w *bytes.Buffer) error { return WriteGitHub(w, nil) }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			require.NoError(t, tt.render(&b))
			assert.Equal(t, tt.want, b.String())
		})
	}
}

func TestSummary(t *testing.T) {
	e := Diagnostic{Severity: Error, Code: "E001"}
	w := Diagnostic{Severity: Warning, Code: "W001"}
	tests := []struct {
		name string
		l    List
		want string
	}{
		{"empty", nil, "no problems found"},
		{"one error", List{e}, "1 error, 0 warnings"},
		{"one warning", List{w}, "0 errors, 1 warning"},
		{"one of each", List{e, w}, "1 error, 1 warning"},
		{"several", List{e, e, w, w, w}, "2 errors, 3 warnings"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Summary(tt.l))
		})
	}
}

func TestWriteTextSnippet(t *testing.T) {
	tests := []struct {
		name string
		src  string
		pos  Pos
		sugg string
		want string // the lines after the header
	}{
		{"ascii", "a: 1\nbb: 2\n", Pos{Line: 2, Col: 5}, "", "2 | bb: 2\n  |     ^\n"},
		{"first column", "key: x\n", Pos{Line: 1, Col: 1}, "", "1 | key: x\n  | ^\n"},
		{"tabs copied", "\t\tk: v\n", Pos{Line: 1, Col: 3}, "", "1 | \t\tk: v\n  | \t\t^\n"},
		{"tab after text", "a\tb\n", Pos{Line: 1, Col: 3}, "", "1 | a\tb\n  |  \t^\n"},
		{"runes not bytes", "é: ñ x\n", Pos{Line: 1, Col: 6}, "", "1 | é: ñ x\n  |      ^\n"},
		{"wide runes", "名前: x\n", Pos{Line: 1, Col: 5}, "", "1 | 名前: x\n  |       ^\n"},
		{"combining mark", "e\u0301x\n", Pos{Line: 1, Col: 3}, "", "1 | e\u0301x\n  |  ^\n"},
		{"past end of line", "ab\n", Pos{Line: 1, Col: 40}, "", "1 | ab\n  |   ^\n"},
		{"crlf", "a\r\nbc\r\n", Pos{Line: 2, Col: 2}, "", "2 | bc\n  |  ^\n"},
		{"no trailing newline", "a\nbc", Pos{Line: 2, Col: 2}, "", "2 | bc\n  |  ^\n"},
		{"control chars replaced", "a\x1b[31mb\n", Pos{Line: 1, Col: 7}, "", "1 | a\ufffd[31mb\n  |       ^\n"},
		{"invalid utf8 replaced", "a\xffb\n", Pos{Line: 1, Col: 3}, "", "1 | a\ufffdb\n  |   ^\n"},
		{"empty line", "a\n\nb\n", Pos{Line: 2, Col: 1}, "", "2 |\n  | ^\n"},
		{"two-digit gutter", strings.Repeat("x\n", 9) + "y: z\n", Pos{Line: 10, Col: 4}, "", "10 | y: z\n   |    ^\n"},
		{"no column", "a: 1\n", Pos{Line: 1}, "", "1 | a: 1\n"},
		{"line past end", "a: 1\n", Pos{Line: 2, Col: 1}, "", ""},
		{"empty source", "", Pos{Line: 1, Col: 1}, "", ""},
		{"no line", "a: 1\n", Pos{}, "", ""},
		{"suggestion is in the header only", "a: 1\n", Pos{Line: 1, Col: 1}, `did you mean "b"?`, "1 | a: 1\n  | ^\n"},
		{"suggestion without snippet", "a: 1\n", Pos{Line: 5, Col: 1}, `did you mean "b"?`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.pos.File = "f.yaml"
			d := Diagnostic{Pos: tt.pos, Severity: Error, Code: CodeUnknownKey, Message: "m", Suggestion: tt.sugg}
			var b bytes.Buffer
			require.NoError(t, WriteText(&b, List{d}, SourceMap{"f.yaml": []byte(tt.src)}, TextOptions{}))
			want := d.String() + "\n" + tt.want + "\n1 error, 0 warnings\n"
			assert.Equal(t, want, b.String())
		})
	}
}

func TestWriteTextMissingSource(t *testing.T) {
	d := Diagnostic{Pos: Pos{File: "gone.yaml", Line: 1, Col: 1}, Severity: Warning, Code: CodeEmptyFile, Message: "m"}
	for _, src := range []Sources{nil, SourceMap{}, SourceMap(nil), SourceMap{"other.yaml": []byte("x\n")}} {
		var b bytes.Buffer
		require.NoError(t, WriteText(&b, List{d}, src, TextOptions{}))
		assert.Equal(t, "gone.yaml:1:1: warning: m [W011]\n\n0 errors, 1 warning\n", b.String())
	}
}

func TestWriteTextColor(t *testing.T) {
	tests := []struct {
		name string
		d    Diagnostic
		want string
	}{
		{"error with position",
			Diagnostic{Pos: Pos{File: "f.yaml", Line: 1, Col: 2}, Severity: Error, Code: "E011", Message: "m", Suggestion: "s"},
			"\x1b[1mf.yaml:1:2:\x1b[0m \x1b[1;31merror\x1b[0m: m (s) [E011]\n1 | ab\n  |  \x1b[1;31m^\x1b[0m\n"},
		{"warning without position",
			Diagnostic{Severity: Warning, Code: "W007", Message: "m"},
			"\x1b[1;33mwarning\x1b[0m: m [W007]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			require.NoError(t, WriteText(&b, List{tt.d}, SourceMap{"f.yaml": []byte("ab\n")}, TextOptions{Color: true}))
			assert.Equal(t, tt.want+"\n"+Summary(List{tt.d})+"\n", b.String())
			var plain bytes.Buffer
			require.NoError(t, WriteText(&plain, List{tt.d}, SourceMap{"f.yaml": []byte("ab\n")}, TextOptions{}))
			assert.NotContains(t, plain.String(), "\x1b")
			assert.Equal(t, stripANSI(b.String()), plain.String(), "colour must only add escapes")
		})
	}
}

// stripANSI removes the escape sequences WriteText uses.
func stripANSI(s string) string {
	return strings.NewReplacer(ansiReset, "", ansiBold, "", ansiRed, "", ansiYellow, "").Replace(s)
}

func TestWriteJSON(t *testing.T) {
	l := List{
		{Pos: Pos{File: "a.yaml", Line: 2, Col: 3}, Severity: Warning, Code: "W004", Message: `slot "x" <unused> & unread`, Path: "slots.x"},
		{Severity: Error, Code: "E009", Message: "no flows", Suggestion: "add one"},
	}
	var b bytes.Buffer
	require.NoError(t, WriteJSON(&b, l))
	want := `[
  {
    "file": "a.yaml",
    "line": 2,
    "col": 3,
    "severity": "warning",
    "code": "W004",
    "message": "slot \"x\" <unused> & unread",
    "path": "slots.x"
  },
  {
    "file": "",
    "line": 0,
    "col": 0,
    "severity": "error",
    "code": "E009",
    "message": "no flows",
    "suggestion": "add one"
  }
]
`
	assert.Equal(t, want, b.String())

	var back []JSONDiagnostic
	require.NoError(t, json.Unmarshal(b.Bytes(), &back))
	require.Len(t, back, 2)
	assert.Equal(t, ToJSON(l[0]), back[0])
	assert.Equal(t, ToJSON(l[1]), back[1])
}

func TestGitHubEscape(t *testing.T) {
	tests := []struct {
		in, data, prop string
	}{
		{"plain text", "plain text", "plain text"},
		{"100%", "100%25", "100%25"},
		{"%0A literal", "%250A literal", "%250A literal"},
		{"a\nb", "a%0Ab", "a%0Ab"},
		{"a\r\nb", "a%0D%0Ab", "a%0D%0Ab"},
		{"k: v, w", "k: v, w", "k%3A v%2C w"},
		{"::error::x", "::error::x", "%3A%3Aerror%3A%3Ax"},
		{"ünï, cödé", "ünï, cödé", "ünï%2C cödé"},
		{"", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.data, EscapeGitHubData(tt.in))
			assert.Equal(t, tt.prop, EscapeGitHubProperty(tt.in))
		})
	}
}

func TestWriteGitHub(t *testing.T) {
	tests := []struct {
		name string
		d    Diagnostic
		want string
	}{
		{"error",
			Diagnostic{Pos: Pos{File: "flows/a.yaml", Line: 3, Col: 7}, Severity: Error, Code: CodeUnknownKey, Message: `unknown key "stpes"`, Suggestion: `did you mean "steps"?`},
			"::error file=flows/a.yaml,line=3,col=7,title=E011 unknown-key::unknown key \"stpes\" (did you mean \"steps\"?)\n"},
		{"warning",
			Diagnostic{Pos: Pos{File: "a.yaml", Line: 1, Col: 1}, Severity: Warning, Code: CodeUnreachable, Message: "step never runs"},
			"::warning file=a.yaml,line=1,col=1,title=W001 unreachable-step::step never runs\n"},
		{"escaped file and message",
			Diagnostic{Pos: Pos{File: "dir,x/a:b.yaml", Line: 2, Col: 1}, Severity: Error, Code: CodeExpression, Message: "100% wrong\nsecond line: here"},
			"::error file=dir%2Cx/a%3Ab.yaml,line=2,col=1,title=E033 expression::100%25 wrong%0Asecond line: here\n"},
		{"line without column",
			Diagnostic{Pos: Pos{File: "a.yaml", Line: 4}, Severity: Error, Code: CodeDuplicateKey, Message: "m"},
			"::error file=a.yaml,line=4,title=E004 duplicate-key::m\n"},
		{"file without line",
			Diagnostic{Pos: Pos{File: "a.yaml"}, Severity: Warning, Code: CodeEmptyFile, Message: "m"},
			"::warning file=a.yaml,title=W011 empty-file::m\n"},
		{"no position",
			Diagnostic{Severity: Error, Code: CodeNoFlows, Message: "m"},
			"::error title=E009 no-flows::m\n"},
		{"unknown code",
			Diagnostic{Severity: Error, Code: "X1:2", Message: "m"},
			"::error title=X1%3A2::m\n"},
		{"no code",
			Diagnostic{Severity: Error, Message: "m"},
			"::error::m\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			require.NoError(t, WriteGitHub(&b, List{tt.d}))
			assert.Equal(t, tt.want, b.String())
		})
	}
}

func TestWriteSARIF(t *testing.T) {
	l := fixtureList()
	l = append(l, Diagnostic{Pos: Pos{File: "dir with space/x.yaml"}, Severity: Error, Code: "E999", Message: "uncatalogued"})
	l = append(l, Diagnostic{Pos: Pos{File: "/abs/y.yaml", Line: 1, Col: 1}, Severity: Warning, Code: CodeEmptyFile, Message: "empty"})
	l.Sort()
	var b bytes.Buffer
	require.NoError(t, WriteSARIF(&b, l, ToolInfo{Name: "soni", Version: "0.1.0", InformationURI: "https://example.com/soni"}))
	require.True(t, bytes.HasSuffix(b.Bytes(), []byte("}\n")))

	var log struct {
		Schema  string `json:"$schema"`
		Version string `json:"version"`
		Runs    []struct {
			ColumnKind string `json:"columnKind"`
			Tool       struct {
				Driver struct {
					Name           string `json:"name"`
					Version        string `json:"version"`
					InformationURI string `json:"informationUri"`
					Rules          []struct {
						ID               string `json:"id"`
						Name             string `json:"name"`
						ShortDescription struct {
							Text string `json:"text"`
						} `json:"shortDescription"`
						FullDescription struct {
							Text string `json:"text"`
						} `json:"fullDescription"`
						Help struct {
							Text string `json:"text"`
						} `json:"help"`
						DefaultConfiguration struct {
							Level string `json:"level"`
						} `json:"defaultConfiguration"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Artifacts []struct {
				Location struct {
					URI string `json:"uri"`
				} `json:"location"`
			} `json:"artifacts"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex *int   `json:"ruleIndex"`
				Level     string `json:"level"`
				Message   struct {
					Text string `json:"text"`
				} `json:"message"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI   string `json:"uri"`
							Index *int   `json:"index"`
						} `json:"artifactLocation"`
						Region *struct {
							StartLine   int `json:"startLine"`
							StartColumn int `json:"startColumn"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				Properties map[string]string `json:"properties"`
			} `json:"results"`
		} `json:"runs"`
	}
	require.NoError(t, json.Unmarshal(b.Bytes(), &log))

	assert.Equal(t, "2.1.0", log.Version)
	assert.Equal(t, "https://json.schemastore.org/sarif-2.1.0.json", log.Schema)
	require.Len(t, log.Runs, 1)
	run := log.Runs[0]
	assert.Equal(t, "unicodeCodePoints", run.ColumnKind)
	drv := run.Tool.Driver
	assert.Equal(t, "soni", drv.Name)
	assert.Equal(t, "0.1.0", drv.Version)
	assert.Equal(t, "https://example.com/soni", drv.InformationURI)

	require.Len(t, drv.Rules, len(Rules), "the whole catalogue is published")
	for i, r := range Rules {
		got := drv.Rules[i]
		assert.Equal(t, r.Code, got.ID)
		assert.Equal(t, r.Name, got.Name)
		assert.Equal(t, r.Summary, got.ShortDescription.Text)
		assert.Equal(t, r.Help, got.FullDescription.Text)
		assert.Equal(t, r.Help, got.Help.Text)
		assert.Equal(t, r.Severity.String(), got.DefaultConfiguration.Level)
	}

	var uris []string
	for _, a := range run.Artifacts {
		uris = append(uris, a.Location.URI)
	}
	// flows/main.yaml has a YAML syntax error, which comes first.
	assert.Equal(t, []string{"flows/main.yaml", "file:///abs/y.yaml", "dir%20with%20space/x.yaml", "flows/other.yaml"}, uris)

	require.Len(t, run.Results, len(l))
	for i, d := range l {
		res := run.Results[i]
		assert.Equal(t, d.Code, res.RuleID)
		assert.Equal(t, d.Severity.String(), res.Level)
		assert.Equal(t, messageWithSuggestion(d), res.Message.Text)
		if r := RuleOf(d.Code); r != nil {
			require.NotNil(t, res.RuleIndex)
			assert.Equal(t, d.Code, drv.Rules[*res.RuleIndex].ID)
		} else {
			assert.Nil(t, res.RuleIndex, "uncatalogued code %q has no rule index", d.Code)
		}
		if d.Path != "" {
			assert.Equal(t, map[string]string{"path": d.Path}, res.Properties)
		} else {
			assert.Nil(t, res.Properties)
		}
		if d.Pos.File == "" {
			assert.Empty(t, res.Locations)
			continue
		}
		require.Len(t, res.Locations, 1)
		pl := res.Locations[0].PhysicalLocation
		require.NotNil(t, pl.ArtifactLocation.Index)
		assert.Equal(t, uris[*pl.ArtifactLocation.Index], pl.ArtifactLocation.URI)
		if !d.Pos.IsValid() {
			assert.Nil(t, pl.Region)
			continue
		}
		require.NotNil(t, pl.Region)
		assert.Equal(t, d.Pos.Line, pl.Region.StartLine)
		assert.Equal(t, d.Pos.Col, pl.Region.StartColumn)
	}
}

func TestWriteSARIFEmpty(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteSARIF(&b, nil, ToolInfo{Name: "soni"}))
	var log map[string]any
	require.NoError(t, json.Unmarshal(b.Bytes(), &log))
	run := log["runs"].([]any)[0].(map[string]any)
	assert.Equal(t, []any{}, run["results"], "results is an empty array, not null")
	assert.NotContains(t, run, "artifacts")
	driver := run["tool"].(map[string]any)["driver"].(map[string]any)
	assert.NotContains(t, driver, "version")
	assert.NotContains(t, driver, "informationUri")
}

func TestWriteSARIFNeedsToolName(t *testing.T) {
	var b bytes.Buffer
	err := WriteSARIF(&b, nil, ToolInfo{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "tool name")
	assert.Empty(t, b.String())
}

func TestFileURI(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a.yaml", "a.yaml"},
		{"flows/a.yaml", "flows/a.yaml"},
		{"./flows/a.yaml", "./flows/a.yaml"},
		{"my flows/ä.yaml", "my%20flows/%C3%A4.yaml"},
		{"a#b?.yaml", "a%23b%3F.yaml"},
		{"/abs/a.yaml", "file:///abs/a.yaml"},
		{"c:d.yaml", "./c:d.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, fileURI(tt.in))
		})
	}
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestRenderWriteErrors(t *testing.T) {
	l := fixtureList()
	tests := []struct {
		name   string
		render func() error
	}{
		{"text", func() error { return WriteText(failWriter{}, l, nil, TextOptions{}) }},
		{"json", func() error { return WriteJSON(failWriter{}, l) }},
		{"github", func() error { return WriteGitHub(failWriter{}, l) }},
		{"sarif", func() error { return WriteSARIF(failWriter{}, l, ToolInfo{Name: "soni"}) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.EqualError(t, tt.render(), "disk full")
		})
	}
}
