package convtest

import (
	"bytes"
	"encoding/xml"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The JUnit shape the CI reporters read, decoded independently of the
// writer's own types.
type xmlSuites struct {
	XMLName  xml.Name   `xml:"testsuites"`
	Tests    int        `xml:"tests,attr"`
	Failures int        `xml:"failures,attr"`
	Errors   int        `xml:"errors,attr"`
	Skipped  int        `xml:"skipped,attr"`
	Time     string     `xml:"time,attr"`
	Suites   []xmlSuite `xml:"testsuite"`
}

type xmlSuite struct {
	Name     string    `xml:"name,attr"`
	Tests    int       `xml:"tests,attr"`
	Failures int       `xml:"failures,attr"`
	Errors   int       `xml:"errors,attr"`
	Skipped  int       `xml:"skipped,attr"`
	Time     string    `xml:"time,attr"`
	Cases    []xmlCase `xml:"testcase"`
}

type xmlCase struct {
	Name      string `xml:"name,attr"`
	Classname string `xml:"classname,attr"`
	Line      int    `xml:"line,attr"`
	Time      string `xml:"time,attr"`
	Failure   *struct {
		Message string `xml:"message,attr"`
		Text    string `xml:",chardata"`
	} `xml:"failure"`
	Error *struct {
		Message string `xml:"message,attr"`
		Text    string `xml:",chardata"`
	} `xml:"error"`
	Skipped *struct {
		Message string `xml:"message,attr"`
	} `xml:"skipped"`
}

// TestJUnit writes JUnit XML and parses it back.
func TestJUnit(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "loop.yaml", "flows:\n  spin:\n    trigger: {intents: [spin]}\n    steps:\n      - step: a\n        type: set\n        slots: {n: 1}\n        jump_to: a\n")
	loop := writeFile(t, dir, "t/loop_test.yaml", "flows: ../loop.yaml\ntest_cases:\n  - test_case: spins\n    steps:\n      - user: spin\n")
	paths := []string{filepath.Join("testdata", "assert", "bot.yaml"), filepath.Join("testdata", "assert", "fixtures.yaml"), loop}
	_, r := run(t, paths, Options{})
	var b bytes.Buffer
	require.NoError(t, WriteJUnit(&b, r))
	require.True(t, strings.HasPrefix(b.String(), xml.Header))

	var got xmlSuites
	require.NoError(t, xml.Unmarshal(b.Bytes(), &got))
	assert.Equal(t, 6, got.Tests)
	assert.Equal(t, 2, got.Failures)
	assert.Equal(t, 1, got.Errors)
	assert.Equal(t, 1, got.Skipped)
	assert.Equal(t, "0.000", got.Time, "the injected clock makes every time zero")
	require.Len(t, got.Suites, 3)
	// Files are in path order: the temporary directory is absolute.
	bot, fx, spin := got.Suites[1], got.Suites[2], got.Suites[0]
	assert.Equal(t, "testdata/assert/bot.yaml", bot.Name)
	assert.Equal(t, []int{2, 1, 0, 0}, []int{bot.Tests, bot.Failures, bot.Errors, bot.Skipped})
	require.Len(t, bot.Cases, 2)
	assert.Equal(t, "bot_pass", bot.Cases[0].Name)
	assert.Nil(t, bot.Cases[0].Failure)
	assert.Equal(t, "testdata/assert/bot.yaml", bot.Cases[0].Classname)
	assert.Equal(t, 6, bot.Cases[0].Line)
	assert.Equal(t, "0.000", bot.Cases[0].Time)
	fail := bot.Cases[1].Failure
	require.NotNil(t, fail)
	assert.Equal(t, `testdata/assert/bot.yaml:15: test case bot_fail failed at turn 1 ("hello")`, fail.Message)
	assert.Contains(t, fail.Text, "-I can take two orders.\n")
	assert.Contains(t, fail.Text, "+I can take an order.\n")

	assert.Equal(t, []int{3, 1, 0, 1}, []int{fx.Tests, fx.Failures, fx.Errors, fx.Skipped})
	require.NotNil(t, fx.Cases[2].Skipped)
	assert.Equal(t, "waiting for the new price list", fx.Cases[2].Skipped.Message)

	require.Len(t, spin.Cases, 1)
	require.NotNil(t, spin.Cases[0].Error, "a turn that cannot run is an error, not a failure")
	assert.Contains(t, spin.Cases[0].Error.Text, "max_steps_per_turn")
}

// TestCoverage counts the steps the cases reached, per flow.
func TestCoverage(t *testing.T) {
	_, r := run(t, []string{filepath.Join("testdata", "assert", "bot.yaml"), filepath.Join("testdata", "assert", "stubs.yaml")}, Options{})
	require.Len(t, r.Coverage, 1)
	pc := r.Coverage[0]
	byFlow := map[string]*FlowCoverage{}
	for _, fc := range pc.Flows {
		byFlow[fc.Flow] = fc
	}
	assert.Equal(t, []int{2, 2}, []int{byFlow["hello"].Covered, byFlow["hello"].Total})
	assert.Equal(t, []int{0, 2}, []int{byFlow["info"].Covered, byFlow["info"].Total})
	order := byFlow["order"]
	assert.Equal(t, []int{5, 6}, []int{order.Covered, order.Total}, "missed: %v", order.Missed)
	require.Len(t, order.Missed, 1)
	assert.Equal(t, "done", order.Missed[0].Step)
	assert.Equal(t, 41, order.Missed[0].Pos.Line)
	assert.Equal(t, 7, pc.Covered)
	assert.Equal(t, 10, pc.Total)
	assert.InDelta(t, 70.0, pc.Percent(), 1e-9)

	var b bytes.Buffer
	require.NoError(t, WriteCoverage(&b, r.Coverage))
	golden(t, filepath.Join("testdata", "coverage.golden"), b.Bytes())
}

// TestCoverageEmpty treats a project with no steps as covered.
func TestCoverageEmpty(t *testing.T) {
	assert.InDelta(t, 100.0, (&ProjectCoverage{}).Percent(), 1e-9)
	assert.InDelta(t, 50.0, (&FlowCoverage{Covered: 1, Total: 2}).Percent(), 1e-9)
}

// TestUnifiedDiff pins the diff format.
func TestUnifiedDiff(t *testing.T) {
	tests := []struct {
		name string
		a, b []string
		want string
	}{
		{"equal", []string{"a", "b"}, []string{"a", "b"}, ""},
		{"both empty", nil, nil, ""},
		{"changed line", []string{"a", "b", "c"}, []string{"a", "x", "c"}, "--- e\n+++ a\n@@ -1,3 +1,3 @@\n a\n-b\n+x\n c\n"},
		{"added to empty", nil, []string{"x"}, "--- e\n+++ a\n@@ -0,0 +1 @@\n+x\n"},
		{"removed all", []string{"x", "y"}, nil, "--- e\n+++ a\n@@ -1,2 +0,0 @@\n-x\n-y\n"},
		{"added at end", []string{"a"}, []string{"a", "b"}, "--- e\n+++ a\n@@ -1 +1,2 @@\n a\n+b\n"},
		{"control characters quoted", []string{"a\nb"}, []string{"a b"}, "--- e\n+++ a\n@@ -1 +1 @@\n-\"a\\nb\"\n+a b\n"},
		{
			"two hunks",
			[]string{"x", "1", "2", "3", "4", "5", "6", "7", "8", "y"},
			[]string{"X", "1", "2", "3", "4", "5", "6", "7", "8", "Y"},
			"--- e\n+++ a\n@@ -1,4 +1,4 @@\n-x\n+X\n 1\n 2\n 3\n@@ -7,4 +7,4 @@\n 6\n 7\n 8\n-y\n+Y\n",
		},
		{
			"close changes merge",
			[]string{"x", "1", "2", "3", "y"},
			[]string{"X", "1", "2", "3", "Y"},
			"--- e\n+++ a\n@@ -1,5 +1,5 @@\n-x\n+X\n 1\n 2\n 3\n-y\n+Y\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, UnifiedDiff("e", "a", tt.a, tt.b))
		})
	}
}

// TestEventText renders every kind of event on one line.
func TestEventText(t *testing.T) {
	_, r := run(t, []string{filepath.Join("testdata", "assert", "action_executed.yaml")}, Options{})
	var lines []string
	for _, c := range r.Files[0].Cases {
		for _, f := range c.Failures {
			for _, e := range f.Events {
				lines = append(lines, EventText(e))
			}
		}
	}
	assert.Contains(t, lines, `slot_set order.item = "tea"`)
	assert.Contains(t, lines, "action_failed get_price: price service down")
	assert.Contains(t, lines, "flow_completed order")
}

// TestEventNames names a conversation slot in the events of a failing turn
// without the flow that happened to set it, and a flow slot as FLOW.SLOT.
func TestEventNames(t *testing.T) {
	tests := []struct {
		name, commands, want string
	}{
		{"conversation slot set in a flow", `[{start_flow: order}, {set_slot: {tier: premium}}]`, `slot_set tier = "premium"`},
		{"conversation slot set with no flow", `[{set_slot: {tier: premium}}]`, `slot_set tier = "premium"`},
		{"flow slot", `[{start_flow: {flow: order, slots: {item: tea}}}]`, `slot_set order.item = "tea"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, t.TempDir(), "t.yaml", "test_cases:\n  - test_case: a\n    steps:\n      - user: x\n        commands: "+tt.commands+"\n      - bot: never said\n")
			_, r := run(t, []string{path}, Options{Flows: projectDir(t)})
			require.Equal(t, 1, r.Failed)
			text := textOf(t, r)
			assert.Contains(t, text, "\n    "+tt.want+"\n")
		})
	}
}
