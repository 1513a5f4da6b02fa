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
