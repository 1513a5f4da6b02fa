package compiler

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/soni-dev/soni/ir"
)

// FuzzCompile compiles arbitrary bytes as a flow file. It must never panic
// or hang, every diagnostic must have a position in the file, and a program
// it produces must encode, decode and validate. Seeds: every YAML file under
// testdata and flows/ (plus testdata/fuzz/FuzzCompile, where the fuzzer
// keeps what it finds).
func FuzzCompile(f *testing.F) {
	for _, pattern := range []string{"testdata/codes/*.yaml", "../testdata/*.yaml", "../flows/*/*.yaml"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		for _, name := range files {
			b, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Add([]byte("flows: {a: {steps: [{step: x, type: say, message: '{'}]}}"))
	f.Add([]byte("a: &a [*a]"))
	f.Add([]byte(strings.Repeat("- ", 40_000) + "x\n")) // quadratic in the YAML library before blockDepth
	f.Add([]byte("a: |\n   - x\n     - y\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		r := CompileSource("fuzz.yaml", src, Options{MaxFileSize: 1 << 20})
		for _, d := range r.Diags {
			if d.Pos.File != "fuzz.yaml" || d.Pos.Line < 1 {
				t.Fatalf("diagnostic without a position: %s", d)
			}
			if d.Message == "" || d.Code == "" {
				t.Fatalf("diagnostic without code or message: %#v", d)
			}
		}
		if r.Program == nil {
			if !r.Diags.HasErrors() {
				t.Fatal("no program and no error")
			}
			return
		}
		b, err := ir.Encode(r.Program)
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		if _, err := ir.Decode(b); err != nil {
			t.Fatalf("decode of an encoded program: %v", err)
		}
	})
}
