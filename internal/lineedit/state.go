package lineedit

import "unicode"

// action tells the terminal side what to do after a key was handled.
type action int

const (
	// actNone: nothing visible changed.
	actNone action = iota
	// actRedraw: the text or the cursor changed; redraw the line.
	actRedraw
	// actClearScreen: clear the screen, then redraw the line.
	actClearScreen
	// actAccept: the line is finished; return it.
	actAccept
	// actEOF: end of input (Ctrl-D on an empty line).
	actEOF
	// actInterrupt: the line was abandoned (Ctrl-C).
	actInterrupt
)

// state is the pure editing state of one line: the text, the cursor and the
// position in the history. It knows nothing about terminals.
type state struct {
	buf []rune
	// pos is the cursor as a rune index into buf, 0 <= pos <= len(buf).
	pos int
	// history is the list of earlier lines, oldest first. It is only read.
	history []string
	// hidx is the history entry on show; len(history) means the new line.
	hidx int
	// draft keeps the new line while history entries are on show.
	draft []rune
}

// newState returns an empty line positioned after the last history entry.
func newState(history []string) *state {
	return &state{history: history, hidx: len(history)}
}

// String returns the current text.
func (s *state) String() string { return string(s.buf) }

// handle applies one key and says what the terminal side should do.
func (s *state) handle(k Key) action {
	switch k.Code {
	case KeyRune:
		if unicode.IsControl(k.Rune) {
			return actNone
		}
		s.buf = append(s.buf, 0)
		copy(s.buf[s.pos+1:], s.buf[s.pos:])
		s.buf[s.pos] = k.Rune
		s.pos++
		return actRedraw
	case KeyEnter:
		s.pos = len(s.buf)
		return actAccept
	case KeyInterrupt:
		return actInterrupt
	case KeyCtrlD:
		if len(s.buf) == 0 {
			return actEOF
		}
		return s.deleteRange(s.pos, s.pos+1)
	case KeyBackspace:
		return s.deleteRange(s.pos-1, s.pos)
	case KeyDelete:
		return s.deleteRange(s.pos, s.pos+1)
	case KeyLeft:
		return s.moveTo(s.pos - 1)
	case KeyRight:
		return s.moveTo(s.pos + 1)
	case KeyWordLeft:
		return s.moveTo(s.wordStart())
	case KeyWordRight:
		return s.moveTo(s.wordEnd())
	case KeyHome:
		return s.moveTo(0)
	case KeyEnd:
		return s.moveTo(len(s.buf))
	case KeyKillEnd:
		return s.deleteRange(s.pos, len(s.buf))
	case KeyKillStart:
		return s.deleteRange(0, s.pos)
	case KeyDeleteWord:
		return s.deleteRange(s.wordStart(), s.pos)
	case KeyClearScreen:
		return actClearScreen
	case KeyUp:
		return s.showHistory(s.hidx - 1)
	case KeyDown:
		return s.showHistory(s.hidx + 1)
	}
	return actNone
}

// moveTo puts the cursor at p, clamped to the line.
func (s *state) moveTo(p int) action {
	p = max(0, min(p, len(s.buf)))
	if p == s.pos {
		return actNone
	}
	s.pos = p
	return actRedraw
}

// deleteRange removes the runes [from, to), clamped to the line, and leaves
// the cursor at from.
func (s *state) deleteRange(from, to int) action {
	from = max(0, from)
	to = min(to, len(s.buf))
	if from >= to {
		return actNone
	}
	s.buf = append(s.buf[:from], s.buf[to:]...)
	s.pos = from
	return actRedraw
}

// wordStart is where the word before the cursor begins: back over spaces,
// then back over non-spaces.
func (s *state) wordStart() int {
	p := s.pos
	for p > 0 && unicode.IsSpace(s.buf[p-1]) {
		p--
	}
	for p > 0 && !unicode.IsSpace(s.buf[p-1]) {
		p--
	}
	return p
}

// wordEnd is just past the word after the cursor: forward over spaces, then
// forward over non-spaces.
func (s *state) wordEnd() int {
	p := s.pos
	for p < len(s.buf) && unicode.IsSpace(s.buf[p]) {
		p++
	}
	for p < len(s.buf) && !unicode.IsSpace(s.buf[p]) {
		p++
	}
	return p
}

// showHistory replaces the line with history entry i, or with the line that
// was being typed when i is len(history). Out-of-range i does nothing.
func (s *state) showHistory(i int) action {
	if i < 0 || i > len(s.history) || i == s.hidx {
		return actNone
	}
	if s.hidx == len(s.history) {
		s.draft = append(s.draft[:0], s.buf...)
	}
	s.hidx = i
	if i == len(s.history) {
		s.buf = append(s.buf[:0], s.draft...)
	} else {
		s.buf = append(s.buf[:0], []rune(s.history[i])...)
	}
	s.pos = len(s.buf)
	return actRedraw
}
