package convtest

import (
	"os"
	"path/filepath"
	"testing"

	docs "github.com/soni-dev/soni/syntax"
)

// FuzzParseFile feeds arbitrary bytes to the parser: it must never panic,
// and a file it accepts must have every case named.
func FuzzParseFile(f *testing.F) {
	for _, dir := range []string{"assert", "update"} {
		files, _ := filepath.Glob(filepath.Join("testdata", dir, "*.yaml"))
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte("test_cases: [{test_case: a, steps: [{user: x, commands: [{start_flow: {flow: f, slots: {a: 1}}}, affirm]}]}]"))
	f.Add([]byte("test_cases:\n  - test_case: a\n    steps:\n      - &x {user: hi}\n      - *x\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		file, ds := ParseFile("fuzz.yaml", src)
		if file == nil || ds.HasErrors() {
			return
		}
		for _, c := range file.Cases {
			if c.Name == "" {
				t.Fatalf("a case without a name was accepted")
			}
			for _, turn := range c.Turns {
				editTurn(c, turn, []string{"a", "b: c", "d\ne"})
			}
		}
		_, _ = docs.EncodeTests(file.Doc)
	})
}
