// Package text holds the small string helpers that several packages of
// soni need: shortening a text for a message without splitting a UTF-8
// sequence, and matching word prefixes.
package text

import "unicode/utf8"

// Cut returns the longest prefix of s of at most n bytes that does not
// split a UTF-8 sequence.
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Clip shortens s for an error message: [Cut] to n bytes, with "..." when
// anything was cut.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return Cut(s, n) + "..."
}

// HasPrefixWords reports whether words starts with the words of prefix.
func HasPrefixWords(words, prefix []string) bool {
	if len(words) < len(prefix) {
		return false
	}
	for i, w := range prefix {
		if words[i] != w {
			return false
		}
	}
	return true
}
