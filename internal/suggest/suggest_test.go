package suggest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLevenshtein(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "", 3},
		{"message", "message", 0},
		{"mesage", "message", 1},
		{"message", "mesage", 1},
		{"sya", "say", 2},
		{"kitten", "sitting", 3},
		{"flws", "flows", 1},
		{"café", "cafe", 1},
		{"日本語", "日本", 1},
	} {
		t.Run(tc.a+"/"+tc.b, func(t *testing.T) {
			assert.Equal(t, tc.want, Levenshtein(tc.a, tc.b))
			assert.Equal(t, tc.want, Levenshtein(tc.b, tc.a), "symmetric")
		})
	}
}

func TestClosest(t *testing.T) {
	stepKeys := []string{"jump_to", "message", "rephrase", "step", "type"}
	for _, tc := range []struct {
		name       string
		in         string
		candidates []string
		want       string
	}{
		{"one typo", "mesage", stepKeys, "message"},
		{"case only", "Message", stepKeys, "message"},
		{"transposition", "tpye", stepKeys, "type"},
		{"long name, distance within a third", "validation_eror_mesage", []string{"validation_error_message", "validator"}, "validation_error_message"},
		{"too far", "shel", []string{"env", "exec", "http", "timeout"}, ""},
		{"short name is not replaced wholesale", "x", []string{"do", "if"}, ""},
		{"two-letter name one edit away", "di", []string{"do"}, "do"},
		{"tie goes to the lexically smallest", "cat", []string{"cut", "bat"}, "bat"},
		{"empty name", "", stepKeys, ""},
		{"no candidates", "mesage", nil, ""},
		{"empty candidate is skipped", "a", []string{""}, ""},
		{"exact match", "step", stepKeys, "step"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Closest(tc.in, tc.candidates))
		})
	}
}
