package sqlite

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/checkpoints/internal/sqlcore"
	"github.com/soni-dev/soni/checkpoints/storetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T, maxWaiting int) checkpoints.Store {
		s, err := Open(context.Background(), filepath.Join(t.TempDir(), "soni.db"), Options{MaxWaiting: maxWaiting})
		require.NoError(t, err)
		t.Cleanup(func() { _ = s.Close() })
		return s
	})
}

// TestTwoHandlesShareOneFile: two stores on one file (as two processes
// would be) see each other's commits and exclude each other's turns.
func TestTwoHandlesShareOneFile(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "shared.db")
	a, err := Open(ctx, path, Options{})
	require.NoError(t, err)
	defer a.Close()
	b, err := Open(ctx, path, Options{})
	require.NoError(t, err)
	defer b.Close()
	require.NoError(t, storetest.Turn(ctx, a, "s", 0, "", "a"))
	held, err := a.Begin(ctx, "s")
	require.NoError(t, err)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err = b.Begin(cctx, "s")
	require.ErrorIs(t, err, context.Canceled, "b waits for a's turn")
	held.Close()
	require.NoError(t, storetest.Turn(ctx, b, "s", 1, "", "b"), "b sees a's commit")
}

// TestPingFailsWhenClosed: /readyz reports a store that cannot answer.
func TestPingFailsWhenClosed(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "soni.db"), Options{})
	require.NoError(t, err)
	require.NoError(t, s.Ping(ctx))
	require.NoError(t, s.Close())
	require.Error(t, s.Ping(ctx))
}

// TestLockFilesGoWithTheirSessions: a session's lock file beside the
// database is removed when the session is deleted or pruned, and Prune
// sweeps the ones older versions left (issue 20, defect 10: they were
// never removed).
func TestLockFilesGoWithTheirSessions(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "soni.db")
	s, err := Open(ctx, path, Options{})
	require.NoError(t, err)
	defer s.Close()
	locks := path + "-locks"
	for _, id := range []string{"a", "b", "c"} {
		require.NoError(t, storetest.Turn(ctx, s, id, 0, "", id))
		assert.FileExists(t, filepath.Join(locks, id+".lock"))
	}
	require.NoError(t, s.Delete(ctx, "a"))
	assert.NoFileExists(t, filepath.Join(locks, "a.lock"), "Delete removes the lock file")
	// Left by a version before issue 20 (its turn lock) and by a delete
	// killed before its last step.
	require.NoError(t, os.WriteFile(filepath.Join(locks, "old.turn"), nil, 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(locks, "gone.lock"), nil, 0o600))
	n, err := s.Prune(ctx, time.Now().Add(time.Hour))
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	entries, err := os.ReadDir(locks)
	require.NoError(t, err)
	assert.Empty(t, entries, "prune leaves no lock file behind")
}

// TestReadOnlyOpenRunsNoDDL: opening with NoMigrate a file whose tables
// are current works and changes nothing; one with no tables is refused
// with ErrSchemaOutdated, and Migrate creates them once.
func TestReadOnlyOpenRunsNoDDL(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "soni.db")
	_, err := Open(ctx, path, Options{NoMigrate: true})
	require.ErrorIs(t, err, checkpoints.ErrSchemaOutdated)
	from, to, err := Migrate(ctx, path)
	require.NoError(t, err)
	assert.Equal(t, []int{0, 2}, []int{from, to})
	from, to, err = Migrate(ctx, path)
	require.NoError(t, err)
	assert.Equal(t, []int{2, 2}, []int{from, to}, "already current: nothing to do")
	s, err := Open(ctx, path, Options{NoMigrate: true})
	require.NoError(t, err)
	require.NoError(t, s.Close())
}

// TestMigrateKeepsSessions: a database at schema version 1 (before the
// program versions) migrates to version 2 with its sessions intact, and
// then keeps program versions.
func TestMigrateKeepsSessions(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "soni.db")
	v1 := schema
	v1.Steps = schema.Steps[:1]
	db, err := sql.Open("sqlite", "file:"+path)
	require.NoError(t, err)
	from, to, err := sqlcore.Prepare(ctx, &dbConn{db: db}, v1, sql.ErrNoRows, true)
	require.NoError(t, err)
	require.Equal(t, []int{0, 1}, []int{from, to})
	_, err = db.Exec(`INSERT INTO soni_checkpoints (session, revision, data, updated_at) VALUES ('s', 1, '{}', 0)`)
	require.NoError(t, err)
	require.NoError(t, db.Close())

	_, err = Open(ctx, path, Options{NoMigrate: true})
	require.ErrorIs(t, err, checkpoints.ErrSchemaOutdated)
	assert.Contains(t, err.Error(), "schema version 1 and this soni needs version 2")
	s, err := Open(ctx, path, Options{})
	require.NoError(t, err)
	defer s.Close()
	b, rev, err := s.Load(ctx, "s")
	require.NoError(t, err)
	assert.Equal(t, "{}", string(b))
	assert.Equal(t, uint64(1), rev)
	_, err = s.SaveProgram(ctx, "sha256:ab", []byte("{}"))
	require.NoError(t, err)
}

// TestLookupUsesTheKeyIndex: a message id is found through the index of
// message ids, not by reading every record of the session (issue 20,
// defect 6: without statistics SQLite chose the primary key, for its
// order, and a turn at 10,000 turns took 5 ms instead of 0.3).
func TestLookupUsesTheKeyIndex(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "soni.db"), Options{})
	require.NoError(t, err)
	defer s.Close()
	rows, err := s.db.QueryContext(ctx, "EXPLAIN QUERY PLAN "+queries.Lookup, "s", "k")
	require.NoError(t, err)
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		require.NoError(t, rows.Scan(&id, &parent, &unused, &detail))
		plan = append(plan, detail)
	}
	require.NoError(t, rows.Err())
	require.NotEmpty(t, plan)
	assert.Equal(t, "SEARCH soni_events USING INDEX soni_events_key (session=? AND msg_key=?)", plan[0], "then it sorts the one record or few that have the id")
}
