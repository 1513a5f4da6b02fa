package compiler

import (
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
	}
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
