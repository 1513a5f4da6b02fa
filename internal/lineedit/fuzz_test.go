package lineedit

import (
	"errors"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// FuzzDecodeAndEdit feeds arbitrary bytes, split at an arbitrary point,
// through the decoder and the state machine: nothing may panic, the cursor
// stays inside the line, and splitting the input never changes the keys.
func FuzzDecodeAndEdit(f *testing.F) {
	f.Add([]byte("hello\x1b[D\x1b[3~\r"), uint(3))
	f.Add([]byte("\x1b[1;5C\x1bOH\x17\x15\x0b\xe2\x82\xac"), uint(7))
	f.Add([]byte("\x1b[\x1b\x1bO\xff\xc3"), uint(1))
	f.Fuzz(func(t *testing.T, data []byte, cut uint) {
		var whole decoder
		want := whole.feed(data)
		var split decoder
		c := int(cut % uint(len(data)+1))
		got := append(split.feed(data[:c]), split.feed(data[c:])...)
		require.Equal(t, want, got)

		s := newState([]string{"one", "two"})
		for _, k := range want {
			s.handle(k)
			require.GreaterOrEqual(t, s.pos, 0)
			require.LessOrEqual(t, s.pos, len(s.buf))
		}
		require.True(t, utf8.ValidString(s.String()))

		e, err := newEditor(strings.NewReader(string(data)), io.Discard, Options{})
		require.NoError(t, err)
		for range len(data) + 1 {
			if _, err := e.ReadLine(); errors.Is(err, io.EOF) {
				return
			}
		}
		t.Fatal("ReadLine never reached the end of input")
	})
}
