package convtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// benchTurns is one ten-turn conversation with the banking example: a
// balance, a transfer, a blocked card.
var benchTurns = []struct {
	user    string
	replies []string
}{
	{"check my balance", []string{"Which account: checking or savings?"}},
	{"savings", []string{"Your savings balance is 1234.5 EUR.", "Is there anything else I can help you with?"}},
	{"send money", []string{"Who should receive the money?"}},
	{"Ana", []string{"How much?"}},
	{"50", []string{"Send 50 from your savings account to Ana?"}},
	{"yes", []string{"Done! I've sent 50 to Ana. The reference is T-1.", "Is there anything else I can help you with?"}},
	{"block my card", []string{"What are the last four digits of the card?"}},
	{"4821", []string{"Block the card ending in 4821? It can't be used again afterwards."}},
	{"yes", []string{"Your card ending in 4821 is blocked. Reference: B-7.", "Would you like a replacement card?"}},
	{"no", []string{"Okay. You can order a new card whenever you like.", "Is there anything else I can help you with?"}},
}

// benchFile writes a test file of n generated cases of benchTurns against
// flows/banking, with every action stubbed.
func benchFile(t testing.TB, n int) string {
	flows, err := filepath.Abs(filepath.Join("..", "flows", "banking"))
	require.NoError(t, err)
	var b strings.Builder
	fmt.Fprintf(&b, "flows: %s\nstub_custom_actions:\n", filepath.ToSlash(flows))
	b.WriteString("  get_balance: {outputs: {balance: 1234.5, currency: EUR}}\n")
	b.WriteString("  make_transfer: {outputs: {reference: T-1}}\n")
	b.WriteString("  block_card: {outputs: {reference: B-7}, responses: [{response: utter_card_blocked}]}\n")
	b.WriteString("test_cases:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  - test_case: conversation_%04d\n    steps:\n", i)
		for _, turn := range benchTurns {
			fmt.Fprintf(&b, "      - user: %q\n", turn.user)
			for _, r := range turn.replies {
				fmt.Fprintf(&b, "      - bot: %q\n", r)
			}
		}
	}
	return writeFile(t, t.TempDir(), "bench_test.yaml", b.String())
}

// TestBenchFilePasses keeps the benchmark honest: its conversation passes.
func TestBenchFilePasses(t *testing.T) {
	_, r := run(t, []string{benchFile(t, 3)}, Options{})
	require.Equal(t, "3 passed, 0 failed", r.Summary(), textOf(t, r))
}

// BenchmarkSoniTest loads and runs 1,000 generated cases of 10 turns each
// against flows/banking with stubbed actions, as soni test does:
//
//	go test -run '^$' -bench BenchmarkSoniTest -benchtime 5x ./convtest
func BenchmarkSoniTest(b *testing.B) {
	loadAndRun(b, benchFile(b, 1000), 1000)
}

// loadAndRun loads and runs the test file at path b.N times, as soni test
// does, and fails unless all its n cases pass each time.
func loadAndRun(b *testing.B, path string, n int) {
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := Load([]string{path}, Options{})
		if s.Diags.HasErrors() {
			b.Fatal(s.Diags)
		}
		r := s.Run(context.Background())
		if r.Passed != n {
			b.Fatalf("%s\n%s", r.Summary(), textOf(b, r))
		}
	}
}

// loopFile writes the test file bench/loop.sh generates: n conversations of
// the book_flight reference flow, four turns each, every reply checked.
func loopFile(t testing.TB, n int) string {
	flow, err := filepath.Abs(filepath.Join("..", "bench", "book_flight.yaml"))
	require.NoError(t, err)
	var b strings.Builder
	fmt.Fprintf(&b, "flows: %s\ntest_cases:\n", filepath.ToSlash(flow))
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `  - test_case: c%d
    steps:
      - user: book a flight
      - bot: Welcome
      - bot: Where from?
      - user: Madrid
      - bot: Where to?
      - user: Lisbon
      - bot: What date?
      - user: "2027-03-05"
      - bot: Found a flight from Madrid to Lisbon on 2027-03-05 for 156
`, i)
	}
	return writeFile(t, t.TempDir(), "loop_test.yaml", b.String())
}

// TestLoopFilePasses keeps BenchmarkSoniTestLoop honest: every case passes.
func TestLoopFilePasses(t *testing.T) {
	_, r := run(t, []string{loopFile(t, 3)}, Options{})
	require.Equal(t, "3 passed, 0 failed", r.Summary(), textOf(t, r))
}

// BenchmarkSoniTestLoop loads and runs the 2,000 conversations (8,000
// turns) of bench/loop.sh, the file soni test runs against the LangGraph.js
// turn loop:
//
//	go test -run '^$' -bench BenchmarkSoniTestLoop -benchtime 10x ./convtest
func BenchmarkSoniTestLoop(b *testing.B) {
	loadAndRun(b, loopFile(b, 2000), 2000)
}

// BenchmarkParseFile reads the 1,000 cases of BenchmarkSoniTest's file
// (YAML, document model, runnable cases), without running them:
//
//	go test -run '^$' -bench BenchmarkParseFile ./convtest
func BenchmarkParseFile(b *testing.B) {
	src, err := os.ReadFile(benchFile(b, 1000))
	require.NoError(b, err)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, ds := ParseFile("bench_test.yaml", src); ds.HasErrors() {
			b.Fatal(ds)
		}
	}
}
