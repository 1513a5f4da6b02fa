package schema

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// quickSchemas are the schemas of the fast variant as quickAccept reads
// them (the root, each step type's definition and anyStep), built
// straight from the embedded JSON instead of compiled by jsonschema/v5.
//
// Compiling the schema checks it against the draft's metaschema and
// builds the library's validators: about 6 ms of CPU, more than the rest
// of compiling a small project, and wasted on a document that is valid,
// for which quickAccept decides alone. A valid document is now accepted
// with these; any other is validated as before, with the compiled schema
// and its messages. TestQuickSchemasAreTheCompiledOnes holds every
// subschema here to the compiled one in all that quickAccept reads.
type quickSchemas struct {
	fast  *jsonschema.Schema
	steps map[string]*jsonschema.Schema
	any   *jsonschema.Schema
}

// loadQuick builds the quick schemas on first use.
var loadQuick = sync.OnceValues(func() (*quickSchemas, error) {
	doc, err := fastDoc(schemaJSON) // the fast variant's document
	if err != nil {
		return nil, err
	}
	defs, _ := doc["$defs"].(map[string]any)
	b := quickBuilder{defs: defs, built: map[string]*jsonschema.Schema{}}
	q := &quickSchemas{fast: new(jsonschema.Schema), steps: map[string]*jsonschema.Schema{}}
	b.fill(q.fast, doc)
	for typ, def := range stepDefs {
		q.steps[typ] = b.def(def)
	}
	q.any = b.def("anyStep")
	if b.err != nil {
		return nil, b.err
	}
	return q, nil
})

// accepts reports whether doc (sanitized) certainly has no violation: the
// fast variant and every step's definition accept it quickly, as
// [builder.run] and [builder.dispatch] would.
func (q *quickSchemas) accepts(doc any) bool {
	if !quickAccept(q.fast, doc) {
		return false
	}
	root, _ := doc.(map[string]any)
	flows, _ := root["flows"].(map[string]any)
	for _, f := range flows {
		flow, _ := f.(map[string]any)
		steps, _ := flow["steps"].([]any)
		if !q.stepsAccept(steps) {
			return false
		}
	}
	return true
}

// stepsAccept is [builder.steps] with quickAccept only.
func (q *quickSchemas) stepsAccept(list []any) bool {
	for _, item := range list {
		st, ok := item.(map[string]any)
		if !ok {
			continue
		}
		typ, has := st["type"]
		if !has {
			if !quickAccept(q.any, st) {
				return false
			}
			continue
		}
		name, _ := typ.(string)
		if def := q.steps[name]; def != nil && !quickAccept(def, st) {
			return false
		}
		if name == "while" {
			if body, ok := st["do"].([]any); ok && !q.stepsAccept(body) {
				return false
			}
		}
	}
	return true
}

// quickBuilder builds schemas from the schema's JSON as the library's
// compiler fills them, for the keywords quickAccept reads; a schema with
// any other assertion is marked so that quickSupported refuses it.
type quickBuilder struct {
	defs  map[string]any
	built map[string]*jsonschema.Schema
	err   error
}

// def returns the schema of a definition, built once (definitions refer
// to each other, and to themselves).
func (b *quickBuilder) def(name string) *jsonschema.Schema {
	if s := b.built[name]; s != nil {
		return s
	}
	s := new(jsonschema.Schema)
	b.built[name] = s
	v, ok := b.defs[name]
	if !ok {
		b.err = fmt.Errorf("embedded schema has no definition %q", name)
		return s
	}
	b.fill(s, v)
	return s
}

// fill makes s the schema v, with the library's defaults.
func (b *quickBuilder) fill(s *jsonschema.Schema, v any) {
	*s = jsonschema.Schema{MinProperties: -1, MaxProperties: -1, MinItems: -1, MaxItems: -1, MinContains: 1, MaxContains: -1, MinLength: -1, MaxLength: -1}
	switch x := v.(type) {
	case bool:
		s.Always = &x
		return
	case map[string]any:
		for k, val := range x {
			b.keyword(s, k, val)
		}
	default:
		b.unsupported(s, "a schema that is not an object")
	}
}

// sub builds a subschema.
func (b *quickBuilder) sub(v any) *jsonschema.Schema {
	s := new(jsonschema.Schema)
	b.fill(s, v)
	return s
}

func (b *quickBuilder) keyword(s *jsonschema.Schema, k string, val any) {
	bad := func() { b.unsupported(s, k) }
	switch k {
	case "$schema", "$id", "$defs", "$comment", "title", "description", "examples", "default", "markdownDescription", "deprecated":
		// Annotations, and the definitions, reached through $ref.
	case "type":
		switch t := val.(type) {
		case string:
			s.Types = []string{t}
		case []any:
			for _, e := range t {
				name, ok := e.(string)
				if !ok {
					bad()
					return
				}
				s.Types = append(s.Types, name)
			}
		default:
			bad()
		}
	case "enum":
		e, ok := val.([]any)
		if !ok {
			bad()
			return
		}
		s.Enum = e
	case "minimum", "maximum":
		n, ok := val.(json.Number)
		r, ok2 := new(big.Rat).SetString(string(n))
		if !ok || !ok2 {
			bad()
			return
		}
		if k == "minimum" {
			s.Minimum = r
		} else {
			s.Maximum = r
		}
	case "minProperties", "maxProperties", "minItems", "maxItems", "minLength", "maxLength":
		n, ok := val.(json.Number)
		i, err := n.Int64()
		if !ok || err != nil {
			bad()
			return
		}
		switch k {
		case "minProperties":
			s.MinProperties = int(i)
		case "maxProperties":
			s.MaxProperties = int(i)
		case "minItems":
			s.MinItems = int(i)
		case "maxItems":
			s.MaxItems = int(i)
		case "minLength":
			s.MinLength = int(i)
		case "maxLength":
			s.MaxLength = int(i)
		}
	case "required":
		list, ok := val.([]any)
		if !ok {
			bad()
			return
		}
		for _, e := range list {
			name, ok := e.(string)
			if !ok {
				bad()
				return
			}
			s.Required = append(s.Required, name)
		}
	case "properties", "dependentSchemas":
		m, ok := val.(map[string]any)
		if !ok {
			bad()
			return
		}
		out := make(map[string]*jsonschema.Schema, len(m))
		for name, sv := range m {
			out[name] = b.sub(sv)
		}
		if k == "properties" {
			s.Properties = out
		} else {
			s.DependentSchemas = out
		}
	case "additionalProperties":
		switch ap := val.(type) {
		case bool:
			s.AdditionalProperties = ap
		case map[string]any:
			s.AdditionalProperties = b.sub(ap)
		default:
			bad()
		}
	case "items":
		s.Items2020 = b.sub(val)
	case "allOf":
		list, ok := val.([]any)
		if !ok {
			bad()
			return
		}
		for _, e := range list {
			s.AllOf = append(s.AllOf, b.sub(e))
		}
	case "$ref":
		ref, _ := val.(string)
		name, ok := strings.CutPrefix(ref, "#/$defs/")
		if !ok || strings.Contains(name, "/") {
			bad()
			return
		}
		s.Ref = b.def(name)
	default:
		bad()
	}
}

// unsupported marks s as holding an assertion quickAccept does not read,
// so that quickSupported refuses it and the document goes to the library.
func (b *quickBuilder) unsupported(s *jsonschema.Schema, what string) {
	s.Format = "(not read quickly: " + what + ")"
}
