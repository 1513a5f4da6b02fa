package schema

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSchemaCompiles(t *testing.T) {
	s, err := Compiled()
	require.NoError(t, err)
	require.NotNil(t, s)
	assert.Equal(t, ID+"#", s.Location)

	var doc map[string]any
	require.NoError(t, json.Unmarshal(JSON(), &doc))
	assert.Equal(t, ID, doc["$id"])
	assert.Equal(t, "https://json-schema.org/draft/2020-12/schema", doc["$schema"])
}

func TestJSONReturnsACopy(t *testing.T) {
	a := JSON()
	a[0] = 'x'
	assert.Equal(t, byte('{'), JSON()[0])
}

// TestEveryPropertyHasDescription walks the schema document and checks that
// every property, every map-value and list-item schema and every definition
// carries a description an editor can show.
func TestEveryPropertyHasDescription(t *testing.T) {
	var doc any
	require.NoError(t, json.Unmarshal(JSON(), &doc))
	var missing []string
	// needs says whether the schema at path is shown to users; the
	// conditions of if/then only select a definition and are not.
	var walk func(v any, path string, needs bool)
	walk = func(v any, path string, needs bool) {
		x, ok := v.(map[string]any)
		if !ok {
			// true and false schemas: false closes an object, true has
			// nothing to describe but is not used for properties.
			if _, isBool := v.(bool); !isBool || (needs && v == true) {
				missing = append(missing, path)
			}
			return
		}
		if needs {
			if d, _ := x["description"].(string); strings.TrimSpace(d) == "" {
				missing = append(missing, path)
			}
		}
		for k, sub := range x {
			switch k {
			case "properties", "$defs":
				props, ok := sub.(map[string]any)
				require.True(t, ok, "%s/%s is not an object", path, k)
				for name, ps := range props {
					walk(ps, path+"/"+k+"/"+name, needs || k == "$defs")
				}
			case "additionalProperties", "items":
				walk(sub, path+"/"+k, needs)
			case "allOf":
				for i, e := range sub.([]any) {
					walk(e, path+"/allOf/"+strconv.Itoa(i), false)
				}
			case "if", "then", "else":
				walk(sub, path+"/"+k, false)
			}
		}
	}
	walk(doc, "", true)
	sort.Strings(missing)
	assert.Empty(t, missing, "schemas without a description")
}

// TestLabelsCoverClosedObjects checks that every definition that rejects
// unknown keys or requires fields has a label for messages.
func TestLabelsCoverClosedObjects(t *testing.T) {
	var doc struct {
		Defs map[string]map[string]any `json:"$defs"`
	}
	require.NoError(t, json.Unmarshal(JSON(), &doc))
	for name, def := range doc.Defs {
		_, closed := def["additionalProperties"].(bool)
		_, required := def["required"]
		if closed || required {
			assert.Contains(t, contextLabels, name, "definition %q has no label", name)
		}
	}
	for _, def := range stepDefs {
		assert.Contains(t, doc.Defs, def)
	}
}

// TestStepTypesMatchSchema checks that the Go dispatch table and the
// schema's enum of step types agree.
func TestStepTypesMatchSchema(t *testing.T) {
	var doc struct {
		Defs struct {
			Step struct {
				Properties struct {
					Type struct {
						Enum []string `json:"enum"`
					} `json:"type"`
				} `json:"properties"`
				AllOf []json.RawMessage `json:"allOf"`
			} `json:"step"`
		} `json:"$defs"`
	}
	require.NoError(t, json.Unmarshal(JSON(), &doc))
	enum := doc.Defs.Step.Properties.Type.Enum
	require.Len(t, enum, len(stepDefs))
	for _, typ := range enum {
		def, ok := stepDefs[typ]
		require.True(t, ok, "step type %q has no definition in stepDefs", typ)
		found := false
		for _, raw := range doc.Defs.Step.AllOf {
			if bytes.Contains(raw, []byte(`"const": "`+typ+`"`)) && bytes.Contains(raw, []byte(`#/$defs/`+def+`"`)) {
				found = true
			}
		}
		assert.True(t, found, "no if/then for step type %q", typ)
	}
}

func TestFastVariantDropsOnlyTheDispatch(t *testing.T) {
	fast, err := fastVariant(schemaJSON)
	require.NoError(t, err)
	var a, b map[string]any
	require.NoError(t, json.Unmarshal(schemaJSON, &a))
	require.NoError(t, json.Unmarshal(fast, &b))
	assert.Equal(t, fastID, b["$id"])
	step := a["$defs"].(map[string]any)["step"].(map[string]any)
	require.Contains(t, step, "allOf")
	delete(step, "allOf")
	a["$id"] = fastID
	assert.Equal(t, a, b)

	_, err = fastVariant([]byte(`{"$defs": {}}`))
	assert.Error(t, err)
	_, err = fastVariant([]byte(`not json`))
	assert.Error(t, err)
}

func TestDefName(t *testing.T) {
	for _, tc := range []struct {
		loc  string
		name string
		ok   bool
	}{
		{ID + "#", "", true},
		{ID + "#/$defs/sayStep", "sayStep", true},
		{fastID + "#/$defs/flow", "flow", true},
		{ID + "#/$defs/flow/properties/steps", "", false},
		{ID + "#/properties/slots", "", false},
		{ID, "", false},
	} {
		t.Run(tc.loc, func(t *testing.T) {
			name, ok := defName(tc.loc)
			assert.Equal(t, tc.name, name)
			assert.Equal(t, tc.ok, ok)
		})
	}
}

// TestRefStandsAlone checks that "$ref" never sits next to an assertion
// keyword. Draft-07 tools, including older yaml-language-server releases,
// ignore the siblings of "$ref"; wrapping the reference in allOf keeps the
// schema meaning the same everywhere. Annotations such as description may
// stay next to it.
func TestRefStandsAlone(t *testing.T) {
	annotations := map[string]bool{"$ref": true, "description": true, "title": true, "examples": true, "$comment": true}
	var doc any
	require.NoError(t, json.Unmarshal(JSON(), &doc))
	var bad []string
	var walk func(v any, path string)
	walk = func(v any, path string) {
		switch x := v.(type) {
		case map[string]any:
			if _, ok := x["$ref"]; ok {
				for k := range x {
					if !annotations[k] {
						bad = append(bad, path+" has "+k)
					}
				}
			}
			for k, sub := range x {
				walk(sub, path+"/"+k)
			}
		case []any:
			for i, sub := range x {
				walk(sub, path+"/"+strconv.Itoa(i))
			}
		}
	}
	walk(doc, "")
	sort.Strings(bad)
	assert.Empty(t, bad)
}
