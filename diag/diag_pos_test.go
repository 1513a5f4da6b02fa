package diag

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPosTextRoundTrip(t *testing.T) {
	tests := []Pos{
		{File: "flows/a.yaml", Line: 3, Col: 7},
		{File: "c:/x/a.yaml", Line: 12, Col: 1},
		{File: "a.yaml", Line: 4},
		{File: "a.yaml"},
		{},
	}
	for _, p := range tests {
		b, err := p.MarshalText()
		require.NoError(t, err)
		var q Pos
		require.NoError(t, q.UnmarshalText(b))
		assert.Equal(t, p, q, string(b))
	}
}
