package postgres

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/checkpoints/storetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testURL returns the database of the tests: SONI_TEST_POSTGRES, which
// .ci/run sets to a cluster it starts. Without it the tests skip on a
// laptop, and fail under CI.
func testURL(t *testing.T) string {
	url := os.Getenv("SONI_TEST_POSTGRES")
	if url == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("SONI_TEST_POSTGRES is not set under CI: .ci/run starts a PostgreSQL cluster and sets it (scripts/postgres.sh)")
		}
		t.Skip("SONI_TEST_POSTGRES is not set: start a cluster with scripts/postgres.sh to run the PostgreSQL tests")
	}
	return url
}

var schemas atomic.Int64

// openSchema opens a store in a fresh schema of its own.
func openSchema(t *testing.T) *Store {
	t.Helper()
	ctx := context.Background()
	url := testURL(t)
	admin, err := pgxpool.New(ctx, url)
	require.NoError(t, err)
	defer admin.Close()
	name := fmt.Sprintf("t%d_%d", time.Now().UnixNano(), schemas.Add(1))
	_, err = admin.Exec(ctx, "CREATE SCHEMA "+name)
	require.NoError(t, err)
	t.Cleanup(func() {
		a, err := pgxpool.New(context.Background(), url)
		if err == nil {
			_, _ = a.Exec(context.Background(), "DROP SCHEMA "+name+" CASCADE")
			a.Close()
		}
	})
	cfg, err := pgxpool.ParseConfig(url)
	require.NoError(t, err)
	cfg.ConnConfig.RuntimeParams["search_path"] = name
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	require.NoError(t, err)
	s, err := New(ctx, pool)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close(); pool.Close() })
	return s
}

func TestConformance(t *testing.T) {
	testURL(t)
	storetest.Run(t, func(t *testing.T) checkpoints.Journal { return openSchema(t) })
}

// TestMigrationIsIdempotent: opening the same schema again finds the
// tables and the version, and refuses a newer schema.
func TestMigrationIsIdempotent(t *testing.T) {
	s := openSchema(t)
	ctx := context.Background()
	require.NoError(t, s.migrate(ctx))
	_, err := s.pool.Exec(ctx, `UPDATE soni_schema SET version = 99`)
	require.NoError(t, err)
	err = s.migrate(ctx)
	require.ErrorContains(t, err, "written by a newer soni (schema 99")
}

// TestPingNeedsTheTable: a database without soni's table (the wrong
// database, say) does not answer /readyz as ready.
func TestPingNeedsTheTable(t *testing.T) {
	s := openSchema(t)
	ctx := context.Background()
	require.NoError(t, s.Ping(ctx))
	_, err := s.pool.Exec(ctx, `DROP TABLE soni_checkpoints CASCADE`)
	require.NoError(t, err)
	err = s.Ping(ctx)
	require.ErrorContains(t, err, "soni_checkpoints")
	assert.NotContains(t, err.Error(), "host=", "no connection string in the message")
}
