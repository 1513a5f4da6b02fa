package tmpl

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSpecs: the supported subset of Python's format mini-language gives
// Python's output (each want was checked with python3's format()).
func TestSpecs(t *testing.T) {
	tests := []struct {
		v    any
		spec string
		want string
	}{
		{1234.5, ",.2f", "1,234.50"},
		{int64(1234567), ",", "1,234,567"},
		{12.5, ".2f", "12.50"},
		{"Ana", ">10", "       Ana"},
		{int64(5), "05d", "00005"},
		{0.256, ".1%", "25.6%"},
		{-3.14159, "+.3f", "-3.142"},
		{1234.5, "_", "1_234.5"},
		{1234.5, "e", "1.234500e+03"},
		{"abcdef", ".3", "abc"},
		{"x", "^5", "  x  "},
		{"x", "*^5", "**x**"},
		{int64(-42), "=8", "-     42"},
		{int64(-42), "08", "-0000042"},
		{1234.5, ".2", "1.2e+03"},
		{int64(3), "+", "+3"},
		{int64(3), " ", " 3"},
		{1234567.891, ",.1f", "1,234,567.9"},
		{math.Inf(1), "f", "inf"},
		{math.Inf(1), "F", "INF"},
		{1234.5, "10,.1f", "   1,234.5"},
		{"ab", "05", "ab000"},
		{int64(7), ".2f", "7.00"},
		{int64(-42), "e", "-4.200000e+01"},
		{int64(-42), "08.1f", "-00042.0"},
		{1234.5, ".1%", "123450.0%"},
		{1234.5, "08.1f", "001234.5"},
		{int64(-42), ",.2f", "-42.00"},
		{json.Number("1200"), ",d", "1,200"},
		{"Ana", "s", "Ana"},
		{"Ana", "<6", "Ana   "},
		{int64(-1 << 63), ",", "-9,223,372,036,854,775,808"},
		// soni's choices where Python would raise: numeric text is a
		// number, other values are shown as text, a non-integral d keeps
		// its digits.
		{"12.5", ".2f", "12.50"},
		{"abc", ".2f", "abc"},
		{true, "d", "true"},
		{12.5, "d", "12.5"},
		{12.0, "d", "12"},
	}
	for _, tt := range tests {
		tp, err := Parse("{v:" + tt.spec + "}")
		require.NoError(t, err, tt.spec)
		got := tp.Render(func(string) (any, bool) { return tt.v, true })
		assert.Equal(t, tt.want, got, "format(%v, %q)", tt.v, tt.spec)
	}
}

// TestSpecErrors: what is not supported is refused when the template is
// parsed, with the spec named and its offset.
func TestSpecErrors(t *testing.T) {
	tests := []struct {
		src    string
		offset int
		msg    string
	}{
		{"{n:b}", 3, `format spec "b" of {n} is not supported: the type "b" is not`},
		{"{n:#x}", 3, `the "#" option is not`},
		{"{n:.2q}", 3, `the type "q" is not`},
		{"{n:.}", 3, `a '.' must be followed by the precision`},
		{"{n:.2d}", 3, `an integer (type d) takes no precision`},
		{"{n:+s}", 3, `text (type s) takes no sign`},
		{"{n:5000}", 3, `a width over 1000`},
		{"{n:ff}", 3, `"f" after the type`},
		{"{n:{w}}", 3, `nested field in the format spec of {n}`},
		{"{n!r}", 0, `conversion "!r" in {n!r} is not supported`},
		{"{:>5}", 0, `empty '{}'`},
	}
	for _, tt := range tests {
		_, err := Parse(tt.src)
		var te *Error
		require.ErrorAs(t, err, &te, tt.src)
		assert.Equal(t, tt.offset, te.Offset, tt.src)
		assert.Contains(t, te.Msg, tt.msg, tt.src)
	}
}

// TestSpecUnsetSlot: an unset slot renders as nothing, with or without a
// spec, as everywhere in templates.
func TestSpecUnsetSlot(t *testing.T) {
	tp, err := Parse("[{v:>4}]")
	require.NoError(t, err)
	assert.Equal(t, "[]", tp.Render(func(string) (any, bool) { return nil, false }))
}
