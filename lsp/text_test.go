package lsp

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/soni-dev/soni/diag"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// Positions count UTF-16 units, as the protocol says: an emoji is two,
// an accented letter one.
func TestPositionsCountUTF16(t *testing.T) {
	src := "a: \"¿Qué? 🎉 {city}\"\nb: x\n"
	off := offsetOf(src, protocol.Position{Line: 0, Character: 13})
	assert.Equal(t, "{city}\"\nb: x\n", src[off:])
	assert.Equal(t, protocol.Position{Line: 0, Character: 13}, positionOf(src, off))
	// The compiler counts runes: the name city starts at rune column 14.
	assert.Equal(t, protocol.Range{Start: protocol.Position{Line: 0, Character: 14}, End: protocol.Position{Line: 0, Character: 18}}, diagRange(src, diag.Pos{Line: 1, Col: 14}))
	changed := applyChange(src, protocol.TextDocumentContentChangeEvent{Range: &protocol.Range{Start: protocol.Position{Line: 0, Character: 14}, End: protocol.Position{Line: 0, Character: 18}}, Text: "town"})
	assert.Equal(t, "a: \"¿Qué? 🎉 {town}\"\nb: x\n", changed)
	assert.Equal(t, 3, utf16Len("a🎉"))
}
