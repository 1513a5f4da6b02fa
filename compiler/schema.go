package compiler

import "github.com/soni-dev/soni/diag"

// schemaCheck validates a parsed file against the JSON Schema and reports
// every violation at the YAML node it concerns.
func schemaCheck(p *parsed, ds *diag.List) {}
