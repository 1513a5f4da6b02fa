package main

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/soni-dev/soni/checkpoints"
	"github.com/urfave/cli/v2"
)

// storeUsage documents --store.
const storeUsage = "checkpoint store `URL`: file:DIR, memory: (memory:?max_sessions=N to keep at most N), sqlite:PATH or postgres://... (default file: in the default checkpoint directory)"

// storeAccess says whether a command changes a store's tables: a command
// that only reads opens a database store without ever migrating it.
type storeAccess int

const (
	readWrite storeAccess = iota
	readOnly
)

// openStore opens the store a --store URL names. defaultDir is the file
// store's directory for "" and "file:".
func openStore(u, defaultDir string, access storeAccess) (checkpoints.Store, error) {
	scheme, rest, _ := strings.Cut(u, ":")
	switch {
	case u == "":
		return checkpoints.NewFileStore(defaultDir)
	case scheme == "file":
		dir := strings.TrimPrefix(rest, "//")
		if dir == "" {
			dir = defaultDir
		}
		return checkpoints.NewFileStore(dir)
	case scheme == "memory":
		return openMemoryStore(rest)
	case scheme == "sqlite", scheme == "postgres", scheme == "postgresql":
		return openDatabaseStore(scheme, u, rest, access)
	}
	return nil, fmt.Errorf("unknown store %q: use file:DIR, memory:, sqlite:PATH or postgres://USER@HOST/DB", redactURL(u))
}

// openMemoryStore opens memory: or memory:?max_sessions=N.
func openMemoryStore(rest string) (checkpoints.Store, error) {
	if rest == "" {
		return checkpoints.NewMemoryStore(), nil
	}
	q, ok := strings.CutPrefix(rest, "?")
	vals, err := url.ParseQuery(q)
	if !ok || err != nil {
		return nil, fmt.Errorf("store %q: write memory: or memory:?max_sessions=N", "memory:"+rest)
	}
	var opts []checkpoints.Option
	for k, v := range vals {
		switch k {
		case "max_sessions":
			n, err := strconv.Atoi(v[len(v)-1])
			if err != nil || n < 1 {
				return nil, fmt.Errorf("store %q: max_sessions=%q is not a whole number of at least 1", "memory:"+rest, v[len(v)-1])
			}
			opts = append(opts, checkpoints.WithMaxSessions(n))
		default:
			return nil, fmt.Errorf("store %q: unknown option %q: the memory store takes max_sessions=N", "memory:"+rest, k)
		}
	}
	return checkpoints.NewMemoryStore(opts...), nil
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

// storeError is the CLI error for a store that cannot be opened, with the
// advice the library leaves to the command line.
func storeError(cmd, storeURL string, err error) error {
	msg := fmt.Sprintf("%s: %s", cmd, err)
	if errors.Is(err, checkpoints.ErrSchemaOutdated) {
		msg += fmt.Sprintf("; migrate it first with: soni db migrate --store %s", redactURL(storeURL))
	}
	return cli.Exit(msg, exitUsage)
}
