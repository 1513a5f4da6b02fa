package sqlcore

import (
	"context"
	"errors"
	"fmt"

	"github.com/soni-dev/soni/checkpoints"
)

// Schema is a store's tables and how to migrate them, in its dialect.
type Schema struct {
	// Steps[i] are the statements that bring the tables from version i to
	// version i+1; the current version is len(Steps).
	Steps [][]string
	// Exists answers one row, one boolean-ish integer: whether the
	// version table soni_schema exists.
	Exists string
	// Lock, run first inside the migration's transaction, makes migrators
	// of other processes wait for it ("" when the transaction itself is
	// exclusive).
	Lock string
	// Read answers the version; Insert (version) and Update (version)
	// write it.
	Read, Insert, Update string
}

// Version returns the version of the tables: 0 when there are none.
func Version(ctx context.Context, db interface {
	QueryRow(ctx context.Context, query string, args ...any) Row
}, sc Schema, noRows error) (int, error) {
	var exists int
	if err := db.QueryRow(ctx, sc.Exists).Scan(&exists); err != nil {
		return 0, err
	}
	if exists == 0 {
		return 0, nil
	}
	var v int
	err := db.QueryRow(ctx, sc.Read).Scan(&v)
	if errors.Is(err, noRows) {
		return 0, nil
	}
	return v, err
}

// Prepare checks the version of the tables and, when they are behind and
// migrate is true, migrates them. It runs no DDL when the tables are
// current, and none at all without migrate: a behind schema is then an
// error matching checkpoints.ErrSchemaOutdated. It returns the version
// found and the version now.
func Prepare(ctx context.Context, db Conn, sc Schema, noRows error, migrate bool) (from, to int, err error) {
	want := len(sc.Steps)
	v, err := Version(ctx, db, sc, noRows)
	if err != nil {
		return 0, 0, fmt.Errorf("read the schema version: %w", err)
	}
	switch {
	case v == want:
		return v, v, nil
	case v > want:
		return v, v, fmt.Errorf("the database was written by a newer soni (schema version %d, this soni knows %d): upgrade soni", v, want)
	case !migrate:
		return v, v, fmt.Errorf("%w: its tables are at schema version %d and this soni needs version %d", checkpoints.ErrSchemaOutdated, v, want)
	}
	txn, err := db.Begin(ctx)
	if err != nil {
		return v, v, fmt.Errorf("migrate: %w", err)
	}
	defer func() { _ = txn.Rollback(context.WithoutCancel(ctx)) }()
	if sc.Lock != "" {
		if _, err := txn.Exec(ctx, sc.Lock); err != nil {
			return v, v, fmt.Errorf("migrate: take the migration lock: %w", err)
		}
	}
	// Another process may have migrated while this one waited.
	if v, err = Version(ctx, txn, sc, noRows); err != nil {
		return v, v, fmt.Errorf("migrate: read the schema version: %w", err)
	}
	from = v
	if v >= want {
		return from, v, nil
	}
	for ; v < want; v++ {
		for _, stmt := range sc.Steps[v] {
			if _, err := txn.Exec(ctx, stmt); err != nil {
				return from, from, fmt.Errorf("migrate to schema version %d: %w", v+1, err)
			}
		}
	}
	stmt := sc.Update
	if from == 0 {
		stmt = sc.Insert
	}
	if _, err := txn.Exec(ctx, stmt, want); err != nil {
		return from, from, fmt.Errorf("migrate: record the schema version: %w", err)
	}
	if err := txn.Commit(ctx); err != nil {
		return from, from, fmt.Errorf("migrate: %w", err)
	}
	return from, want, nil
}
