package exprcompat

import (
	"testing"

	"github.com/stretchr/testify/assert"
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
