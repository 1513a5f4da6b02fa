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
	url, stop := startInspect(t)
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
	code, errOut := stop()
	assert.Equal(t, exitOK, code, errOut)
}

// startInspect runs soni inspect on flows/banking with a store of its own
// and the extra arguments, and returns the page's address and a function
// that stops it and returns its exit status and stderr.
func startInspect(t *testing.T, args ...string) (url string, stop func() (int, string)) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out, w := io.Pipe()
	done := make(chan int, 1)
	var errOut strings.Builder
	store := "file:" + filepath.Join(t.TempDir(), "cps")
	argv := append(append([]string{"soni", "inspect"}, args...), "--store", store, filepath.Join("..", "..", "flows", "banking"))
	go func() {
		done <- run(ctx, argv, strings.NewReader(""), w, &errOut)
		w.Close()
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cancel()
		<-done
		t.Fatalf("soni inspect printed no address: %v; stderr: %s", err, errOut.String())
	}
	require.Regexp(t, `^inspector: http://127\.0\.0\.1:\d+/inspect/\n$`, line)
	go func() { _, _ = io.Copy(io.Discard, out) }()
	return strings.TrimSpace(strings.TrimPrefix(line, "inspector: ")), func() (int, string) {
		cancel()
		code := <-done
		return code, errOut.String()
	}
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
