package checkpoints

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSplitFile checks how a checkpoint file's contents split into the
// checkpoint and its revision: the header's, or, in a file written before
// the header, the JSON's top-level field; and the message of each way the
// contents can be wrong.
func TestSplitFile(t *testing.T) {
	cases := []struct {
		name, data string
		checkpoint string
		rev        uint64
		legacy     bool
		err        string
	}{
		{name: "header", data: "soni-file-store/v1 revision 7\n{\"revision\": 3}", checkpoint: `{"revision": 3}`, rev: 7},
		{name: "header, any bytes after it", data: "soni-file-store/v1 revision 18446744073709551615\nnot JSON", checkpoint: "not JSON", rev: 18446744073709551615},
		{name: "header, nothing after it", data: "soni-file-store/v1 revision 1\n", checkpoint: "", rev: 1},
		{name: "legacy", data: `{"a":[1,2],"revision":42,"b":{"revision":7}}`, checkpoint: `{"a":[1,2],"revision":42,"b":{"revision":7}}`, rev: 42, legacy: true},
		{name: "legacy, duplicate", data: `{"revision":1,"revision":3}`, checkpoint: `{"revision":1,"revision":3}`, rev: 3, legacy: true},
		{name: "header cut short", data: "soni-file-st", err: "its header is cut short"},
		{name: "no end of line", data: "soni-file-store/v1 revision 12", err: "has no end of line"},
		{name: "endless header", data: "soni-file-store/v1 revision 1111111111111111111111111111111\n{}", err: "has no end of line"},
		{name: "revision 0", data: "soni-file-store/v1 revision 0\n{}", err: `gives the revision "0", not an integer of at least 1`},
		{name: "not a number", data: "soni-file-store/v1 revision x1\n{}", err: `gives the revision "x1"`},
		{name: "leading zero", data: "soni-file-store/v1 revision 01\n{}", err: `gives the revision "01"`},
		{name: "sign", data: "soni-file-store/v1 revision +1\n{}", err: `gives the revision "+1"`},
		{name: "too large", data: "soni-file-store/v1 revision 18446744073709551616\n{}", err: `gives the revision "18446744073709551616"`},
		{name: "empty", data: "", err: "it is empty, not a JSON object"},
		{name: "legacy, not JSON", data: `{"revision": 1`, err: "it is not valid JSON"},
		{name: "legacy, an array", data: `[1]`, err: "it is a JSON array, not an object"},
		{name: "legacy, null", data: `null`, err: "it is JSON null, not an object"},
		{name: "legacy, no revision", data: `{"format": "x"}`, err: `it has no top-level "revision" field`},
		{name: "legacy, revision 0", data: `{"revision": 0}`, err: `its "revision" is "0", not an integer of at least 1`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			checkpoint, rev, legacy, err := splitFile([]byte(tc.data))
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.checkpoint, string(checkpoint))
			assert.Equal(t, tc.rev, rev)
			assert.Equal(t, tc.legacy, legacy)
		})
	}
}

// FuzzSplitFile: any contents split without a panic, and what the store
// writes (the header and the checkpoint) splits back into what it wrote.
func FuzzSplitFile(f *testing.F) {
	for _, s := range []string{"soni-file-store/v1 revision 7\n{}", `{"revision":1}`, "soni-file-store/v1 revision ", "soni-file-store/v1 revision 1", ""} {
		f.Add([]byte(s), uint64(1))
	}
	f.Fuzz(func(t *testing.T, data []byte, rev uint64) {
		_, _, _, _ = splitFile(data)
		if rev == 0 {
			return
		}
		file := append(appendHeader(nil, rev), data...)
		got, gotRev, legacy, err := splitFile(file)
		require.NoError(t, err)
		assert.True(t, bytes.Equal(data, got))
		assert.Equal(t, rev, gotRev)
		assert.False(t, legacy)
	})
}
