//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestInspectOpen: --open starts $BROWSER on the page's address; a browser
// that cannot start is a note on stderr, not a failure.
func TestInspectOpen(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "opened")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	script := filepath.Join(dir, "browser")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\necho \"$1\" > "+fifo+"\n"), 0o755))

	for _, tc := range []struct {
		name, browser string
		opened        bool
		note          string
	}{
		{"opens", script, true, ""},
		{"no browser", filepath.Join(dir, "no-such-browser"), false, "soni inspect: cannot open a browser (" + filepath.Join(dir, "no-such-browser") + ": "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("BROWSER", tc.browser)
			url, stop := startInspect(t, "--open")
			if tc.opened {
				// Blocks until the browser writes the address it was given.
				got, err := os.ReadFile(fifo)
				require.NoError(t, err)
				assert.Equal(t, url+"\n", string(got))
			}
			code, errOut := stop()
			assert.Equal(t, exitOK, code)
			if tc.note != "" {
				assert.Contains(t, errOut, tc.note)
				assert.Contains(t, errOut, "open "+url+" yourself, or set BROWSER")
			}
		})
	}
}
