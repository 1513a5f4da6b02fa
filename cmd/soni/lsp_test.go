package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// frame wraps a JSON-RPC message in the protocol's header.
func frame(msg string) string {
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(msg), msg)
}

// soni lsp answers on stdout and ends when the client sends exit.
func TestLSPCommandSpeaksOnStdio(t *testing.T) {
	in := frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`) +
		frame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`) +
		frame(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`) +
		frame(`{"jsonrpc":"2.0","method":"exit"}`)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"soni", "lsp"}, strings.NewReader(in), &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	out := stdout.String()
	assert.Contains(t, out, `"serverInfo":{"name":"soni"`)
	assert.Contains(t, out, `"definitionProvider":true`)
	assert.Contains(t, out, `"id":2,"result":null`)
	assert.Empty(t, stderr.String())
}

func TestLSPCommandTakesNoArguments(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"soni", "lsp", "flows"}, strings.NewReader(""), &stdout, &stderr)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr.String(), "lsp: takes no arguments")
}
