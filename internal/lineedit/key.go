package lineedit

import (
	"strings"
	"unicode/utf8"
)

// KeyCode names what a key does. Several byte sequences map to the same code:
// Ctrl-A, ESC [ H, ESC O H, ESC [ 1 ~ and ESC [ 7 ~ are all KeyHome.
type KeyCode int

// The key codes produced by the decoder.
const (
	// KeyUnknown is a key or sequence the editor does not use; it is ignored.
	KeyUnknown KeyCode = iota
	// KeyRune inserts Key.Rune at the cursor.
	KeyRune
	// KeyEnter accepts the line (CR, LF, or CR LF counted once).
	KeyEnter
	// KeyBackspace deletes the rune before the cursor (DEL, Ctrl-H).
	KeyBackspace
	// KeyDelete deletes the rune under the cursor (ESC [ 3 ~).
	KeyDelete
	// KeyLeft moves the cursor one rune left (Left arrow, Ctrl-B).
	KeyLeft
	// KeyRight moves the cursor one rune right (Right arrow, Ctrl-F).
	KeyRight
	// KeyWordLeft moves the cursor to the start of the previous word
	// (Alt-B, Ctrl-Left, Alt-Left).
	KeyWordLeft
	// KeyWordRight moves the cursor past the end of the next word
	// (Alt-F, Ctrl-Right, Alt-Right).
	KeyWordRight
	// KeyHome moves the cursor to the start of the line (Home, Ctrl-A).
	KeyHome
	// KeyEnd moves the cursor to the end of the line (End, Ctrl-E).
	KeyEnd
	// KeyUp shows the previous history entry (Up arrow, Ctrl-P).
	KeyUp
	// KeyDown shows the next history entry (Down arrow, Ctrl-N).
	KeyDown
	// KeyKillEnd deletes from the cursor to the end of the line (Ctrl-K).
	KeyKillEnd
	// KeyKillStart deletes from the start of the line to the cursor (Ctrl-U).
	KeyKillStart
	// KeyDeleteWord deletes the word before the cursor (Ctrl-W, Alt-Backspace).
	KeyDeleteWord
	// KeyClearScreen clears the screen and redraws the line (Ctrl-L).
	KeyClearScreen
	// KeyCtrlD deletes the rune under the cursor, or ends input on an empty line.
	KeyCtrlD
	// KeyInterrupt abandons the line (Ctrl-C).
	KeyInterrupt
)

// keySkipCSI is an internal code: the decoder met an over-long CSI sequence
// and drops its remaining parameter bytes and its final byte.
const keySkipCSI KeyCode = -1

// Key is one decoded key press.
type Key struct {
	// Code says what the key does.
	Code KeyCode
	// Rune is the typed character when Code is KeyRune, otherwise zero.
	Rune rune
}

// maxSeqLen bounds how many bytes an unfinished escape sequence may hold
// before it is dropped as unknown, so garbage cannot grow the buffer.
const maxSeqLen = 32

// ctrlKeys maps the single control bytes the editor uses to their codes.
var ctrlKeys = map[byte]KeyCode{
	0x01: KeyHome,        // Ctrl-A
	0x02: KeyLeft,        // Ctrl-B
	0x03: KeyInterrupt,   // Ctrl-C
	0x04: KeyCtrlD,       // Ctrl-D
	0x05: KeyEnd,         // Ctrl-E
	0x06: KeyRight,       // Ctrl-F
	0x08: KeyBackspace,   // Ctrl-H
	0x0a: KeyEnter,       // LF
	0x0b: KeyKillEnd,     // Ctrl-K
	0x0c: KeyClearScreen, // Ctrl-L
	0x0d: KeyEnter,       // CR
	0x0e: KeyDown,        // Ctrl-N
	0x10: KeyUp,          // Ctrl-P
	0x15: KeyKillStart,   // Ctrl-U
	0x17: KeyDeleteWord,  // Ctrl-W
	0x7f: KeyBackspace,   // DEL
}

// decoder turns a byte stream from a terminal into keys. Bytes of an escape
// sequence or a UTF-8 character that are split across reads are kept until
// the rest arrives.
type decoder struct {
	pending []byte
	// skipCSI is set while the rest of an over-long CSI sequence is dropped.
	skipCSI bool
	// afterCR is set when the last byte was CR, so that the LF of a CR LF
	// pair (pasted text, some terminals) does not count as a second Enter.
	afterCR bool
}

// feed adds p to the unconsumed input and returns every key that is now
// complete, in order.
func (d *decoder) feed(p []byte) []Key {
	d.pending = append(d.pending, p...)
	var keys []Key
	i := 0
	for i < len(d.pending) {
		b := d.pending[i:]
		if d.skipCSI {
			if isCSIParam(b[0]) {
				i++
				continue
			}
			d.skipCSI = false
			if b[0] >= 0x40 && b[0] <= 0x7e {
				i++
				continue
			}
		}
		if b[0] == '\n' && d.afterCR {
			d.afterCR = false
			i++
			continue
		}
		k, n, ok := decodeOne(b)
		if !ok {
			break
		}
		d.afterCR = b[0] == '\r'
		i += n
		if k.Code == keySkipCSI {
			d.skipCSI = true
			continue
		}
		if k.Code != KeyUnknown {
			keys = append(keys, k)
		}
	}
	rest := copy(d.pending, d.pending[i:])
	d.pending = d.pending[:rest]
	return keys
}

// decodeOne decodes the key at the start of b (which is not empty). It
// returns the key, how many bytes it used, and false if b holds only the
// beginning of a key and more bytes are needed.
func decodeOne(b []byte) (Key, int, bool) {
	c := b[0]
	switch {
	case c == 0x1b:
		return decodeEscape(b)
	case c == '\t':
		// A tab would break the rune-count cursor arithmetic; keep the
		// gap as one space.
		return Key{Code: KeyRune, Rune: ' '}, 1, true
	case c < 0x20 || c == 0x7f:
		return Key{Code: ctrlKeys[c]}, 1, true
	case c < utf8.RuneSelf:
		return Key{Code: KeyRune, Rune: rune(c)}, 1, true
	}
	if !utf8.FullRune(b) {
		return Key{}, 0, false
	}
	r, size := utf8.DecodeRune(b)
	if r == utf8.RuneError && size <= 1 {
		return Key{}, 1, true // invalid byte: dropped
	}
	if r >= 0x80 && r < 0xa0 {
		return Key{}, size, true // C1 control character
	}
	return Key{Code: KeyRune, Rune: r}, size, true
}

// decodeEscape decodes a key that starts with ESC.
func decodeEscape(b []byte) (Key, int, bool) {
	if len(b) < 2 {
		return Key{}, 0, false
	}
	switch b[1] {
	case '[':
		return decodeCSI(b)
	case 'O':
		if len(b) < 3 {
			return Key{}, 0, false
		}
		return Key{Code: ss3Keys[b[2]]}, 3, true
	case 'b', 'B':
		return Key{Code: KeyWordLeft}, 2, true
	case 'f', 'F':
		return Key{Code: KeyWordRight}, 2, true
	case 0x7f, 0x08:
		return Key{Code: KeyDeleteWord}, 2, true
	}
	// A lone ESC followed by something else: drop the ESC and decode the
	// next byte on its own.
	return Key{}, 1, true
}

// ss3Keys maps the final byte of ESC O x sequences (application cursor mode).
var ss3Keys = map[byte]KeyCode{
	'A': KeyUp,
	'B': KeyDown,
	'C': KeyRight,
	'D': KeyLeft,
	'H': KeyHome,
	'F': KeyEnd,
}

// isCSIParam reports whether c is a parameter (0x30-0x3f) or intermediate
// (0x20-0x2f) byte of a CSI sequence.
func isCSIParam(c byte) bool { return c >= 0x20 && c <= 0x3f }

// decodeCSI decodes ESC [ params final.
func decodeCSI(b []byte) (Key, int, bool) {
	j := 2
	// Parameter bytes 0x30-0x3f, then intermediate bytes 0x20-0x2f.
	for j < len(b) && j < maxSeqLen && isCSIParam(b[j]) {
		j++
	}
	if j == maxSeqLen {
		// Too long to be a key: drop it, and the rest of it as it comes.
		return Key{Code: keySkipCSI}, j, true
	}
	if j == len(b) {
		return Key{}, 0, false
	}
	final := b[j]
	if final < 0x40 || final > 0x7e {
		// Malformed: drop what was read and decode the odd byte afresh.
		return Key{}, j, true
	}
	params := strings.Split(string(b[2:j]), ";")
	first := params[0]
	modified := len(params) > 1 && params[1] != "" && params[1] != "1"
	var code KeyCode
	switch final {
	case 'A':
		code = KeyUp
	case 'B':
		code = KeyDown
	case 'C':
		code = KeyRight
		if modified {
			code = KeyWordRight
		}
	case 'D':
		code = KeyLeft
		if modified {
			code = KeyWordLeft
		}
	case 'H':
		code = KeyHome
	case 'F':
		code = KeyEnd
	case '~':
		switch first {
		case "1", "7":
			code = KeyHome
		case "4", "8":
			code = KeyEnd
		case "3":
			code = KeyDelete
		}
	}
	return Key{Code: code}, j + 1, true
}
