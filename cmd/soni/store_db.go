package main

import (
	"fmt"

	"github.com/soni-dev/soni/checkpoints"
)

// openDatabaseStore opens a sqlite or postgres store.
func openDatabaseStore(scheme, url, rest string) (checkpoints.Journal, error) {
	return nil, fmt.Errorf("the %s store is not built into this soni yet; use memory: or file:DIR", scheme)
}
