package convtest

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/soni-dev/soni/tmpl"
	"github.com/soni-dev/soni/vm"
)

// TextOptions configure [WriteText].
type TextOptions struct {
	// Color paints the headers and the diff; the caller decides (soni
	// colours only when stdout is a terminal and NO_COLOR is unset).
	Color bool
	// Notes, when set, gives lines to print under a failing case's first
	// failing turn (soni test names the import report's items that touch
	// it).
	Notes func(c *CaseResult, f *Failure) []string
}

const (
	ansiReset = "\x1b[0m"
	ansiBold  = "\x1b[1m"
	ansiRed   = "\x1b[31m"
	ansiGreen = "\x1b[32m"
	ansiCyan  = "\x1b[36m"
)

// Summary returns the report's last line: "N passed, M failed", plus
// ", K skipped" when any were skipped.
func (r *Report) Summary() string {
	s := fmt.Sprintf("%d passed, %d failed", r.Passed, r.Failed)
	if r.Skipped > 0 {
		s += fmt.Sprintf(", %d skipped", r.Skipped)
	}
	return s
}

// FailureText renders one failing case without colour: what JUnit and
// JSON carry.
func (c *CaseResult) FailureText() string {
	var b strings.Builder
	writeCase(&b, c, TextOptions{})
	return b.String()
}

// WriteText writes the report in the human format: the failures
// ([WriteFailures]), then the summary line.
func WriteText(w io.Writer, r *Report, opts TextOptions) error {
	if err := WriteFailures(w, r, opts); err != nil {
		return err
	}
	_, err := io.WriteString(w, r.Summary()+"\n")
	return err
}

// WriteFailures writes, for each failing case in file and case order,
// where it failed, the diff of the replies, the failed checks and the
// events of the turn, each followed by a blank line.
func WriteFailures(w io.Writer, r *Report, opts TextOptions) error {
	var b strings.Builder
	for _, fr := range r.Files {
		for _, c := range fr.Cases {
			if c.Status == Failed {
				writeCase(&b, c, opts)
				b.WriteByte('\n')
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeCase writes a failing case: the first failing turn under the
// case's header, then every later failing turn.
func writeCase(b *strings.Builder, c *CaseResult, opts TextOptions) {
	if len(c.Failures) == 0 {
		return
	}
	f := c.Failures[0]
	b.WriteString(paint(opts, ansiBold, f.Header(c.Name)))
	b.WriteByte('\n')
	writeFailure(b, f, opts, "  ")
	if opts.Notes != nil {
		for _, n := range opts.Notes(c, f) {
			fmt.Fprintf(b, "  %s\n", n)
		}
	}
	for _, later := range c.Failures[1:] {
		fmt.Fprintf(b, "  later, %s: turn %d (%q) also failed\n", lineOf(later.Pos), later.Turn, later.User)
		writeFailure(b, later, opts, "    ")
	}
}

func paint(opts TextOptions, color, s string) string {
	if !opts.Color {
		return s
	}
	return color + s + ansiReset
}

// writeFailure writes the body of one failing turn: the runtime error, the
// diff of the replies, the failed checks and the turn's events.
func writeFailure(b *strings.Builder, f *Failure, opts TextOptions, indent string) {
	if f.Error != "" {
		fmt.Fprintf(b, "%serror: %s\n", indent, f.Error)
	}
	if f.Diff != "" {
		fmt.Fprintf(b, "%sreplies differ:\n", indent)
		for _, line := range strings.Split(strings.TrimSuffix(f.Diff, "\n"), "\n") {
			color := ""
			switch {
			case strings.HasPrefix(line, "---"), strings.HasPrefix(line, "+++"):
				color = ansiBold
			case strings.HasPrefix(line, "@@"):
				color = ansiCyan
			case strings.HasPrefix(line, "-"):
				color = ansiRed
			case strings.HasPrefix(line, "+"):
				color = ansiGreen
			}
			b.WriteString(indent + "  ")
			if color != "" {
				line = paint(opts, color, line)
			}
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	for _, p := range f.Problems {
		fmt.Fprintf(b, "%s%s\n", indent, p)
	}
	if f.Error != "" {
		return
	}
	if len(f.Metadata) > 0 {
		fmt.Fprintf(b, "%ssession metadata: %s\n", indent, tmpl.Format(f.Metadata))
	}
	// The flows of soni's default patterns that ran are left out: they
	// are in the JSON report.
	events := make([]vm.Event, 0, len(f.Events))
	for _, e := range f.Events {
		if f.defaultPattern == nil || !f.defaultPattern(e.Flow) || e.Type == vm.EventSlotSet {
			events = append(events, e)
		}
	}
	if len(events) == 0 {
		fmt.Fprintf(b, "%sevents of the turn: none\n", indent)
		return
	}
	fmt.Fprintf(b, "%sevents of the turn:\n", indent)
	for _, e := range events {
		if e.Type == vm.EventSlotSet && f.conv != nil && f.conv(e.Slot) {
			// A conversation slot belongs to no flow: "slot_set tier",
			// not the flow that happened to set it.
			e.Flow = ""
		}
		fmt.Fprintf(b, "%s  %s\n", indent, EventText(e))
	}
}

// EventText renders an event on one line, such as "slot_set
// transfer_funds.amount = 50" or "action_failed get_balance: timeout". A
// slot_set event is named FLOW.SLOT when it has a flow; the failure report
// clears the flow of conversation slots, which belong to none.
func EventText(e vm.Event) string {
	switch e.Type {
	case vm.EventSlotSet:
		name := e.Slot
		if e.Flow != "" {
			name = e.Flow + "." + e.Slot
		}
		if e.New == nil {
			return "slot_set " + name + " cleared"
		}
		return "slot_set " + name + " = " + show(e.New)
	case vm.EventSlotReset:
		return "slot_reset " + e.Flow + "." + e.Slot
	case vm.EventActionExecuted:
		return "action_executed " + e.Action
	case vm.EventActionFailed:
		return "action_failed " + e.Action + ": " + e.Error
	}
	return string(e.Type) + " " + e.Flow
}

// jsonCase is the JSON form of a case result.
type jsonCase struct {
	File     string        `json:"file"`
	Case     string        `json:"case"`
	Line     int           `json:"line"`
	Status   Status        `json:"status"`
	Skip     string        `json:"skip,omitempty"`
	Failures []jsonFailure `json:"failures,omitempty"`
}

type jsonFailure struct {
	Turn     int            `json:"turn"`
	User     string         `json:"user"`
	Line     int            `json:"line"`
	Expected []string       `json:"expected"`
	Actual   []string       `json:"actual"`
	Diff     string         `json:"diff,omitempty"`
	Problems []string       `json:"problems,omitempty"`
	Events   []jsonEvent    `json:"events"`
	Metadata map[string]any `json:"metadata,omitempty"`
	Error    string         `json:"error,omitempty"`
}

type jsonEvent struct {
	Type   vm.EventType `json:"type"`
	Flow   string       `json:"flow,omitempty"`
	Slot   string       `json:"slot,omitempty"`
	Action string       `json:"action,omitempty"`
	Value  any          `json:"value,omitempty"`
	Error  string       `json:"error,omitempty"`
}

// WriteJSON writes one JSON object per test case, one per line, in file and
// case order: file, case, line, status, the skip reason, and for a failed
// case its failing turns (expected and actual replies, the diff, the
// failed checks, the events or the runtime error). Durations are left out
// so that the output is the same on every run.
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, fr := range r.Files {
		for _, c := range fr.Cases {
			jc := jsonCase{File: c.File, Case: c.Name, Line: c.Pos.Line, Status: c.Status, Skip: c.Skip}
			for _, f := range c.Failures {
				jf := jsonFailure{Turn: f.Turn, User: f.User, Line: f.Pos.Line, Expected: nonNil(f.Expected), Actual: nonNil(f.Actual), Diff: f.Diff, Problems: f.Problems, Error: f.Error, Events: []jsonEvent{}, Metadata: f.Metadata}
				for _, e := range f.Events {
					jf.Events = append(jf.Events, jsonEvent{Type: e.Type, Flow: e.Flow, Slot: e.Slot, Action: e.Action, Value: e.New, Error: e.Error})
				}
				jc.Failures = append(jc.Failures, jf)
			}
			if err := enc.Encode(jc); err != nil {
				return err
			}
		}
	}
	return nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// The JUnit XML model: the common subset that GitHub, GitLab and Jenkins
// reporters read.
type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Errors   int          `xml:"errors,attr"`
		Skipped  int          `xml:"skipped,attr"`
		Time     string       `xml:"time,attr"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name     string      `xml:"name,attr"`
		Tests    int         `xml:"tests,attr"`
		Failures int         `xml:"failures,attr"`
		Errors   int         `xml:"errors,attr"`
		Skipped  int         `xml:"skipped,attr"`
		Time     string      `xml:"time,attr"`
		File     string      `xml:"file,attr"`
		Cases    []junitCase `xml:"testcase"`
	}
	junitCase struct {
		Name      string        `xml:"name,attr"`
		Classname string        `xml:"classname,attr"`
		File      string        `xml:"file,attr"`
		Line      int           `xml:"line,attr"`
		Time      string        `xml:"time,attr"`
		Failure   *junitProblem `xml:"failure,omitempty"`
		Error     *junitProblem `xml:"error,omitempty"`
		Skipped   *junitSkipped `xml:"skipped,omitempty"`
	}
	junitProblem struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
	junitSkipped struct {
		Message string `xml:"message,attr,omitempty"`
	}
)

// WriteJUnit writes the report as JUnit XML: one testsuite per test file,
// one testcase per case, with a failure (or, for a turn that could not
// run, an error) whose message is the failure's header and whose text is
// the full failure with the diff. Times are in seconds.
func WriteJUnit(w io.Writer, r *Report) error {
	root := junitSuites{Name: "soni test"}
	var total time.Duration
	for _, fr := range r.Files {
		s := junitSuite{Name: fr.Path, File: fr.Path, Time: seconds(fr.Duration)}
		for _, c := range fr.Cases {
			jc := junitCase{Name: c.Name, Classname: fr.Path, File: fr.Path, Line: c.Pos.Line, Time: seconds(c.Duration)}
			s.Tests++
			switch c.Status {
			case Skipped:
				s.Skipped++
				jc.Skipped = &junitSkipped{Message: c.Skip}
			case Failed:
				f := c.Failures[0]
				p := &junitProblem{Message: f.Header(c.Name), Type: "failure", Text: c.FailureText()}
				if f.Error != "" {
					p.Type = "error"
					jc.Error = p
					s.Errors++
				} else {
					jc.Failure = p
					s.Failures++
				}
			}
			s.Cases = append(s.Cases, jc)
		}
		root.Tests += s.Tests
		root.Failures += s.Failures
		root.Errors += s.Errors
		root.Skipped += s.Skipped
		total += fr.Duration
		root.Suites = append(root.Suites, s)
	}
	root.Time = seconds(total)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(root); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
}
