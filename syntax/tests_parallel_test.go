package syntax

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDecodeInParallelIsOneLoop: a file long enough for its cases to be
// converted and decoded on several goroutines decodes to the same model
// with the same problems, in the same order, as on one.
func TestDecodeInParallelIsOneLoop(t *testing.T) {
	t.Parallel()
	n := 3*parallelMin + 17
	var b strings.Builder
	b.WriteString("flows: ../flows/banking\ntest_cases:\n")
	for i := range n {
		name := fmt.Sprintf("c%d", i)
		switch i {
		case 40, 2 * parallelMin:
			name = "c3" // defined twice
		}
		fmt.Fprintf(&b, "  - test_case: %s\n    steps:\n      - user: send money\n      - bot: Who?\n", name)
		switch i {
		case 5, parallelMin + 1:
			b.WriteString("      - colour: blue\n") // an unknown step key
		case 77, n - 1:
			b.WriteString("      - bot: [a, list]\n") // a reply that is not text
		case parallelMin - 1:
			b.WriteString("    skipp: yes\n") // an unknown case key
		}
	}
	b.WriteString("  - steps: [{user: hi}]\n") // no name
	src := []byte(b.String())
	oneFile, oneDiags := ParseTests(src).decode("t.yaml", 1)
	require.NotNil(t, oneFile)
	require.Len(t, oneDiags, 8, "%v", oneDiags)
	for _, workers := range []int{2, 3, 8} {
		f, ds := ParseTests(src).decode("t.yaml", workers)
		assert.Equal(t, oneDiags, ds, "workers=%d", workers)
		assert.Equal(t, oneFile, f, "workers=%d", workers)
	}
}

// BenchmarkDecodeTests parses and decodes a test file of 2,000 four-turn
// cases, the file of bench/loop.sh:
//
//	go test -run '^$' -bench DecodeTests -benchmem ./syntax
func BenchmarkDecodeTests(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("flows: ../bench/book_flight.yaml\ntest_cases:\n")
	for i := range 2000 {
		fmt.Fprintf(&sb, "  - test_case: c%d\n    steps:\n      - user: book a flight\n      - bot: Welcome\n      - bot: Where from?\n      - user: Madrid\n      - bot: Where to?\n      - user: Lisbon\n      - bot: What date?\n      - user: \"2027-03-05\"\n      - bot: Found a flight from Madrid to Lisbon on 2027-03-05 for 156\n", i)
	}
	src := []byte(sb.String())
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		f, ds := DecodeTests("loop_test.yaml", src)
		if len(ds) > 0 || len(f.Cases) != 2000 {
			b.Fatal(ds)
		}
	}
}
