package convtest

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPiecesDecodeAsWhole checks that a file read in pieces is the File
// one decode of the whole file gives, and that a file with problems is
// never read in pieces: for every test file of the repository and the
// layouts of chunkCases, in pieces of one case and of about 200 bytes.
func TestPiecesDecodeAsWhole(t *testing.T) {
	sources := testSources(t)
	pieced := 0
	for name, src := range sources {
		for _, size := range []int{1, 200} {
			t.Run(fmt.Sprintf("%s/%d", name, size), func(t *testing.T) {
				if piecesAsWhole(t, name, src, size) {
					pieced++
				}
			})
		}
	}
	assert.Greater(t, pieced, 20, "most test files should be read in pieces")
}

// piecesAsWhole reads src in pieces of about size bytes and, when that
// succeeds, requires that it is what one decode gives. It reports whether
// it read it in pieces.
func piecesAsWhole(t testing.TB, name string, src []byte, size int) bool {
	got, ok := decodeInPieces(name, src, 0, size)
	if !ok {
		return false
	}
	want, wantDiags, _ := decodeDoc(name, src, yamlDoc{}, true)
	assert.Empty(t, wantDiags, "%s: read in pieces but it has problems", name)
	assert.Equal(t, want, got, name)
	return true
}

// TestPiecesRefused lists files that must be read whole.
func TestPiecesRefused(t *testing.T) {
	cases := map[string]string{
		"a key after the list": "test_cases:\n  - test_case: a\n    steps:\n      - user: hi\n  - test_case: b\n    steps:\n      - user: x\nflows: ..\n",
		"a duplicate name":     "test_cases:\n  - test_case: a\n    steps:\n      - user: hi\n  - test_case: a\n    steps:\n      - user: x\n",
		"a problem in a case":  "test_cases:\n  - test_case: a\n    steps:\n      - user: hi\n  - test_case: b\n    steps:\n      - usr: x\n",
		"a block scalar":       "test_cases:\n  - test_case: a\n    steps:\n      - user: |\n          hi\n  - test_case: b\n    steps:\n      - user: x\n",
		"one case":             "test_cases:\n  - test_case: a\n    steps:\n      - user: hi\n",
	}
	for name, src := range cases {
		_, ok := decodeInPieces(name, []byte(src), 0, 1)
		assert.False(t, ok, name)
	}
	// A small file is read whole.
	_, ok := decodePieces("small", []byte(chunkCases["plain"]))
	assert.False(t, ok)
}

// FuzzPiecesDecodeAsWhole: a file read in pieces is the File one decode
// gives.
func FuzzPiecesDecodeAsWhole(f *testing.F) {
	for _, src := range chunkCases {
		f.Add(src, 1)
	}
	f.Fuzz(func(t *testing.T, src string, size int) {
		if size < 1 || size > 1000 {
			return
		}
		piecesAsWhole(t, "fuzz.yaml", []byte(src), size)
	})
}
