package main

import (
	"fmt"
	"strings"

	"github.com/soni-dev/soni/checkpoints"
	"github.com/urfave/cli/v2"
)

// storeUsage documents --store.
const storeUsage = "checkpoint store `URL`: file:DIR, memory:, sqlite:PATH or postgres://... (default file: in the default checkpoint directory)"

// openStore opens the store a --store URL names. defaultDir is the file
// store's directory for "" and "file:".
func openStore(url, defaultDir string) (checkpoints.Journal, error) {
	scheme, rest, _ := strings.Cut(url, ":")
	switch {
	case url == "":
		return checkpoints.NewFileStore(defaultDir)
	case scheme == "file":
		dir := strings.TrimPrefix(rest, "//")
		if dir == "" {
			dir = defaultDir
		}
		return checkpoints.NewFileStore(dir)
	case scheme == "memory" && rest == "":
		return checkpoints.NewMemoryStore(), nil
	case scheme == "sqlite", scheme == "postgres", scheme == "postgresql":
		return openDatabaseStore(scheme, url, rest)
	}
	return nil, fmt.Errorf("unknown store %q: use file:DIR, memory:, sqlite:PATH or postgres://USER@HOST/DB", redactURL(url))
}

// redactURL hides a password in a store URL, for messages.
func redactURL(u string) string {
	scheme, rest, ok := strings.Cut(u, "://")
	if !ok {
		return u
	}
	at := strings.LastIndex(rest, "@")
	if at < 0 {
		return u
	}
	user, _, hasPass := strings.Cut(rest[:at], ":")
	if !hasPass {
		return u
	}
	return scheme + "://" + user + ":xxxxx" + rest[at:]
}

// storeError is the CLI error for a store that cannot be opened.
func storeError(cmd string, err error) error {
	return cli.Exit(fmt.Sprintf("%s: %s", cmd, err), exitUsage)
}
