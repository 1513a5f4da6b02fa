package lsp

import (
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/soni-dev/soni/diag"
)

// diagData is what a published diagnostic carries for code actions.
type diagData struct {
	Suggestion string `json:"suggestion,omitempty"`
	Path       string `json:"path,omitempty"`
}

// toProtocol converts a compiler diagnostic of a file whose text is src.
func toProtocol(src string, d diag.Diagnostic) protocol.Diagnostic {
	sev := protocol.DiagnosticSeverityError
	if d.Severity == diag.Warning {
		sev = protocol.DiagnosticSeverityWarning
	}
	source := "soni"
	msg := d.Message
	if d.Suggestion != "" {
		msg += " (" + d.Suggestion + ")"
	}
	pd := protocol.Diagnostic{
		Range:    diagRange(src, d.Pos),
		Severity: &sev,
		Code:     &protocol.IntegerOrString{Value: d.Code},
		Source:   &source,
		Message:  msg,
	}
	if d.Suggestion != "" || d.Path != "" {
		pd.Data = diagData{Suggestion: d.Suggestion, Path: d.Path}
	}
	return pd
}

// fileDiagnostics groups a project's diagnostics by file, in protocol form.
func (s *Server) fileDiagnostics(p *project) map[string][]protocol.Diagnostic {
	out := make(map[string][]protocol.Diagnostic, len(p.files))
	for _, f := range p.files {
		out[f] = []protocol.Diagnostic{}
	}
	for _, d := range p.res.Diags {
		f := d.Pos.File
		if f == "" {
			// A problem of the whole project (it defines no flows):
			// shown at the top of its first file.
			if len(p.files) == 0 {
				continue
			}
			f = p.files[0]
			d.Pos = diag.Pos{File: f, Line: 1, Col: 1}
		}
		out[f] = append(out[f], toProtocol(s.text(p, f), d))
	}
	return out
}

// publish sends the diagnostics of every file of the project whose
// diagnostics changed since they were last sent, and always those of
// the file that changed; a file that left the project is cleared.
func (s *Server) publish(p *project, changed string) {
	byFile := s.fileDiagnostics(p)
	for f := range p.published {
		if _, ok := byFile[f]; !ok {
			byFile[f] = []protocol.Diagnostic{}
		}
	}
	for _, f := range sortedKeys(byFile) {
		ds := byFile[f]
		fp := mustJSON(ds)
		if old, ok := p.published[f]; ok && old == fp && f != changed {
			continue
		}
		if len(ds) == 0 && f != changed {
			if _, ok := p.published[f]; !ok {
				// Nothing was ever said about this file.
				p.published[f] = fp
				continue
			}
		}
		p.published[f] = fp
		params := protocol.PublishDiagnosticsParams{URI: s.uriOf(f), Diagnostics: ds}
		if d, ok := s.docs[f]; ok && d.version >= 0 {
			v := protocol.UInteger(d.version)
			params.Version = &v
		}
		s.notify(protocol.ServerTextDocumentPublishDiagnostics, params)
	}
	for f := range p.published {
		if !contains(p.files, f) {
			delete(p.published, f)
		}
	}
}

// uriOf returns the URI of a file: the open document's as the client
// wrote it, else one made from the path.
func (s *Server) uriOf(path string) string {
	if d, ok := s.docs[path]; ok {
		return d.uri
	}
	return pathToURI(path)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
