package lineedit

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func r(c rune) Key    { return Key{Code: KeyRune, Rune: c} }
func k(c KeyCode) Key { return Key{Code: c} }
func runes(s string) []Key {
	var keys []Key
	for _, c := range s {
		keys = append(keys, r(c))
	}
	return keys
}

func TestDecoder(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Key
	}{
		{"ascii", "hi!", runes("hi!")},
		{"multi-byte runes", "né€😀", runes("né€😀")},
		{"enter CR", "\r", []Key{k(KeyEnter)}},
		{"enter LF", "\n", []Key{k(KeyEnter)}},
		{"CR LF is one enter", "a\r\nb", []Key{r('a'), k(KeyEnter), r('b')}},
		{"LF LF is two enters", "\n\n", []Key{k(KeyEnter), k(KeyEnter)}},
		{"CR CR is two enters", "\r\r", []Key{k(KeyEnter), k(KeyEnter)}},
		{"backspace DEL and Ctrl-H", "\x7f\x08", []Key{k(KeyBackspace), k(KeyBackspace)}},
		{"delete", "\x1b[3~", []Key{k(KeyDelete)}},
		{"arrows", "\x1b[A\x1b[B\x1b[C\x1b[D", []Key{k(KeyUp), k(KeyDown), k(KeyRight), k(KeyLeft)}},
		{"application arrows", "\x1bOA\x1bOB\x1bOC\x1bOD", []Key{k(KeyUp), k(KeyDown), k(KeyRight), k(KeyLeft)}},
		{"home variants", "\x1b[H\x1bOH\x1b[1~\x1b[7~\x01", []Key{k(KeyHome), k(KeyHome), k(KeyHome), k(KeyHome), k(KeyHome)}},
		{"end variants", "\x1b[F\x1bOF\x1b[4~\x1b[8~\x05", []Key{k(KeyEnd), k(KeyEnd), k(KeyEnd), k(KeyEnd), k(KeyEnd)}},
		{"ctrl movement", "\x02\x06", []Key{k(KeyLeft), k(KeyRight)}},
		{"ctrl history", "\x10\x0e", []Key{k(KeyUp), k(KeyDown)}},
		{"kills", "\x0b\x15\x17", []Key{k(KeyKillEnd), k(KeyKillStart), k(KeyDeleteWord)}},
		{"ctrl-l ctrl-d ctrl-c", "\x0c\x04\x03", []Key{k(KeyClearScreen), k(KeyCtrlD), k(KeyInterrupt)}},
		{"word moves", "\x1bb\x1bf\x1b[1;5D\x1b[1;5C\x1b[1;3D", []Key{k(KeyWordLeft), k(KeyWordRight), k(KeyWordLeft), k(KeyWordRight), k(KeyWordLeft)}},
		{"modifier 1 is plain", "\x1b[1;1C", []Key{k(KeyRight)}},
		{"alt-backspace", "\x1b\x7f", []Key{k(KeyDeleteWord)}},
		{"tab is a space", "a\tb", runes("a b")},
		{"unknown CSI ignored", "\x1b[5~x\x1b[200~y\x1b[201~", runes("xy")},
		{"unknown SS3 ignored", "\x1bOPz", runes("z")},
		{"ESC then letter drops ESC", "\x1bx", runes("x")},
		{"double ESC", "\x1b\x1b[A", []Key{k(KeyUp)}},
		{"unused controls ignored", "\x00\x07\x1a\x1cq", runes("q")},
		{"invalid UTF-8 dropped", "a\xffb\xc3(", runes("ab(")},
		{"C1 controls dropped", "a\u0085b", runes("ab")},
		{"malformed CSI resyncs", "\x1b[1\x01", []Key{k(KeyHome)}},
		{"over-long CSI dropped", "\x1b[" + strings.Repeat("1;", 100) + "Aok", runes("ok")},
		{"over-long malformed CSI resyncs", "\x1b[" + strings.Repeat("1", 40) + "\x01", []Key{k(KeyHome)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d decoder
			assert.Equal(t, tt.want, d.feed([]byte(tt.in)), "one read")
			assert.Empty(t, d.pending)

			var byByte []Key
			d = decoder{}
			for i := 0; i < len(tt.in); i++ {
				byByte = append(byByte, d.feed([]byte{tt.in[i]})...)
			}
			assert.Equal(t, tt.want, byByte, "one byte per read")

			for cut := 1; cut < len(tt.in); cut++ {
				d = decoder{}
				got := d.feed([]byte(tt.in[:cut]))
				got = append(got, d.feed([]byte(tt.in[cut:]))...)
				assert.Equal(t, tt.want, got, "split at %d", cut)
			}
		})
	}
}

func TestDecoderKeepsIncomplete(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		pending string
	}{
		{"lone ESC", "\x1b", "\x1b"},
		{"ESC [", "a\x1b[", "\x1b["},
		{"ESC [ 3", "\x1b[3", "\x1b[3"},
		{"ESC O", "\x1bO", "\x1bO"},
		{"half a rune", "x\xe2\x82", "\xe2\x82"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d decoder
			d.feed([]byte(tt.in))
			assert.Equal(t, tt.pending, string(d.pending))
		})
	}
}
