package checkpoints

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

// sampleCheckpoint is a turn-sized checkpoint.
var sampleCheckpoint = []byte(`{
  "format": "soni.checkpoint/v1",
  "session": "s",
  "revision": 7,
  "fingerprint": "sha256:459f11fbf9d31075b69cee43616a37aab53a2f65d6a98af9ecc816de62f03719",
  "created": "2026-01-02T03:04:05Z",
  "updated": "2026-01-02T03:04:05Z",
  "stack": [{"flow": "transfer", "step": "ask", "slots": {"amount": 50, "to": "Ana \"x\""}}],
  "slots": {"class": "business"},
  "pending": {"kind": "collect", "flow": "transfer", "step": "ask", "slot": "to", "prompt": "Who?"},
  "history": [{"role": "user", "text": "send money"}]
}`)

// BenchmarkRevision is what a store pays per load or save to read the
// revision: a scan with no allocation, against encoding/json's parse.
func BenchmarkRevision(b *testing.B) {
	b.Run("scan", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = Revision(sampleCheckpoint)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = parseRevision(sampleCheckpoint)
		}
	})
}

// FuzzRevision: whenever the scan decides on valid JSON, it agrees with
// encoding/json. (On invalid JSON whose structure holds, such as a bad
// literal nested inside, the scan may still find the revision: the VM's
// decoder refuses such a checkpoint.)
func FuzzRevision(f *testing.F) {
	for _, s := range []string{string(sampleCheckpoint), `{"revision":1}`, `{"a":"x\"revision\":3","revision":2}`, `{"revision":1,"revision":3}`, `{"re\u0076ision":4}`, `[1]`, `{"revision":0}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rev, ok := scanRevision(data)
		if !ok || !json.Valid(data) {
			return
		}
		want, err := parseRevision(data)
		if assert.NoError(t, err, "%q", data) {
			assert.Equal(t, want, rev, "%q", data)
		}
	})
}
