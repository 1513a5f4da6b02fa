package soni_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIsProgramFile: a compiled program is recognised by its name (.json)
// or by its first field, "format": "soni.program", whatever its name;
// YAML flows, flow-style YAML and directories are not programs.
func TestIsProgramFile(t *testing.T) {
	prog, err := ir.Encode(compileCounter(t))
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
		{"flows.yaml", counterYAML, false},
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
			assert.Equal(t, tt.want, soni.IsProgramFile(path))
		})
	}
}

// TestLoadProgramAnyName: soni.Load runs a program written under any name.
func TestLoadProgramAnyName(t *testing.T) {
	b, err := ir.Encode(compileCounter(t))
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "counter.prog")
	require.NoError(t, os.WriteFile(path, b, 0o644))
	e, err := soni.Load(path, soni.Options{Compiler: compiler.Options{}})
	require.NoError(t, err)
	rep, err := e.Handle(context.Background(), "s", vm.Input{Commands: []vm.Command{{Kind: vm.CmdStartFlow, Flow: "bump"}}})
	require.NoError(t, err)
	assert.Equal(t, int64(1), rep.State.Slots["turns"])
}
