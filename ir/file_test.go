package ir_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/ir"
)

const flowsYAML = "flows:\n  hello:\n    steps:\n      - {step: hi, type: say, message: Hello}\n"

// TestIsProgramFile: a compiled program is recognised by its name (.json)
// or by its first field, "format": "soni.program", whatever its name;
// YAML flows, flow-style YAML and directories are not programs.
func TestIsProgramFile(t *testing.T) {
	r := compiler.CompileSource("flows.yaml", []byte(flowsYAML), compiler.Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	prog, err := ir.Encode(r.Program)
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "flows.json"), 0o755))
	tests := []struct {
		name    string
		content string // "" with dir: no file is written
		want    bool
	}{
		{"prog.json", string(prog), true},
		{"prog.out", string(prog), true},
		{"program", string(prog), true},
		{"spaced.bin", "\n  {\n\t\"format\" : \"soni.program\", \"ir_version\": 1}", true},
		{"any.json", "{}", true},
		{"missing.json", "", true},
		{"missing.yaml", "", false},
		{"flows.yaml", flowsYAML, false},
		{"flowstyle.yaml", `{"version": "1.0", "flows": {}}`, false},
		{"other.txt", `{"format": "soni.checkpoint/v1"}`, false},
		{"late.txt", `{"ir_version": 1, "format": "soni.program"}`, false},
		{"empty", "\n", false},
		{"flows.json", "", false}, // a directory
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.name)
			if tt.content != "" {
				require.NoError(t, os.WriteFile(path, []byte(tt.content), 0o644))
			}
			assert.Equal(t, tt.want, ir.IsProgramFile(path))
		})
	}
}

// TestReadFile: a compiled program reads back as the program; a damaged
// one, or a file over no program, is an error that names the path.
func TestReadFile(t *testing.T) {
	r := compiler.CompileSource("flows.yaml", []byte(flowsYAML), compiler.Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	b, err := ir.Encode(r.Program)
	require.NoError(t, err)
	dir := t.TempDir()
	good := filepath.Join(dir, "prog.json")
	require.NoError(t, os.WriteFile(good, b, 0o644))
	p, err := ir.ReadFile(good)
	require.NoError(t, err)
	assert.NotNil(t, p.Flow("hello"))

	bad := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"format": "soni.program", "ir_version": 1, "hash": "x", "program": {}}`), 0o644))
	_, err = ir.ReadFile(bad)
	require.ErrorContains(t, err, bad+": ")
	_, err = ir.ReadFile(filepath.Join(dir, "missing.json"))
	require.Error(t, err)
	_, err = ir.ReadFile(dir)
	require.Error(t, err, "a directory is no program")
}
