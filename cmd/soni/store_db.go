package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/checkpoints/postgres"
	"github.com/soni-dev/soni/checkpoints/sqlite"
)

// openDatabaseStore opens a sqlite or postgres store; a read-only command
// opens it without migrating its tables.
func openDatabaseStore(scheme, url, rest string, access storeAccess) (checkpoints.Store, error) {
	noMigrate := access == readOnly
	switch scheme {
	case "sqlite":
		path, err := sqlitePath(url, rest)
		if err != nil {
			return nil, err
		}
		return sqlite.Open(context.Background(), path, sqlite.Options{NoMigrate: noMigrate})
	case "postgres", "postgresql":
		return postgres.Open(context.Background(), url, postgres.Options{NoMigrate: noMigrate})
	}
	return nil, fmt.Errorf("the %s store is not built into this soni yet; use memory:, file:DIR or sqlite:PATH", scheme)
}

func sqlitePath(url, rest string) (string, error) {
	path := strings.TrimPrefix(rest, "//")
	if path == "" {
		return "", fmt.Errorf("store %q names no database file: use sqlite:PATH", url)
	}
	return path, nil
}

// migrateStore brings a database store's tables to this soni's version
// and returns the versions before and after; other stores have no tables.
func migrateStore(ctx context.Context, url string) (from, to int, err error) {
	scheme, rest, _ := strings.Cut(url, ":")
	switch scheme {
	case "sqlite":
		path, err := sqlitePath(url, rest)
		if err != nil {
			return 0, 0, err
		}
		return sqlite.Migrate(ctx, path)
	case "postgres", "postgresql":
		return postgres.Migrate(ctx, url)
	}
	return 0, 0, fmt.Errorf("store %q has no tables to migrate: only sqlite: and postgres:// stores have a schema", redactURL(url))
}
