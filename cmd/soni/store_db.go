package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/checkpoints/postgres"
	"github.com/soni-dev/soni/checkpoints/sqlite"
)

// openDatabaseStore opens a sqlite or postgres store.
func openDatabaseStore(scheme, url, rest string) (checkpoints.Journal, error) {
	switch scheme {
	case "sqlite":
		path := strings.TrimPrefix(rest, "//")
		if path == "" {
			return nil, fmt.Errorf("store %q names no database file: use sqlite:PATH", url)
		}
		return sqlite.Open(context.Background(), path)
	case "postgres", "postgresql":
		return postgres.Open(context.Background(), url)
	}
	return nil, fmt.Errorf("the %s store is not built into this soni yet; use memory:, file:DIR or sqlite:PATH", scheme)
}
