package checkpoints_test

import (
	"testing"

	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/checkpoints/storetest"
	"github.com/stretchr/testify/require"
)

func TestMemoryStoreConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) checkpoints.Journal { return checkpoints.NewMemoryStore() })
}

func TestFileStoreConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) checkpoints.Journal {
		s, err := checkpoints.NewFileStore(t.TempDir(), checkpoints.WithoutSync())
		require.NoError(t, err)
		return s
	})
}
