// Package jsonstr scans the contents of JSON strings eight bytes at a
// time: the checkpoint codec and the stores' revision scan spend most of
// their time in the texts of a conversation's history, where nearly every
// byte is plain.
package jsonstr

import "math/bits"

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// load reads the eight bytes of s at i, little-endian (the compiler turns
// it into one load).
func load[T string | []byte](s T, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

// special has the high bit of each byte of x that is a quote, a backslash
// or below 0x20 set, and no high bit below the lowest such byte (a borrow
// only sets bits above a byte that matches), so the lowest set bit finds
// the first one.
func special(x uint64) uint64 {
	q := x ^ (ones * '"')
	b := x ^ (ones * '\\')
	return (((q - ones) &^ q) | ((b - ones) &^ b) | ((x - ones*0x20) &^ x)) & highs
}

// Plain returns the index of the first byte of s at or after i that is a
// quote, a backslash or a control character (below 0x20), or len(s) when
// there is none.
func Plain[T string | []byte](s T, i int) int {
	for ; i+8 <= len(s); i += 8 {
		if m := special(load(s, i)); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' || c < 0x20 {
			return i
		}
	}
	return i
}

// PlainASCII is Plain that also stops at a byte of 0x80 or above, the
// start of a character the caller checks for valid UTF-8.
func PlainASCII[T string | []byte](s T, i int) int {
	for ; i+8 <= len(s); i += 8 {
		x := load(s, i)
		if m := special(x) | x&highs; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
			return i
		}
	}
	return i
}
