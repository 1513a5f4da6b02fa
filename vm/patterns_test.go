package vm

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/internal/irtest"
	"github.com/soni-dev/soni/ir"
)

// TestNewNeedsEveryPattern checks that New refuses a program without a
// flow for each pattern (the compiler adds soni's defaults to every
// program), naming the pattern, and runs one with them.
func TestNewNeedsEveryPattern(t *testing.T) {
	bare := program(nil, nil, flow("f", nil, say("hi", "Hello")))
	_, err := New(bare, Options{})
	require.ErrorContains(t, err, `program has no flow "pattern_cancel_flow"`)
	assert.ErrorContains(t, err, "compile the project again")

	m, err := New(irtest.WithDefaultPatterns(bare), Options{})
	require.NoError(t, err)
	assert.True(t, m.Program().Flow(ir.PatternCancelFlow).Builtin)
}
