package rasaimport

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/soni-dev/soni/compiler"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestImportCompilesWhatItWrote: Import compiles the project it wrote,
// and the report (its JSON and IMPORT.md) counts the errors and warnings
// that soni validate finds there, code by code.
func TestImportCompilesWhatItWrote(t *testing.T) {
	badSlot := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(badSlot, "data"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(badSlot, "domain.yml"), []byte("version: \"3.1\"\nslots:\n  card-number:\n    type: text\n    mappings:\n      - type: from_llm\nresponses:\n  utter_done:\n    - text: Done.\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(badSlot, "data", "flows.yml"), []byte("flows:\n  block_card:\n    description: block a card\n    steps:\n      - collect: card-number\n      - action: utter_done\n"), 0o644))
	for name, src := range map[string]string{
		"fixture":       fixture,
		"initial_value": filepath.Join(casesDir, "initial_value", "in"),
		"bad slot":      badSlot,
	} {
		t.Run(name, func(t *testing.T) {
			dst := filepath.Join(t.TempDir(), "out")
			rep, err := Import(src, dst, Options{})
			require.NoError(t, err)
			require.NotNil(t, rep.Check)
			want := compiler.Compile(dst, compiler.Options{})
			errs, warns := want.Diags.Count()
			assert.Equal(t, errs, rep.Check.Errors)
			assert.Equal(t, warns, rep.Check.Warnings)
			codes := map[string]int{}
			for _, d := range want.Diags {
				codes[d.Code]++
			}
			assert.Equal(t, codes, rep.Check.Codes)
			md, err := os.ReadFile(filepath.Join(dst, "IMPORT.md"))
			require.NoError(t, err)
			assert.Contains(t, string(md), "The import compiled the project it wrote: "+rep.Check.Line()+".")
			if name == "bad slot" {
				assert.Equal(t, 1, errs, "the slot name soni refuses is an error")
			}
			assert.Len(t, rep.Check.Problems, errs)
			for _, p := range rep.Check.Problems {
				assert.Contains(t, string(md), "- "+p+"\n")
			}
			var back struct {
				Check Check `json:"check"`
			}
			require.NoError(t, json.Unmarshal(rep.JSON(), &back))
			assert.Equal(t, rep.Check.Errors, back.Check.Errors)
			assert.Equal(t, rep.Check.Warnings, back.Check.Warnings)
		})
	}
}
