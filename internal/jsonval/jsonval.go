// Package jsonval helps with generic JSON values decoded with UseNumber:
// naming their kind in messages, and turning their json.Numbers into the
// int64 and float64 the rest of soni stores.
package jsonval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
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

// Normalize converts Go numbers of other sizes, and JSON numbers, to
// int64 and float64 so that values compare and encode the same wherever
// they came from (an embedding program's action may return a float32 or a
// json.Number).
func Normalize(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		if f, err := x.Float64(); err == nil && !math.IsInf(f, 0) {
			return f
		}
		return string(x)
	case int:
		return int64(x)
	case int32:
		return int64(x)
	case int16:
		return int64(x)
	case int8:
		return int64(x)
	case uint32:
		return int64(x)
	case uint16:
		return int64(x)
	case uint8:
		return int64(x)
	case uint:
		if uint64(x) <= math.MaxInt64 {
			return int64(x)
		}
		return float64(x)
	case uint64:
		if x <= math.MaxInt64 {
			return int64(x)
		}
		return float64(x)
	case float32:
		// The float64 nearest to the float32's shortest decimal form:
		// float32(0.1) is 0.1, not 0.10000000149011612.
		if f, err := strconv.ParseFloat(strconv.FormatFloat(float64(x), 'g', -1, 32), 64); err == nil {
			return f
		}
		return float64(x)
	}
	return v
}

// Size checks that v is a value soni can keep as JSON: nil, a bool, a
// string, a finite number, a []any, a map[string]any, or another Go value
// that encoding/json writes as those, nested at most maxDepth levels deep
// (a scalar is level 0, the values in an object or array one deeper). It
// returns about how many bytes v takes as compact JSON: strings and keys
// are counted without their escapes.
func Size(v any, maxDepth int) (int, error) {
	return size(v, 0, maxDepth)
}

func size(v any, depth, maxDepth int) (int, error) {
	if depth > maxDepth {
		return 0, fmt.Errorf("it nests deeper than %d levels", maxDepth)
	}
	switch x := Normalize(v).(type) {
	case nil:
		return 4, nil
	case bool:
		if x {
			return 4, nil
		}
		return 5, nil
	case string:
		return len(x) + 2, nil
	case int64:
		return len(strconv.AppendInt(make([]byte, 0, 24), x, 10)), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, fmt.Errorf("%v is not a finite number", x)
		}
		return len(strconv.AppendFloat(make([]byte, 0, 32), x, 'g', -1, 64)), nil
	case []any:
		n := 2
		for _, e := range x {
			k, err := size(e, depth+1, maxDepth)
			if err != nil {
				return 0, err
			}
			n += k + 1
		}
		return n, nil
	case map[string]any:
		n := 2
		for key, e := range x {
			k, err := size(e, depth+1, maxDepth)
			if err != nil {
				return 0, fmt.Errorf("key %q: %w", key, err)
			}
			n += len(key) + 3 + k + 1
		}
		return n, nil
	}
	// Another Go value: as encoding/json writes it.
	raw, err := json.Marshal(v)
	if err != nil {
		return 0, fmt.Errorf("a value of type %T cannot be written as JSON: %v", v, err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var generic any
	if err := dec.Decode(&generic); err != nil {
		return 0, fmt.Errorf("a value of type %T cannot be written as JSON: %v", v, err)
	}
	return size(generic, depth, maxDepth)
}
