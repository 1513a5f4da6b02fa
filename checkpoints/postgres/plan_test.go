package postgres

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/soni-dev/soni/checkpoints/storetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLookupUsesTheKeyIndex: a message id is found through the index of
// message ids, not by reading the session's records in revision order
// until one has it (which, for a new message id, is every record: issue
// 20, defect 6, the cost that grew with the session's length), both with
// the statement's values and with the generic plan a prepared statement
// comes to.
func TestLookupUsesTheKeyIndex(t *testing.T) {
	s := openSchema(t, Options{})
	ctx := context.Background()
	const turns = 2000
	for rev := range uint64(turns) {
		require.NoError(t, storetest.Turn(ctx, s, "long", rev, fmt.Sprint("m", rev+1), ""))
	}
	for i := range 20 {
		require.NoError(t, storetest.Turn(ctx, s, fmt.Sprint("short", i), 0, "k", ""))
	}
	_, err := s.pool.Exec(ctx, `ANALYZE soni_events`)
	require.NoError(t, err)
	conn, err := s.pool.Acquire(ctx)
	require.NoError(t, err)
	defer conn.Release()
	for _, mode := range []string{"force_custom_plan", "force_generic_plan"} {
		t.Run(mode, func(t *testing.T) {
			_, err := conn.Exec(ctx, "SET plan_cache_mode = "+mode)
			require.NoError(t, err)
			_, err = conn.Exec(ctx, "PREPARE lookup_"+mode+" AS "+queries.Lookup)
			require.NoError(t, err)
			rows, err := conn.Query(ctx, "EXPLAIN EXECUTE lookup_"+mode+"('long', 'new-message')")
			require.NoError(t, err)
			var plan []string
			for rows.Next() {
				var line string
				require.NoError(t, rows.Scan(&line))
				plan = append(plan, line)
			}
			require.NoError(t, rows.Err())
			assert.Contains(t, strings.Join(plan, "\n"), "soni_events_key", "plan:\n%s", strings.Join(plan, "\n"))
		})
	}
}
