package understand

import (
	"testing"

	"github.com/soni-dev/soni/compiler"
)

// BenchmarkFirstRules is what a process pays before its first
// understanding of the banking example: the WordNet data's parse and
// the rules' precomputation, which scans the synonym groups for the
// project's words (docs/performance.md, "Start-up").
func BenchmarkFirstRules(b *testing.B) {
	res := compiler.Compile("../flows/banking", compiler.Options{})
	if res.Program == nil {
		b.Fatal(res.Diags)
	}
	for b.Loop() {
		parseThesaurus(wordnetEN)
		New(res.Program)
	}
}
