package lsp

import (
	"errors"
	"reflect"
	"regexp"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// blockScalarRE matches a line whose value opens a block scalar (| or >,
// with chomping and indentation indicators), perhaps followed by a comment.
var blockScalarRE = regexp.MustCompile(`(?:^|[:\-]\s+|^\s*-\s*)[|>][0-9+\-]*\s*(?:#.*)?$`)

// formatText tidies a YAML file's layout and keeps every comment: line
// ends become LF, trailing white space goes, runs of blank lines shrink
// to one, a full-line comment gets a space after its '#', and the file
// ends in one newline. Block scalars are left as they are, since their
// white space is their value.
func formatText(src string) string {
	ls := lines(strings.ReplaceAll(src, "\r\n", "\n"))
	var out []string
	blockIndent := -1 // indentation of the key that opened a block scalar
	for _, l := range ls {
		lead := len(l) - len(strings.TrimLeft(l, " \t"))
		if blockIndent >= 0 {
			if strings.TrimSpace(l) == "" || lead > blockIndent {
				out = append(out, l)
				continue
			}
			blockIndent = -1
		}
		l = strings.TrimRight(l, " \t")
		if l == "" {
			if len(out) == 0 || out[len(out)-1] == "" {
				continue
			}
			out = append(out, l)
			continue
		}
		t := l[lead:]
		if strings.HasPrefix(t, "#") && len(t) > 1 && t[1] != ' ' && t[1] != '#' && t[1] != '!' {
			l = l[:lead] + "# " + t[1:]
		}
		if !strings.HasPrefix(t, "#") && blockScalarRE.MatchString(t) {
			blockIndent = lead
		}
		out = append(out, l)
	}
	for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
		out = out[:len(out)-1]
	}
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "\n") + "\n"
}

// errFormatYAML is returned for a file that does not parse: formatting
// it could not be checked.
var errFormatYAML = errors.New("the file has a YAML error: fix it (see its diagnostics) before formatting")

func (s *Server) formatting(_ *glsp.Context, p *protocol.DocumentFormattingParams) ([]protocol.TextEdit, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	proj, path, ok := s.projectFor(p.TextDocument.URI)
	if !ok {
		return nil, errNoDocument
	}
	src := s.text(proj, path)
	formatted := formatText(src)
	if formatted == src {
		return []protocol.TextEdit{}, nil
	}
	// The tidied file must mean exactly what the file meant.
	var before, after any
	if yaml.Unmarshal([]byte(src), &before) != nil {
		return nil, errFormatYAML
	}
	if yaml.Unmarshal([]byte(formatted), &after) != nil || !reflect.DeepEqual(before, after) {
		return []protocol.TextEdit{}, nil
	}
	end := positionOf(src, len(src))
	return []protocol.TextEdit{{Range: protocol.Range{End: end}, NewText: formatted}}, nil
}
