package text

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCutAndClip(t *testing.T) {
	cases := []struct {
		s         string
		n         int
		cut, clip string
	}{
		{"hello", 10, "hello", "hello"},
		{"hello", 5, "hello", "hello"},
		{"hello", 3, "hel", "hel..."},
		{"héllo", 2, "h", "h..."}, // é is two bytes: never split
		{"héllo", 3, "hé", "hé..."},
		{"", 0, "", ""},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.cut, Cut(tc.s, tc.n), "Cut(%q, %d)", tc.s, tc.n)
		assert.Equal(t, tc.clip, Clip(tc.s, tc.n), "Clip(%q, %d)", tc.s, tc.n)
	}
}

func TestHasPrefixWords(t *testing.T) {
	assert.True(t, HasPrefixWords([]string{"send", "money", "now"}, []string{"send", "money"}))
	assert.True(t, HasPrefixWords([]string{"a"}, nil))
	assert.False(t, HasPrefixWords([]string{"send"}, []string{"send", "money"}))
	assert.False(t, HasPrefixWords([]string{"get", "money"}, []string{"send"}))
}
