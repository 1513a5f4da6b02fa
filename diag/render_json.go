package diag

import (
	"encoding/json"
	"io"
)

// JSONDiagnostic is one element of the array WriteJSON prints. Its field
// order is the order of the output. Line and Col are 1-based and 0 when
// unknown; File is "" for a diagnostic about the whole project.
type JSONDiagnostic struct {
	File       string `json:"file"`
	Line       int    `json:"line"`
	Col        int    `json:"col"`
	Severity   string `json:"severity"`
	Code       string `json:"code"`
	Message    string `json:"message"`
	Suggestion string `json:"suggestion,omitempty"`
	Path       string `json:"path,omitempty"`
}

// ToJSON converts a diagnostic to the flat shape of the JSON format.
func ToJSON(d Diagnostic) JSONDiagnostic {
	return JSONDiagnostic{
		File:       d.Pos.File,
		Line:       d.Pos.Line,
		Col:        d.Pos.Col,
		Severity:   d.Severity.String(),
		Code:       d.Code,
		Message:    d.Message,
		Suggestion: d.Suggestion,
		Path:       d.Path,
	}
}

// WriteJSON writes l as a JSON array of JSONDiagnostic objects, indented by
// two spaces and ended by a newline; an empty list prints "[]".
func WriteJSON(w io.Writer, l List) error {
	out := make([]JSONDiagnostic, 0, len(l))
	for _, d := range l {
		out = append(out, ToJSON(d))
	}
	return writeIndentedJSON(w, out)
}

// writeIndentedJSON encodes v indented by two spaces with a trailing
// newline. HTML characters are left alone: the output is for terminals and
// tools, not for embedding in a page.
func writeIndentedJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
