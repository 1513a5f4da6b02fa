package rasaimport

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Statuses of a report item.
const (
	// StatusApproximated: converted, with a difference in behaviour the
	// item describes.
	StatusApproximated = "approximated"
	// StatusCommented: soni cannot express it; it is kept in the output
	// file as a comment.
	StatusCommented = "commented"
	// StatusManual: needs a person: the fix says what to do.
	StatusManual = "manual"
	// StatusIgnored: read and left out, because it does nothing in soni.
	StatusIgnored = "ignored"
)

// Report is the migration report: what converted, and what needs a
// person.
type Report struct {
	// Source is the Rasa project's directory, as given.
	Source string `json:"source"`
	// Summary counts what converted.
	Summary Summary `json:"summary"`
	// Items are what did not convert as it was, in the order of the Rasa
	// project's files and lines.
	Items []Item `json:"items"`
	// Files are the files the import wrote or left, with what happened
	// to each (set by [Import]).
	Files []FileChange `json:"files,omitempty"`
	// Check is what the compiler said of the written project (set by
	// [Import], which compiles what it wrote before it returns).
	Check *Check `json:"check,omitempty"`
}

// Summary counts the constructs of the Rasa project and how many
// converted with no item in the report.
type Summary struct {
	Flows      Count `json:"flows"`
	Patterns   Count `json:"patterns"`
	Steps      Count `json:"steps"`
	Slots      Count `json:"slots"`
	Responses  Count `json:"responses"`
	Actions    Count `json:"custom_actions"`
	TestFiles  Count `json:"test_files"`
	TestCases  Count `json:"test_cases"`
	Assertions Count `json:"assertions"`
}

// Count is a total and how many of it converted fully.
type Count struct {
	Total     int `json:"total"`
	Converted int `json:"converted"`
}

func (c *Count) add(ok bool) {
	c.Total++
	if ok {
		c.Converted++
	}
}

// Item is one thing of the Rasa project that did not convert as it was.
type Item struct {
	// Where is FILE:LINE in the Rasa project.
	Where string `json:"where"`
	File  string `json:"file"`
	Line  int    `json:"line"`
	// Kind is what it is: flow, step, slot, response, action, test,
	// config, data.
	Kind string `json:"kind"`
	// Status is approximated, commented, manual or ignored.
	Status string `json:"status"`
	// Message says what happened.
	Message string `json:"message"`
	// Fix suggests what to do.
	Fix string `json:"fix"`
	// Output is the soni file that holds the construct, if any.
	Output string `json:"output,omitempty"`
	// N numbers the item as IMPORT.md lists it, from 1.
	N int `json:"n"`
	// Concerns are what of the soni project the item is about, so that a
	// failing test can name the items that touch where it failed.
	Concerns *Concerns `json:"concerns,omitempty"`

	// about is aboutActions or aboutUnderstanding, for an item about a
	// whole side of the assistant.
	about string
}

// FileChange is what the import did to one file of the output
// directory.
type FileChange struct {
	Path string `json:"path"`
	// Action is written (new), overwritten, unchanged, kept (edited
	// since the last import: left alone), skipped (not written by the
	// importer: left alone) or removed (written by the last import, no
	// longer produced).
	Action string `json:"action"`
}

// reporter collects report items.
type reporter struct {
	items []Item
}

func (r *reporter) add(at loc, kind, status, out, fix, format string, args ...any) {
	r.addAbout("", at, kind, status, out, fix, format, args...)
}

// addAbout adds an item that is about a whole side of the assistant
// (aboutActions, aboutUnderstanding) rather than the names it quotes.
func (r *reporter) addAbout(about string, at loc, kind, status, out, fix, format string, args ...any) {
	r.items = append(r.items, Item{Where: at.String(), File: at.File, Line: at.Line, Kind: kind, Status: status,
		Message: fmt.Sprintf(format, args...), Fix: fix, Output: out, about: about})
}

// sorted returns the items in file and line order, duplicates removed.
func (r *reporter) sorted() []Item {
	items := slices.Clone(r.items)
	slices.SortStableFunc(items, func(a, b Item) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	return slices.CompactFunc(items, func(a, b Item) bool { return a == b })
}

// JSON returns the report as indented JSON.
func (r *Report) JSON() []byte {
	if r.Items == nil {
		r.Items = []Item{}
	}
	b, _ := json.MarshalIndent(r, "", "  ")
	return append(b, '\n')
}

// Line sums up the report in one line, with the same counts as the
// table of IMPORT.md: what converted as it was, of how many.
func (r *Report) Line() string {
	s := r.Summary
	return fmt.Sprintf("%d of %d flows, %d of %d pattern overrides, %d of %d steps, %d of %d slots, %d of %d responses, %d of %d custom actions, %d of %d test files (%d of %d cases) converted as they were",
		s.Flows.Converted, s.Flows.Total, s.Patterns.Converted, s.Patterns.Total, s.Steps.Converted, s.Steps.Total,
		s.Slots.Converted, s.Slots.Total, s.Responses.Converted, s.Responses.Total, s.Actions.Converted, s.Actions.Total,
		s.TestFiles.Converted, s.TestFiles.Total, s.TestCases.Converted, s.TestCases.Total)
}

// ItemsLine counts the report's items by status, as IMPORT.md and the
// CLI say it.
func (r *Report) ItemsLine() string {
	counts := map[string]int{}
	for _, it := range r.Items {
		counts[it.Status]++
	}
	return fmt.Sprintf("%d items: %d need a person, %d are kept as comments, %d are approximated, %d are ignored",
		len(r.Items), counts[StatusManual], counts[StatusCommented], counts[StatusApproximated], counts[StatusIgnored])
}

// Markdown returns the report as IMPORT.md.
func (r *Report) Markdown() []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# Import report\n\n")
	fmt.Fprintf(&b, "`soni import rasa` translated the Rasa project `%s` into this soni project.\n", r.Source)
	b.WriteString("Re-running the import overwrites the files it wrote, unless they were edited since;\n")
	b.WriteString("`.soni-import.json` lists them. This report is one of them.\n\n")
	b.WriteString("## Summary\n\n")
	b.WriteString("| construct | in the Rasa project | converted as they were |\n| --- | ---: | ---: |\n")
	s := r.Summary
	for _, row := range []struct {
		name string
		c    Count
	}{
		{"business flows", s.Flows}, {"pattern overrides", s.Patterns}, {"flow steps", s.Steps},
		{"slots", s.Slots}, {"responses", s.Responses}, {"custom actions", s.Actions},
		{"test files", s.TestFiles}, {"test cases", s.TestCases}, {"test assertions and checks", s.Assertions},
	} {
		fmt.Fprintf(&b, "| %s | %d | %d |\n", row.name, row.c.Total, row.c.Converted)
	}
	fmt.Fprintf(&b, "\nIn one line: %s.\n", r.Line())
	if c := r.Check; c != nil {
		fmt.Fprintf(&b, "\nThe import compiled the project it wrote: %s.\n", c.Line())
		if c.Errors > 0 {
			b.WriteString("The project does not run until these errors are fixed; then check it with `soni validate`:\n\n")
			for _, p := range c.Problems {
				fmt.Fprintf(&b, "- %s\n", mdEscape(p))
			}
		}
	}
	fmt.Fprintf(&b, "\n%s, listed below.\n", r.ItemsLine())
	b.WriteString("\nStatuses: **manual** needs a person; **commented** cannot be expressed in soni and is kept\n")
	b.WriteString("in the output file as a comment; **approximated** converted with a difference in behaviour;\n")
	b.WriteString("**ignored** does nothing in soni.\n")
	for _, status := range statusOrder {
		var items []Item
		for _, it := range r.Items {
			if it.Status == status {
				items = append(items, it)
			}
		}
		if len(items) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n## %s (%d)\n\n", statusTitle(status), len(items))
		file := ""
		for _, it := range items {
			if it.File != file {
				file = it.File
				fmt.Fprintf(&b, "\n### %s\n\n", mdEscape(file))
			}
			fmt.Fprintf(&b, "- **%d.** `%s` (%s): %s\n", it.N, it.Where, it.Kind, mdEscape(it.Message))
			if it.Fix != "" {
				fmt.Fprintf(&b, "  - fix: %s\n", mdEscape(it.Fix))
			}
			if it.Output != "" {
				fmt.Fprintf(&b, "  - in `%s`\n", it.Output)
			}
		}
	}
	return []byte(b.String())
}

// statusOrder is the order of IMPORT.md's sections.
var statusOrder = []string{StatusManual, StatusCommented, StatusApproximated, StatusIgnored}

// number numbers the items in the order IMPORT.md lists them: section by
// section, then in file and line order.
func number(items []Item) {
	n := 0
	for _, status := range statusOrder {
		for i := range items {
			if items[i].Status == status {
				n++
				items[i].N = n
			}
		}
	}
}

func statusTitle(s string) string {
	switch s {
	case StatusManual:
		return "Needs a person"
	case StatusCommented:
		return "Kept as comments"
	case StatusApproximated:
		return "Approximated"
	}
	return "Ignored"
}

// mdEscape keeps a message from breaking the Markdown around it.
func mdEscape(s string) string {
	return strings.NewReplacer("\n", " ", "<", "&lt;", ">", "&gt;").Replace(s)
}
