package checkpoints_test

import (
	"testing"

	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/checkpoints/storetest"
	"github.com/stretchr/testify/require"
)

func TestMemoryStoreConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T, maxWaiting int) checkpoints.Store {
		return checkpoints.NewMemoryStore(checkpoints.WithMaxWaiting(maxWaiting))
	})
}

func TestFileStoreConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T, maxWaiting int) checkpoints.Store {
		s, err := checkpoints.NewFileStore(t.TempDir(), checkpoints.WithoutSync(), checkpoints.WithMaxWaiting(maxWaiting))
		require.NoError(t, err)
		return s
	})
}
