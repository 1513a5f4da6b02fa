//go:build !linux

package lineedit

import (
	"errors"
	"os"
)

// rawSupported reports that this platform cannot switch a terminal to raw
// mode, so New fails with ErrUnsupported and callers read plain lines.
const rawSupported = false

// isTerminal approximates a terminal check with the character-device bit,
// which is the best the standard library offers here.
func isTerminal(f *os.File) bool {
	if f == nil {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// makeRaw always fails on this platform.
func makeRaw(*os.File) (func() error, error) {
	return nil, errors.ErrUnsupported
}
