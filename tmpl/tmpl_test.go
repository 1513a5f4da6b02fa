package tmpl

import (
	"encoding/json"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseAndRender(t *testing.T) {
	slots := map[string]any{
		"name":   "Ana",
		"amount": 1200.0,
		"rate":   12.5,
		"n":      int64(3),
		"ok":     true,
		"user":   map[string]any{"city": "Madrid", "zip": uint64(28001)},
		"tags":   []any{"a", int64(2)},
	}
	get := func(s string) (any, bool) { v, ok := slots[s]; return v, ok }
	tests := []struct {
		src, want string
		refs      []string
	}{
		{"plain text", "plain text", nil},
		{"", "", nil},
		{"Hello {name}!", "Hello Ana!", []string{"name"}},
		{"{amount} and {rate}", "1200 and 12.5", []string{"amount", "rate"}},
		{"{ n } items, ok={ok}", "3 items, ok=true", []string{"n", "ok"}},
		{"{user.city} {user.zip} {user.none}", "Madrid 28001 ", []string{"user"}},
		{"{name.field} of a string", " of a string", []string{"name"}},
		{"unset [{missing}]", "unset []", []string{"missing"}},
		{"{{literal}} {{ and }}", "{literal} { and }", nil},
		{"{tags}", "a, 2", []string{"tags"}},
		{"{name}{name}", "AnaAna", []string{"name"}},
		{"ünï {name} cødé", "ünï Ana cødé", []string{"name"}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			tp, err := Parse(tt.src)
			require.NoError(t, err)
			assert.Equal(t, tt.want, tp.Render(get))
			assert.Equal(t, tt.refs, tp.Refs())
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		src    string
		offset int
		msg    string
	}{
		{"Hello {name", 6, "unclosed '{'"},
		{"a } b", 2, "unmatched '}'"},
		{"x {} y", 2, "empty '{}'"},
		{"é{a b}", 1, `invalid reference "a b"`},
		{"{1abc}", 0, `invalid reference "1abc"`},
		{"{a.}", 0, `invalid reference "a."`},
		{"{a {b}}", 0, "unclosed '{'"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			_, err := Parse(tt.src)
			var te *Error
			require.True(t, errors.As(err, &te), "%v", err)
			assert.Equal(t, tt.offset, te.Offset, "rune offset of the problem")
			assert.Contains(t, te.Error(), tt.msg)
		})
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		v    any
		want string
	}{
		{nil, ""},
		{"x", "x"},
		{true, "true"},
		{false, "false"},
		{1200, "1200"},
		{int64(-5), "-5"},
		{uint64(7), "7"},
		{int32(9), "9"},
		{1200.0, "1200"},
		{12.5, "12.5"},
		{float32(0.5), "0.5"},
		{1e21, "1000000000000000000000"},
		{1e-7, "0.0000001"},
		{math.Inf(1), "+Inf"},
		{map[string]any{"b": 1.0, "a": "x"}, "a: x, b: 1"},
		{[]any{1.5, "y"}, "1.5, y"},
		{struct{}{}, "{}"},
		// The shortest form of a float32 is its own, not its float64's.
		{float32(0.1), "0.1"},
		{float32(1200), "1200"},
		// A JSON number prints as a number, never in exponent form.
		{json.Number("1e3"), "1000"},
		{json.Number("1.25E+3"), "1250"},
		{json.Number("12.50"), "12.5"},
		{json.Number("9007199254740993"), "9007199254740993"},
		// A date is YYYY-MM-DD; a time of day keeps its clock.
		{time.Date(2027, 3, 5, 0, 0, 0, 0, time.UTC), "2027-03-05"},
		{time.Date(2027, 3, 5, 9, 30, 0, 0, time.UTC), "2027-03-05T09:30:00Z"},
		// Other kinds print like their []any and map[string]any forms.
		{int8(-3), "-3"},
		{uint16(8), "8"},
		{[]string{"a", "b"}, "a, b"},
		{[]float64{1e21, 0.5}, "1000000000000000000000, 0.5"},
		{map[string]float64{"b": 2, "a": 1.5}, "a: 1.5, b: 2"},
		{[2]int{1, 2}, "1, 2"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Format(tt.v), "%#v", tt.v)
	}
}
