package jsonval

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestKindAndNumbers(t *testing.T) {
	for v, want := range map[any]string{nil: "null", true: "boolean", json.Number("1"): "number", "s": "string"} {
		assert.Equal(t, want, Kind(v))
	}
	assert.Equal(t, "array", Kind([]any{}))
	assert.Equal(t, "object", Kind(map[string]any{}))
	got := Numbers(map[string]any{"i": json.Number("12"), "f": json.Number("1.5"), "big": json.Number("1e400"), "l": []any{json.Number("-3")}})
	assert.Equal(t, map[string]any{"i": int64(12), "f": 1.5, "big": got.(map[string]any)["big"], "l": []any{int64(-3)}}, got)
}
