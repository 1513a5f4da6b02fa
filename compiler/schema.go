package compiler

import (
	"bytes"
	"strings"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/internal/yamlpos"
	"github.com/soni-dev/soni/schema"
)

// schemaCheck validates a parsed file against the JSON Schema and reports
// every violation at the YAML node it concerns: unknown keys at the key,
// missing fields at the key or '-' that opens the mapping, wrong types and
// values at the value.
func schemaCheck(p *parsed, ds *diag.List) {
	for _, v := range schema.Validate(p.value) {
		line, col := yamlpos.Place(p.body, v)
		d := ds.Add(diag.Pos{File: p.file.Path, Line: line, Col: col}, v.Kind.Code(), dataPath(v.Tokens), "%s", v.Message)
		d.Suggestion = v.Suggestion
		if d.Suggestion == "" && v.Kind == schema.WrongType && strings.HasPrefix(v.Message, "expected a string") && strings.HasSuffix(v.Message, "got a mapping") {
			d.Suggestion = braceHint(p.file.Src, line, col)
		}
	}
}

// braceHint explains a template written without quotes, such as
// message: {name}, which YAML reads as a mapping: it returns the advice to
// quote it when the value at line:col starts with '{'.
func braceHint(src []byte, line, col int) string {
	lines := bytes.Split(src, []byte("\n"))
	if line < 1 || line > len(lines) {
		return ""
	}
	r := []rune(string(lines[line-1]))
	// The position is the mapping's first key or its '{'.
	i := min(col, len(r)) - 1
	for i >= 0 && r[i] != '{' && (r[i] == ' ' || i == col-1) {
		i--
	}
	if i < 0 || r[i] != '{' {
		return ""
	}
	// The mapping ends at its matching '}'.
	end, depth := len(r), 0
	for j := i; j < len(r); j++ {
		if r[j] == '{' {
			depth++
		} else if r[j] == '}' {
			if depth--; depth == 0 {
				end = j + 1
				break
			}
		}
	}
	v := string(r[i:end])
	return "a value that starts with '{' is a YAML mapping: put the template in quotes, as in \"" + strings.ReplaceAll(v, `"`, `\"`) + "\""
}

// dataPath renders JSON pointer tokens as a data path such as
// flows.transfer.steps[3].jump_to.
func dataPath(tokens []string) string {
	var b strings.Builder
	for i, t := range tokens {
		if isIndex(t) && i > 0 {
			b.WriteString("[" + t + "]")
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(t)
	}
	return b.String()
}

func isIndex(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
