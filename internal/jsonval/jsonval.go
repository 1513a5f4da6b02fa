// Package jsonval helps with generic JSON values decoded with UseNumber:
// naming their kind in messages, and turning their json.Numbers into the
// int64 and float64 the rest of soni stores.
package jsonval

import (
	"encoding/json"
	"strconv"
)

// Kind names the JSON type of a decoded value, for messages: null,
// boolean, number, string, array or object.
func Kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number, float64, int64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	}
	return "object"
}

// Numbers replaces, in place, the json.Numbers in v (at any depth) by
// int64 when they are integers that fit, else float64, and returns v.
func Numbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return i
		}
		f, _ := strconv.ParseFloat(string(x), 64)
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = Numbers(e)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = Numbers(e)
		}
		return x
	}
	return v
}
