// Package schema owns the JSON Schema of soni flow files and checks decoded
// YAML documents against it.
//
// The schema (draft 2020-12) is embedded in the binary; [JSON] returns it for
// `soni schema` and editors. [Validate] checks the generic value produced by
// goccy/go-yaml's NodeToValue and turns the validator's error tree into a flat,
// sorted list of [Violation] values: one per real mistake, each with a
// user-facing message and, for misspelt keys and values, a suggestion.
// Mapping a violation back to a YAML position is the job of the caller (see
// internal/yamlpos), because this package never sees the YAML syntax tree.
//
// The schema enforces structure only: which keys exist where, their types,
// required fields and the step types. Name patterns and rules that span
// several keys (such as "exactly one of slot or evaluate") are left to the
// compiler, which reports them with better messages.
package schema

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

//go:embed soni.schema.json
var schemaJSON []byte

// ID is the schema's "$id": the absolute URL it is compiled under and the
// name editors may use for it.
const ID = "https://soni.dev/schema/flow.schema.json"

// JSON returns the raw bytes of the embedded schema, as printed by
// `soni schema`. The caller owns the returned slice.
func JSON() []byte { return bytes.Clone(schemaJSON) }

// compiled holds the schema compiled once (the fast variant, or the
// published schema for loadFull), plus an index of every subschema
// by its absolute location so that error locations can be resolved to the
// schema that produced them.
//
// Validating the published schema as is would be slow: every step runs nine
// if/then tests, and each failing "if" builds error values. So [Validate]
// uses a second compilation of the same document, fast, in which the step
// definition lacks its allOf of if/then; the package dispatches each step to
// its type's definition itself (see dispatch), which yields the same
// violations at a fraction of the cost. A test checks that both give the
// same results.
type compiled struct {
	root  *jsonschema.Schema
	fast  *jsonschema.Schema
	steps map[string]*jsonschema.Schema // step type → its closed definition
	any   *jsonschema.Schema            // keys of any step type, for steps without a type
	byLoc map[string]*jsonschema.Schema
}

// fastID is the URL of the fast variant of the schema.
const fastID = "https://soni.dev/schema/flow.schema.json/fast"

// stepDefs maps each step type to the name of its definition.
var stepDefs = map[string]string{
	"say":     "sayStep",
	"collect": "collectStep",
	"set":     "setStep",
	"branch":  "branchStep",
	"while":   "whileStep",
	"action":  "actionStep",
	"link":    "linkStep",
	"call":    "callStep",
	"confirm": "confirmStep",
}

// load compiles the fast variant of the embedded schema on first use and
// caches the result; it is what [Validate] needs. The published schema is
// compiled by loadFull, only when it is asked for: compiling a schema
// also checks it against the draft's metaschema, and doing it twice took a
// third of a small project's compile.
var load = sync.OnceValues(func() (*compiled, error) {
	fastJSON, err := fastVariant(schemaJSON)
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if err := c.AddResource(fastID, bytes.NewReader(fastJSON)); err != nil {
		return nil, fmt.Errorf("load embedded schema: %w", err)
	}
	out := &compiled{steps: map[string]*jsonschema.Schema{}, byLoc: map[string]*jsonschema.Schema{}}
	if out.fast, err = c.Compile(fastID); err != nil {
		return nil, fmt.Errorf("compile embedded schema: %w", err)
	}
	for typ, def := range stepDefs {
		if out.steps[typ], err = c.Compile(fastID + "#/$defs/" + def); err != nil {
			return nil, fmt.Errorf("compile embedded schema: %w", err)
		}
	}
	if out.any, err = c.Compile(fastID + "#/$defs/anyStep"); err != nil {
		return nil, fmt.Errorf("compile embedded schema: %w", err)
	}
	out.index(out.fast)
	for _, s := range out.steps {
		out.index(s)
	}
	out.index(out.any)
	return out, nil
})

// Warm prepares what [Validate] needs to accept a valid document, if it
// is not ready yet (the schema itself is compiled only for a document
// with a violation). A command that is about to compile a project while
// it does other work first (reading test files) runs it on a goroutine of
// its own.
func Warm() { _, _ = loadQuick() }

// loadFull compiles the published schema on first use and caches it: the
// root of a compiled, with its index, and the step definitions of the
// fast variant, which the hints read.
var loadFull = sync.OnceValues(func() (*compiled, error) {
	fast, err := load()
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if err := c.AddResource(ID, bytes.NewReader(schemaJSON)); err != nil {
		return nil, fmt.Errorf("load embedded schema: %w", err)
	}
	out := &compiled{steps: fast.steps, any: fast.any, byLoc: map[string]*jsonschema.Schema{}}
	if out.root, err = c.Compile(ID); err != nil {
		return nil, fmt.Errorf("compile embedded schema: %w", err)
	}
	out.index(out.root)
	return out, nil
})

// fastVariant returns the schema document with the step definition's
// allOf removed and the "$id" changed to fastID.
func fastVariant(src []byte) ([]byte, error) {
	doc, err := fastDoc(src)
	if err != nil {
		return nil, err
	}
	doc["$id"] = fastID
	return json.Marshal(doc)
}

// fastDoc decodes the schema document (numbers as json.Number, as the
// library reads them) and removes the step definition's allOf of
// if/then, which dispatch stands for.
func fastDoc(src []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("decode embedded schema: %w", err)
	}
	defs, _ := doc["$defs"].(map[string]any)
	step, _ := defs["step"].(map[string]any)
	if step == nil {
		return nil, fmt.Errorf("embedded schema has no step definition")
	}
	delete(step, "allOf")
	return doc, nil
}

// Compiled returns the published schema, compiled. It fails only if the
// embedded schema is broken, which the package's tests rule out.
func Compiled() (*jsonschema.Schema, error) {
	c, err := loadFull()
	if err != nil {
		return nil, err
	}
	return c.root, nil
}

// index records s and every subschema reachable from it by location.
func (c *compiled) index(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if _, seen := c.byLoc[s.Location]; seen {
		return
	}
	c.byLoc[s.Location] = s
	c.index(s.Ref)
	c.index(s.RecursiveRef)
	c.index(s.DynamicRef)
	c.index(s.Not)
	c.index(s.If)
	c.index(s.Then)
	c.index(s.Else)
	c.index(s.PropertyNames)
	c.index(s.UnevaluatedProperties)
	c.index(s.Items2020)
	c.index(s.Contains)
	c.index(s.UnevaluatedItems)
	c.index(s.ContentSchema)
	for _, l := range [][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf, s.PrefixItems} {
		for _, sub := range l {
			c.index(sub)
		}
	}
	for _, sub := range s.Properties {
		c.index(sub)
	}
	for _, sub := range s.PatternProperties {
		c.index(sub)
	}
	for _, sub := range s.DependentSchemas {
		c.index(sub)
	}
	for _, v := range []any{s.AdditionalProperties, s.Items, s.AdditionalItems} {
		switch v := v.(type) {
		case *jsonschema.Schema:
			c.index(v)
		case []*jsonschema.Schema:
			for _, sub := range v {
				c.index(sub)
			}
		}
	}
}

// allowedKeys returns the sorted property names a schema declares.
func allowedKeys(s *jsonschema.Schema) []string {
	keys := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// declares reports whether the schema declares the property name, directly
// or through a pattern.
func declares(s *jsonschema.Schema, name string) bool {
	if _, ok := s.Properties[name]; ok {
		return true
	}
	for re := range s.PatternProperties {
		if re.MatchString(name) {
			return true
		}
	}
	return false
}

// defName returns the name of the $defs entry a schema location designates,
// "" for the root schema, and ok=false for any other location.
func defName(loc string) (name string, ok bool) {
	i := strings.IndexByte(loc, '#')
	if i < 0 {
		return "", false
	}
	frag := loc[i+1:]
	if frag == "" {
		return "", true
	}
	const prefix = "/$defs/"
	if !strings.HasPrefix(frag, prefix) || strings.Contains(frag[len(prefix):], "/") {
		return "", false
	}
	return frag[len(prefix):], true
}
