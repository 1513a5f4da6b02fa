//go:build linux

package soni_test

import (
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEmbedderIsNeverASupervisor checks that a program embedding soni
// (this test binary links every package of the engine, and never calls
// actions.EnableSupervisor) runs its own main when started with the
// argv[0] and environment of an action supervisor: no init of soni's
// exits it. Before, an init of internal/supervise took it for a
// supervisor and exited.
func TestEmbedderIsNeverASupervisor(t *testing.T) {
	if os.Getenv("SONI_TEST_EMBEDDER") == "1" {
		fmt.Println("the embedder's own code ran")
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestEmbedderIsNeverASupervisor$", "-test.count=1")
	cmd.Args[0] = "soni-action-supervisor"
	cmd.Env = append(os.Environ(), "SONI_ACTION_SUPERVISOR=1", "SONI_TEST_EMBEDDER=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "the embedder's own code ran")
}
