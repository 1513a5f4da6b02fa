package exprcompat

import (
	"testing"

	"github.com/expr-lang/expr"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRewrite(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a > 1 AND b < 2", "a > 1 and b < 2"},
		{"NOT done OR x", "not done or x"},
		{"ANDROID == 'AND'", "ANDROID == 'AND'"},
		{`name == "OR" AND ok`, `name == "OR" and ok`},
		{`s == 'it\'s AND' OR t`, `s == 'it\'s AND' or t`},
		{"x_AND == 1", "x_AND == 1"},
		{"a and b", "a and b"},
		{"x == None", "x == nil "},
		{"x != none AND y == null", "x != nil  and y == nil "},
		{"ok == True OR ok == False", "ok == true or ok == false"},
		{"slots.none == 1", "slots.none == 1"},
		{"nonempty == 'None'", "nonempty == 'None'"},
		{"Nonesuch == nullable", "Nonesuch == nullable"},
		{"x is not None", "x !=     nil "},
		{"x is None or island", "x == nil  or island"},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := Rewrite(tt.in)
			assert.Equal(t, tt.want, got)
			assert.Len(t, got, len(tt.in), "offsets must be kept")
		})
	}
}

// TestRewriteRuns: the rewritten Python literals mean what they meant in
// the Python framework.
func TestRewriteRuns(t *testing.T) {
	env := map[string]any{"missing": nil, "name": "Ana", "ok": true}
	tests := []struct {
		src  string
		want bool
	}{
		{"missing == None", true},
		{"missing == none", true},
		{"missing == null", true},
		{"name != None AND ok == True", true},
		{"ok == False", false},
		{"name is None", false},
		{"name is not None", true},
		{"missing is none", true},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			p, err := expr.Compile(Rewrite(tt.src), expr.AllowUndefinedVariables())
			require.NoError(t, err)
			got, err := expr.Run(p, env)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestShadowBuiltins(t *testing.T) {
	env := map[string]any{"count": int64(5), "date": "2027-01-02", "items": []any{1, 2, 3}}
	tests := []struct {
		src  string
		want any
	}{
		{"count > 3", true},
		{"date == '2027-01-02'", true},
		{"len(date)", 10},
		{"count(items, # > 1)", 2},
		{"let m = 7; m + count", int64(12)},
		{"max == nil", true},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			p, err := expr.Compile(tt.src, expr.AllowUndefinedVariables(), expr.Patch(&ShadowBuiltins{}))
			require.NoError(t, err)
			got, err := expr.Run(p, env)
			require.NoError(t, err)
			assert.EqualValues(t, tt.want, got)
		})
	}
}
