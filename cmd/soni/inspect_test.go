package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestInspectCommand: soni inspect serves the project and the page on a
// free loopback port, prints the page's address, and stops when asked.
func TestInspectCommand(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	out, w := io.Pipe()
	done := make(chan int, 1)
	var errOut strings.Builder
	store := "file:" + filepath.Join(t.TempDir(), "cps")
	go func() {
		done <- run(ctx, []string{"soni", "inspect", "--store", store, filepath.Join("..", "..", "flows", "banking")}, strings.NewReader(""), w, &errOut)
		w.Close()
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err, errOut.String())
	require.Regexp(t, `^inspector: http://127\.0\.0\.1:\d+/inspect/\n$`, line)
	url := strings.TrimSpace(strings.TrimPrefix(line, "inspector: "))
	for _, path := range []string{"", "app.js", "style.css"} {
		resp, err := http.Get(url + path)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode, path)
	}
	resp, err := http.Get(strings.TrimSuffix(url, "/inspect/") + "/v1/program")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	cancel()
	assert.Equal(t, exitOK, <-done, errOut.String())
}

func TestBrowserCommand(t *testing.T) {
	const url = "http://127.0.0.1:1/inspect/"
	for _, tc := range []struct {
		browser string
		want    []string
	}{
		{"firefox", []string{"firefox", url}},
		{"chromium --new-window", []string{"chromium", "--new-window", url}},
		{"w3m %s -dump", []string{"w3m", url, "-dump"}},
	} {
		t.Setenv("BROWSER", tc.browser)
		assert.Equal(t, tc.want, browserCommand(url), tc.browser)
	}
	t.Setenv("BROWSER", "")
	assert.Equal(t, url, browserCommand(url)[len(browserCommand(url))-1], "the system's opener gets the address")
}
