package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/soni-dev/soni/actions"
	"github.com/soni-dev/soni/ir"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) {
	// As in main: a copy of the test binary started to supervise an exec
	// action does that and exits here, before testscript sees it.
	actions.EnableSupervisor()
	testscript.Main(m, map[string]func(){
		"soni": main, // the real entry point, signal handling included
	})
}

// TestScripts runs the CLI scripts in testdata/script. SONI_UPDATE=1
// rewrites their expected output.
func TestScripts(t *testing.T) {
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       os.Getenv("SONI_UPDATE") != "",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(e *testscript.Env) error {
			e.Setenv("ROOT", root)
			// Exec actions written as "go run" need the Go caches of the
			// user running the tests, not the script's empty home.
			for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOFLAGS", "GOPROXY"} {
				if v := goEnv(k); v != "" {
					e.Setenv(k, v)
				}
			}
			e.Setenv("NO_COLOR", "1")
			return nil
		},
	})
}

// TestExitCodes drives run directly, since testscript cannot assert a
// specific exit status.
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	require.NoError(t, os.WriteFile(good, []byte(goodFlow), 0o644))
	bad := filepath.Join(dir, "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("flows:\n  f:\n    steps:\n      - step: a\n        type: say\n        mesage: hi\n"), 0o644))
	warn := filepath.Join(dir, "warn.yaml")
	require.NoError(t, os.WriteFile(warn, []byte(goodFlow+"slots:\n  unused: {type: text}\n"), 0o644))
	tests := []struct {
		name string
		args []string
		want int
		out  string
	}{
		{"version", []string{"--version"}, exitOK, "soni version"},
		{"help", []string{"help"}, exitOK, "validate"},
		{"valid", []string{"validate", good}, exitOK, "no problems found"},
		{"invalid", []string{"validate", bad}, exitFailed, "E011"},
		{"warning passes", []string{"validate", warn}, exitOK, "W004"},
		{"warning strict", []string{"validate", "--strict", warn}, exitFailed, "W004"},
		{"strict after path", []string{"validate", warn, "--strict"}, exitFailed, "W004"},
		{"missing path", []string{"validate"}, exitUsage, ""},
		{"unreadable path", []string{"validate", filepath.Join(dir, "nope")}, exitUsage, "E001"},
		{"bad format", []string{"validate", "--format", "xml", good}, exitUsage, ""},
		{"unknown flag", []string{"validate", "--nope", good}, exitUsage, ""},
		{"unknown command", []string{"frobnicate"}, exitUsage, ""},
		{"compile", []string{"compile", good}, exitOK, `"ir_version": 1`},
		{"compile errors", []string{"compile", bad}, exitFailed, ""},
		{"compile two paths", []string{"compile", good, good}, exitUsage, ""},
		{"graph", []string{"graph", good}, exitOK, "flowchart TD"},
		{"graph dot", []string{"graph", good, "--format", "dot"}, exitOK, "digraph soni"},
		{"graph unknown flow", []string{"graph", good, "--flow", "nope"}, exitUsage, ""},
		{"schema", []string{"schema"}, exitOK, "$schema"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), append([]string{"soni"}, tt.args...), strings.NewReader(""), &stdout, &stderr)
			assert.Equal(t, tt.want, code, "stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
			if tt.out != "" {
				assert.Contains(t, stdout.String(), tt.out)
			}
		})
	}
}

const goodFlow = `version: "1.0"
flows:
  greet:
    trigger:
      intents: ["hello"]
    steps:
      - step: hi
        type: say
        message: Hello!
`

// TestSARIFTenMistakes parses the SARIF output back and checks the
// properties SARIF 2.1.0 requires for code-scanning upload.
func TestSARIFTenMistakes(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"soni", "validate", "--format", "sarif", "../../testdata/ten_mistakes.yaml"}, strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, exitFailed, code, stderr.String())
	var doc struct {
		Version string `json:"version"`
		Schema  string `json:"$schema"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID string `json:"id"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine   int `json:"startLine"`
							StartColumn int `json:"startColumn"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &doc))
	assert.Equal(t, "2.1.0", doc.Version)
	assert.Contains(t, doc.Schema, "sarif")
	require.Len(t, doc.Runs, 1)
	assert.Equal(t, "soni", doc.Runs[0].Tool.Driver.Name)
	assert.NotEmpty(t, doc.Runs[0].Tool.Driver.Rules)
	require.Len(t, doc.Runs[0].Results, 10)
	for _, r := range doc.Runs[0].Results {
		require.Len(t, r.Locations, 1)
		loc := r.Locations[0].PhysicalLocation
		assert.Equal(t, "../../testdata/ten_mistakes.yaml", loc.ArtifactLocation.URI)
		assert.Positive(t, loc.Region.StartLine)
		assert.Positive(t, loc.Region.StartColumn)
	}
}

// goEnv returns a Go setting as the go command sees it.
func goEnv(key string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// TestGraphEvaluateBothCases: a branch on an expression with both true and
// false cases has no "no match" edge.
func TestGraphEvaluateBothCases(t *testing.T) {
	f := &ir.Flow{Name: "f", Nodes: []*ir.Node{
		{ID: "b", Kind: ir.KindBranch, Evaluate: &ir.Expr{Src: "x > 1"}, Next: 1, Cases: []ir.Case{{Pattern: "true", Target: 1}, {Pattern: "false", Target: 2}}},
		{ID: "y", Kind: ir.KindSay, Next: ir.End},
		{ID: "n", Kind: ir.KindSay, Next: ir.End},
		{ID: "s", Kind: ir.KindBranch, Slot: "x", Next: 1, Cases: []ir.Case{{Pattern: "true", Target: 1}, {Pattern: "false", Target: 2}}},
	}}
	var labels []string
	for _, e := range flowEdges(f) {
		if e.from == 0 || e.from == 3 {
			labels = append(labels, fmt.Sprintf("%d:%s", e.from, e.label))
		}
	}
	assert.Equal(t, []string{"0:true", "0:false", "3:true", "3:false", "3:no match"}, labels, "a slot may hold other values; an expression may not")
}

// TestGraphAskAction: a collect asked by an action names it.
func TestGraphAskAction(t *testing.T) {
	assert.Equal(t, "ask: collect handle, asked by action_ask_handle", nodeLabel(&ir.Node{ID: "ask", Kind: ir.KindCollect, Slot: "handle", AskAction: "action_ask_handle"}))
	assert.Equal(t, "ask: collect handle", nodeLabel(&ir.Node{ID: "ask", Kind: ir.KindCollect, Slot: "handle"}))
}
