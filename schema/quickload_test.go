package schema

import (
	"fmt"
	"slices"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQuickSchemasAreTheCompiledOnes: every schema reachable from the
// quick schemas is, in all that quickAccept and quickSupported read, the
// schema jsonschema/v5 compiles at the same place, so that quickAccept
// accepts a document with them exactly when it does with the compiled
// ones.
func TestQuickSchemasAreTheCompiledOnes(t *testing.T) {
	q, err := loadQuick()
	require.NoError(t, err)
	c, err := load()
	require.NoError(t, err)
	seen := map[[2]*jsonschema.Schema]bool{}
	compared := 0
	var same func(path string, got, want *jsonschema.Schema)
	same = func(path string, got, want *jsonschema.Schema) {
		if (got == nil) != (want == nil) {
			t.Errorf("%s: quick %v, compiled %v", path, got != nil, want != nil)
			return
		}
		if got == nil || seen[[2]*jsonschema.Schema{got, want}] {
			return
		}
		seen[[2]*jsonschema.Schema{got, want}] = true
		compared++
		assert.Equal(t, want.Always, got.Always, path)
		assert.Equal(t, quickSupported(want), quickSupported(got), path+": supported")
		if !quickSupported(want) {
			return // quickAccept reads no further
		}
		assert.Equal(t, want.Types, got.Types, path)
		assert.Equal(t, want.Enum, got.Enum, path)
		assert.Equal(t, fmt.Sprint(want.Minimum), fmt.Sprint(got.Minimum), path)
		assert.Equal(t, fmt.Sprint(want.Maximum), fmt.Sprint(got.Maximum), path)
		assert.Equal(t, [4]int{want.MinProperties, want.MaxProperties, want.MinItems, want.MaxItems}, [4]int{got.MinProperties, got.MaxProperties, got.MinItems, got.MaxItems}, path)
		assert.Equal(t, want.Required, got.Required, path)
		for _, m := range [][2]map[string]*jsonschema.Schema{{got.Properties, want.Properties}, {got.DependentSchemas, want.DependentSchemas}} {
			gotKeys, wantKeys := slices.Sorted(mapKeys(m[0])), slices.Sorted(mapKeys(m[1]))
			if assert.Equal(t, wantKeys, gotKeys, path) {
				for _, k := range wantKeys {
					same(path+"/"+k, m[0][k], m[1][k])
				}
			}
		}
		switch ap := want.AdditionalProperties.(type) {
		case *jsonschema.Schema:
			gap, ok := got.AdditionalProperties.(*jsonschema.Schema)
			if assert.True(t, ok, path+": additionalProperties") {
				same(path+"/additionalProperties", gap, ap)
			}
		default:
			assert.Equal(t, want.AdditionalProperties, got.AdditionalProperties, path+": additionalProperties")
		}
		same(path+"/items", got.Items2020, want.Items2020)
		same(path+"/$ref", got.Ref, want.Ref)
		if assert.Len(t, got.AllOf, len(want.AllOf), path+": allOf") {
			for i := range want.AllOf {
				same(fmt.Sprintf("%s/allOf/%d", path, i), got.AllOf[i], want.AllOf[i])
			}
		}
	}
	same("#", q.fast, c.fast)
	for typ := range stepDefs {
		same("steps/"+typ, q.steps[typ], c.steps[typ])
	}
	same("anyStep", q.any, c.any)
	assert.Greater(t, compared, 100, "the walk reached the schema's subschemas")
}

func mapKeys(m map[string]*jsonschema.Schema) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// TestQuickPathKeepsViolations: a document the quick schemas do not accept
// still gets the compiled schema's violations, and a valid one none.
func TestQuickPathKeepsViolations(t *testing.T) {
	valid := map[string]any{"version": "1.0", "flows": map[string]any{"f": map[string]any{"steps": []any{map[string]any{"step": "a", "type": "say", "message": "hi"}}}}}
	assert.Empty(t, Validate(valid))
	assert.Empty(t, validate(valid, true))
	bad := map[string]any{"version": "1.0", "flows": map[string]any{"f": map[string]any{"steps": []any{map[string]any{"step": "a", "type": "say", "mesage": "hi"}}}}}
	got, want := Validate(bad), validate(bad, true)
	require.Len(t, got, len(want))
	for i := range want {
		assert.Equal(t, [3]any{want[i].Pointer, want[i].Kind, want[i].Message}, [3]any{got[i].Pointer, got[i].Kind, got[i].Message})
	}
	assert.NotEmpty(t, got)
}
