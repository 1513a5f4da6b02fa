package main

import (
	"context"
	"fmt"
	"testing"

	"github.com/soni-dev/soni/checkpoints/storetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMemoryStoreURLBoundsSessions: memory:?max_sessions=N gives the store
// its bound (issue 20's extras): of five sessions it keeps the last N, and
// memory: alone keeps them all.
func TestMemoryStoreURLBoundsSessions(t *testing.T) {
	tests := []struct {
		url  string
		kept int
	}{
		{"memory:", 5},
		{"memory:?max_sessions=2", 2},
		{"memory:?max_sessions=1&max_sessions=3", 3},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			s, err := openStore(tt.url, "", readWrite)
			require.NoError(t, err)
			defer s.Close()
			for i := range 5 {
				require.NoError(t, storetest.Turn(ctx, s, fmt.Sprint("s", i), 0, "", ""))
			}
			infos, err := s.List(ctx, "", 0)
			require.NoError(t, err)
			assert.Len(t, infos, tt.kept)
			assert.Equal(t, "s4", infos[len(infos)-1].ID, "the last session saved stays")
		})
	}
}
