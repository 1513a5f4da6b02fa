package jsonstr

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// naive is the byte loop Plain and PlainASCII replace.
func naive(s string, i int, ascii bool) int {
	for ; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' || c < 0x20 || ascii && c >= 0x80 {
			return i
		}
	}
	return i
}

func TestPlain(t *testing.T) {
	cases := []string{
		"", "a", "plain text of a history message", `abcdefg"`, `abcdefgh"`, `abcdefghi\n`,
		"tab\there", "ñandú y más", "\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x1f", "!!!!!!!!!!!!!!!\"",
		"[[[[[[[[]]]]]]]]\\", strings.Repeat("x", 40) + "\x00", "\xff\xfe\x80\x81\x82\x83\x84\x85\"",
		"########\x21\x23\x5b\x5d\x5d\x5d\x5d\x5d\x22",
	}
	for _, s := range cases {
		for i := 0; i <= len(s); i++ {
			assert.Equal(t, naive(s, i, false), Plain(s, i), "Plain(%q, %d)", s, i)
			assert.Equal(t, naive(s, i, true), PlainASCII(s, i), "PlainASCII(%q, %d)", s, i)
			assert.Equal(t, naive(s, i, false), Plain([]byte(s), i), "Plain([]byte(%q), %d)", s, i)
		}
	}
}

// TestEveryByte puts each of the 256 byte values at each position of an
// eight-byte word among plain bytes.
func TestEveryByte(t *testing.T) {
	for c := 0; c < 256; c++ {
		for pos := 0; pos < 16; pos++ {
			b := []byte(strings.Repeat("a", 16))
			b[pos] = byte(c)
			s := string(b)
			assert.Equal(t, naive(s, 0, false), Plain(s, 0), "byte %#x at %d", c, pos)
			assert.Equal(t, naive(s, 0, true), PlainASCII(s, 0), "byte %#x at %d", c, pos)
		}
	}
}

func FuzzPlain(f *testing.F) {
	f.Add("hello \"world\"", 0)
	f.Fuzz(func(t *testing.T, s string, i int) {
		if i < 0 || i > len(s) {
			return
		}
		assert.Equal(t, naive(s, i, false), Plain(s, i))
		assert.Equal(t, naive(s, i, true), PlainASCII(s, i))
	})
}

func BenchmarkPlain(b *testing.B) {
	s := "Send 50 from your savings account to Ana? The reference is T-1.\""
	b.Run("swar", func(b *testing.B) {
		for b.Loop() {
			_ = Plain(s, 0)
		}
	})
	b.Run("bytes", func(b *testing.B) {
		for b.Loop() {
			_ = naive(s, 0, false)
		}
	})
}
