package serve

import _ "embed"

// OpenAPI is the OpenAPI 3.1 description of the HTTP API, which GET
// /openapi.json answers (no token needed) and docs/openapi.json holds.
// The tests check every answer of the HTTP tests against it.
//
//go:embed openapi.json
var OpenAPI []byte
