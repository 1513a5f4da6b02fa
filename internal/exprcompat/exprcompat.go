// Package exprcompat prepares expression source for expr: it rewrites the
// Python framework's capitalised AND, OR and NOT to expr's and, or and not,
// its None (and none, null) to nil, its True and False to true and false,
// and Python's "is" and "is not" to == and !=. The rewrite keeps every offset, so error columns still point into
// the source as written. Both the compiler and the VM use it.
package exprcompat

// rewrites maps each word outside string literals to its replacement of
// the same length (nil is padded with a space).
var rewrites = [...]struct{ from, to string }{
	{"AND", "and"},
	{"OR", "or"},
	{"NOT", "not"},
	{"None", "nil "},
	{"none", "nil "},
	{"null", "nil "},
	{"True", "true"},
	{"False", "false"},
	{"is not", "!=    "},
	{"is", "=="},
}

// Rewrite returns src with the whole words of the table above, outside
// string literals and not after a "." (a field), replaced.
func Rewrite(src string) string {
	var out []byte
	var quote byte
	for i := 0; i < len(src); i++ {
		c := src[i]
		if quote != 0 {
			if c == '\\' {
				i++
				continue
			}
			if c == quote {
				quote = 0
			}
			continue
		}
		switch c {
		case '"', '\'', '`':
			quote = c
			continue
		}
		if c != 'A' && c != 'O' && c != 'N' && c != 'n' && c != 'T' && c != 'F' && c != 'i' {
			continue
		}
		if i > 0 && (isWord(src[i-1]) || src[i-1] == '.') {
			continue
		}
		for _, w := range rewrites {
			end := i + len(w.from)
			if end <= len(src) && src[i:end] == w.from && (end == len(src) || !isWord(src[end])) {
				if out == nil {
					out = []byte(src)
				}
				copy(out[i:end], w.to)
				i = end - 1
				break
			}
		}
	}
	if out == nil {
		return src
	}
	return string(out)
}

func isWord(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
