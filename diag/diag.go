// Package diag holds source positions, diagnostics and the list type that
// collects them. Detecting a problem and rendering it are separate steps:
// diagnostics carry positions only, and the renderers in this package read
// the source bytes when they print a snippet.
package diag

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Pos is a position in a source file. Line and Col are 1-based and Col counts
// runes; zero means unknown.
type Pos struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
}

// IsValid reports whether the position has a line.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String renders the position as file:line:col, leaving out unknown parts.
func (p Pos) String() string {
	switch {
	case p.Line == 0:
		return p.File
	case p.Col == 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Before reports whether p sorts before q (file, then line, then column).
func (p Pos) Before(q Pos) bool {
	if p.File != q.File {
		return p.File < q.File
	}
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Col < q.Col
}

// Severity says whether a diagnostic fails validation.
type Severity int

// The severities, most severe first.
const (
	Error Severity = iota
	Warning
)

// String returns "error" or "warning".
func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// MarshalText renders the severity as its name.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText parses "error" or "warning".
func (s *Severity) UnmarshalText(b []byte) error {
	switch string(b) {
	case "error":
		*s = Error
	case "warning":
		*s = Warning
	default:
		return fmt.Errorf("unknown severity %q", string(b))
	}
	return nil
}

// Diagnostic is one problem found in a project.
type Diagnostic struct {
	Pos        Pos      `json:"pos"`
	Severity   Severity `json:"severity"`
	Code       string   `json:"code"`
	Message    string   `json:"message"`
	Suggestion string   `json:"suggestion,omitempty"`
	// Path is the data path of the offending value, such as
	// flows.transfer.steps[3].jump_to. It may be empty.
	Path string `json:"path,omitempty"`
}

// String renders the diagnostic on one line: file:line:col: severity: message [code].
func (d Diagnostic) String() string {
	var b strings.Builder
	if pos := d.Pos.String(); pos != "" {
		b.WriteString(pos)
		b.WriteString(": ")
	}
	b.WriteString(d.Severity.String())
	b.WriteString(": ")
	b.WriteString(d.Message)
	if d.Suggestion != "" {
		b.WriteString(" (")
		b.WriteString(d.Suggestion)
		b.WriteString(")")
	}
	b.WriteString(" [")
	b.WriteString(d.Code)
	b.WriteString("]")
	return b.String()
}

// List is an ordered collection of diagnostics.
type List []Diagnostic

// Add appends a diagnostic whose severity comes from the code's catalogue entry.
func (l *List) Add(pos Pos, code, path, format string, args ...any) *Diagnostic {
	*l = append(*l, Diagnostic{Pos: pos, Severity: SeverityOf(code), Code: code, Path: path, Message: fmt.Sprintf(format, args...)})
	return &(*l)[len(*l)-1]
}

// Append appends diagnostics.
func (l *List) Append(ds ...Diagnostic) { *l = append(*l, ds...) }

// HasErrors reports whether any diagnostic is an error.
func (l List) HasErrors() bool {
	for _, d := range l {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Count returns the number of errors and warnings.
func (l List) Count() (errors, warnings int) {
	for _, d := range l {
		if d.Severity == Error {
			errors++
		} else {
			warnings++
		}
	}
	return errors, warnings
}

// unreadable are the codes of a file that could not be read or parsed at
// all. They come first: the project's other diagnostics may be their
// consequences (a flow defined in the broken file looks undefined).
var unreadable = map[string]bool{
	CodeFileRead: true, CodeFileLimit: true, CodeYAMLSyntax: true, CodeMultiDoc: true,
	CodeAliasLimit: true, CodeNestingLimit: true, CodeNotUTF8: true,
}

// Less orders the problems of files that could not be read or parsed
// first, then diagnostics by position, severity, code and message.
func Less(a, b Diagnostic) bool {
	if ua, ub := unreadable[a.Code], unreadable[b.Code]; ua != ub {
		return ua
	}
	if a.Pos != b.Pos {
		return a.Pos.Before(b.Pos)
	}
	if a.Severity != b.Severity {
		return a.Severity < b.Severity
	}
	if a.Code != b.Code {
		return a.Code < b.Code
	}
	if a.Message != b.Message {
		return a.Message < b.Message
	}
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	return a.Suggestion < b.Suggestion
}

// Sort sorts the list by position and removes exact duplicates (the same
// code and message at the same position), so the same input always prints
// the same bytes.
func (l *List) Sort() {
	s := *l
	sort.SliceStable(s, func(i, j int) bool { return Less(s[i], s[j]) })
	out := s[:0]
	for i, d := range s {
		if i > 0 {
			p := out[len(out)-1]
			if p.Pos == d.Pos && p.Code == d.Code && p.Message == d.Message {
				continue
			}
		}
		out = append(out, d)
	}
	*l = out
}

// Err returns the list as an error when it holds errors, or nil.
func (l List) Err() error {
	if !l.HasErrors() {
		return nil
	}
	return ListError(l)
}

// ListError is a List used as an error value.
type ListError List

// Error renders the first error and how many more there are.
func (e ListError) Error() string {
	errs, _ := List(e).Count()
	for _, d := range e {
		if d.Severity == Error {
			if errs > 1 {
				return fmt.Sprintf("%s (and %d more errors)", d, errs-1)
			}
			return d.String()
		}
	}
	return "no errors"
}

// MarshalText renders the position as file:line:col, the compact form used
// in compiled programs and checkpoints.
func (p Pos) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText parses file:line:col, file:line or file.
func (p *Pos) UnmarshalText(b []byte) error {
	s := string(b)
	*p = Pos{}
	nums := make([]int, 0, 2)
	for len(nums) < 2 {
		i := strings.LastIndexByte(s, ':')
		if i < 0 {
			break
		}
		n, err := strconv.Atoi(s[i+1:])
		if err != nil || n < 0 {
			break
		}
		nums = append(nums, n)
		s = s[:i]
	}
	p.File = s
	switch len(nums) {
	case 1:
		p.Line = nums[0]
	case 2:
		p.Line, p.Col = nums[1], nums[0]
	}
	return nil
}
