package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/checkpoints/storetest"
	"github.com/stretchr/testify/require"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) checkpoints.Journal {
		s, err := Open(context.Background(), filepath.Join(t.TempDir(), "soni.db"))
		require.NoError(t, err)
		t.Cleanup(func() { _ = s.Close() })
		return s
	})
}

// TestTwoHandlesShareOneFile: two stores on one file (as two processes
// would be) see each other's saves and exclude each other's turns.
func TestTwoHandlesShareOneFile(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "shared.db")
	a, err := Open(ctx, path)
	require.NoError(t, err)
	defer a.Close()
	b, err := Open(ctx, path)
	require.NoError(t, err)
	defer b.Close()
	require.NoError(t, a.Save(ctx, "s", 0, storetest.Doc(1, "a")))
	require.ErrorIs(t, b.Save(ctx, "s", 0, storetest.Doc(1, "b")), checkpoints.ErrConflict)
	unlock, err := a.Lock(ctx, "s")
	require.NoError(t, err)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err = b.Lock(cctx, "s")
	require.ErrorIs(t, err, context.Canceled, "b waits for a's turn")
	unlock()
	unlockB, err := b.Lock(ctx, "s")
	require.NoError(t, err)
	unlockB()
}

// TestPingFailsWhenClosed: /readyz reports a store that cannot answer.
func TestPingFailsWhenClosed(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "soni.db"))
	require.NoError(t, err)
	require.NoError(t, s.Ping(ctx))
	require.NoError(t, s.Close())
	require.Error(t, s.Ping(ctx))
}
