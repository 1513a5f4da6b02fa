//go:build !race

package lsp

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// liveHeap returns the bytes live after a full collection.
func liveHeap() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// The server's memory does not grow with the number of edits: 10,000
// incremental edits (a typo typed and removed, as an editor sends them)
// leave the live heap where 1,000 left it, within 512 KiB, which a leak of
// 60 bytes an edit would exceed. The race detector's own bookkeeping
// grows, so this runs without it.
func TestMemoryDoesNotGrowWithEdits(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 edits")
	}
	dir := copyProject(t, "trip")
	c := startServer(t, dir)
	uri := c.open(filepath.Join(dir, "trip.yaml"))
	c.waitDiags(uri)
	// Line 23 is `        message: "How many nights in {city}?"`:
	// insert an x after {c, then remove it.
	at := protocol.Position{Line: 22, Character: 39}
	insert := protocol.TextDocumentContentChangeEvent{Range: &protocol.Range{Start: at, End: at}, Text: "x"}
	remove := protocol.TextDocumentContentChangeEvent{Range: &protocol.Range{Start: at, End: protocol.Position{Line: 22, Character: 40}}, Text: ""}
	edit := func(i int) {
		change := insert
		if i%2 == 1 {
			change = remove
		}
		c.notify(protocol.MethodTextDocumentDidChange, protocol.DidChangeTextDocumentParams{
			TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri}, Version: int32(i + 2)},
			ContentChanges: []any{change},
		})
		ds := c.waitDiags(uri)
		if i%2 == 0 {
			require.Len(t, ds, 3, "edit %d: the typo adds an E032", i)
		} else {
			require.Len(t, ds, 2, "edit %d", i)
		}
	}
	for i := 0; i < 1000; i++ {
		edit(i)
	}
	c.sync()
	before := liveHeap()
	for i := 1000; i < 10000; i++ {
		edit(i)
	}
	c.sync()
	after := liveHeap()
	t.Logf("live heap after 1,000 edits %d KiB, after 10,000 %d KiB", before>>10, after>>10)
	assert.Less(t, int64(after)-int64(before), int64(512<<10), "the live heap grew by %d KiB over 9,000 edits", (int64(after)-int64(before))>>10)
}
