package lineedit

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stateAt builds a state from text with "|" marking the cursor.
func stateAt(t *testing.T, text string, history []string) *state {
	t.Helper()
	i := strings.Index(text, "|")
	require.GreaterOrEqual(t, i, 0, "cursor marker missing in %q", text)
	s := newState(history)
	s.buf = []rune(text[:i] + text[i+1:])
	s.pos = len([]rune(text[:i]))
	return s
}

// show renders s with "|" at the cursor.
func show(s *state) string {
	return string(s.buf[:s.pos]) + "|" + string(s.buf[s.pos:])
}

func TestStateEditing(t *testing.T) {
	tests := []struct {
		name  string
		start string
		keys  []Key
		want  string
		act   action // action of the last key
	}{
		{"insert at end", "|", runes("abc"), "abc|", actRedraw},
		{"insert in middle", "ac|d", append([]Key{k(KeyLeft)}, r('b')), "ab|cd", actRedraw},
		{"insert multi-byte", "a|z", runes("é😀"), "aé😀|z", actRedraw},
		{"control rune ignored", "a|", []Key{r('\x07')}, "a|", actNone},
		{"backspace", "ab|c", []Key{k(KeyBackspace)}, "a|c", actRedraw},
		{"backspace multi-byte", "é€|", []Key{k(KeyBackspace)}, "é|", actRedraw},
		{"backspace at start", "|abc", []Key{k(KeyBackspace)}, "|abc", actNone},
		{"delete", "a|bc", []Key{k(KeyDelete)}, "a|c", actRedraw},
		{"delete at end", "abc|", []Key{k(KeyDelete)}, "abc|", actNone},
		{"ctrl-d deletes under cursor", "a|bc", []Key{k(KeyCtrlD)}, "a|c", actRedraw},
		{"ctrl-d at end of text", "abc|", []Key{k(KeyCtrlD)}, "abc|", actNone},
		{"ctrl-d on empty line", "|", []Key{k(KeyCtrlD)}, "|", actEOF},
		{"left", "ab|", []Key{k(KeyLeft)}, "a|b", actRedraw},
		{"left at start", "|ab", []Key{k(KeyLeft)}, "|ab", actNone},
		{"right", "a|b", []Key{k(KeyRight)}, "ab|", actRedraw},
		{"right at end", "ab|", []Key{k(KeyRight)}, "ab|", actNone},
		{"right over multi-byte", "|😀x", []Key{k(KeyRight)}, "😀|x", actRedraw},
		{"home", "ab|c", []Key{k(KeyHome)}, "|abc", actRedraw},
		{"home at start", "|abc", []Key{k(KeyHome)}, "|abc", actNone},
		{"end", "a|bc", []Key{k(KeyEnd)}, "abc|", actRedraw},
		{"kill to end", "ab|cd", []Key{k(KeyKillEnd)}, "ab|", actRedraw},
		{"kill to end at end", "ab|", []Key{k(KeyKillEnd)}, "ab|", actNone},
		{"kill to start", "ab|cd", []Key{k(KeyKillStart)}, "|cd", actRedraw},
		{"kill to start at start", "|ab", []Key{k(KeyKillStart)}, "|ab", actNone},
		{"delete word", "say hello|", []Key{k(KeyDeleteWord)}, "say |", actRedraw},
		{"delete word with trailing spaces", "say hello  |x", []Key{k(KeyDeleteWord)}, "say |x", actRedraw},
		{"delete word mid-word", "say hel|lo", []Key{k(KeyDeleteWord)}, "say |lo", actRedraw},
		{"delete word twice", "a b c|", []Key{k(KeyDeleteWord), k(KeyDeleteWord)}, "a |", actRedraw},
		{"delete word only spaces", "   |", []Key{k(KeyDeleteWord)}, "|", actRedraw},
		{"delete word at start", "|ab", []Key{k(KeyDeleteWord)}, "|ab", actNone},
		{"word left", "one two| three", []Key{k(KeyWordLeft)}, "one |two three", actRedraw},
		{"word left twice", "one two |three", []Key{k(KeyWordLeft), k(KeyWordLeft)}, "|one two three", actRedraw},
		{"word right", "one| two three", []Key{k(KeyWordRight)}, "one two| three", actRedraw},
		{"word right at end", "one|", []Key{k(KeyWordRight)}, "one|", actNone},
		{"enter moves cursor to end", "a|bc", []Key{k(KeyEnter)}, "abc|", actAccept},
		{"interrupt keeps text", "a|b", []Key{k(KeyInterrupt)}, "a|b", actInterrupt},
		{"clear screen", "a|b", []Key{k(KeyClearScreen)}, "a|b", actClearScreen},
		{"unknown key", "a|b", []Key{k(KeyUnknown)}, "a|b", actNone},
		{"history without entries", "a|b", []Key{k(KeyUp)}, "a|b", actNone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := stateAt(t, tt.start, nil)
			var act action
			for _, key := range tt.keys {
				act = s.handle(key)
			}
			assert.Equal(t, tt.want, show(s))
			assert.Equal(t, tt.act, act)
		})
	}
}

func TestStateHistory(t *testing.T) {
	history := []string{"first", "second", "ünïcode"}
	tests := []struct {
		name  string
		start string
		keys  []Key
		want  string
		act   action
	}{
		{"up shows newest", "|", []Key{k(KeyUp)}, "ünïcode|", actRedraw},
		{"up twice", "|", []Key{k(KeyUp), k(KeyUp)}, "second|", actRedraw},
		{"up past oldest stays", "|", []Key{k(KeyUp), k(KeyUp), k(KeyUp), k(KeyUp)}, "first|", actNone},
		{"down on new line does nothing", "dra|ft", []Key{k(KeyDown)}, "dra|ft", actNone},
		{"down returns to draft", "draft|", []Key{k(KeyUp), k(KeyUp), k(KeyDown), k(KeyDown)}, "draft|", actRedraw},
		{"down restores edited draft", "dr|", []Key{r('x'), k(KeyUp), k(KeyDown)}, "drx|", actRedraw},
		{"down past draft stays", "d|", []Key{k(KeyUp), k(KeyDown), k(KeyDown)}, "d|", actNone},
		{"edit a history entry", "|", []Key{k(KeyUp), k(KeyUp), k(KeyBackspace), r('D')}, "seconD|", actRedraw},
		{"edited entry is not kept", "|", []Key{k(KeyUp), k(KeyBackspace), k(KeyUp), k(KeyDown)}, "ünïcode|", actRedraw},
		{"accept history entry", "x|", []Key{k(KeyUp), k(KeyUp), k(KeyUp), k(KeyEnter)}, "first|", actAccept},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := stateAt(t, tt.start, history)
			var act action
			for _, key := range tt.keys {
				act = s.handle(key)
			}
			assert.Equal(t, tt.want, show(s))
			assert.Equal(t, tt.act, act)
		})
	}
	assert.Equal(t, []string{"first", "second", "ünïcode"}, history, "history must not be modified")
}
