// Package exprcompat prepares expression source for expr: it rewrites the
// Python framework's capitalised AND, OR and NOT to expr's and, or and not.
// The rewrite keeps every offset, so error columns still point into the
// source as written. Both the compiler and the VM use it.
package exprcompat

// Rewrite returns src with the whole words AND, OR and NOT outside string
// literals replaced by and, or and not.
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
		if c != 'A' && c != 'O' && c != 'N' {
			continue
		}
		if i > 0 && isWord(src[i-1]) {
			continue
		}
		for _, w := range [...]string{"AND", "OR", "NOT"} {
			end := i + len(w)
			if end <= len(src) && src[i:end] == w && (end == len(src) || !isWord(src[end])) {
				if out == nil {
					out = []byte(src)
				}
				for j := i; j < end; j++ {
					out[j] = src[j] + ('a' - 'A')
				}
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
