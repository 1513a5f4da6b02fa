package lsp

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/stretchr/testify/require"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/soni-dev/soni/compiler"
)

// client is a test's end of a JSON-RPC connection to a Server over pipes:
// every request and notification goes through the protocol's framing.
type client struct {
	t    testing.TB
	conn *jsonrpc2.Conn
	done chan error

	mu    sync.Mutex
	diags map[string]chan []wireDiag
}

// wireDiag is a diagnostic as the client reads it. (glsp's
// IntegerOrString cannot be decoded: its UnmarshalJSON has a value
// receiver, so the code would be lost.)
type wireDiag struct {
	Range    protocol.Range `json:"range"`
	Severity int            `json:"severity"`
	Code     string         `json:"code"`
	Source   string         `json:"source"`
	Message  string         `json:"message"`
	Data     map[string]any `json:"data"`
}

// pipe joins a reader and a writer into one stream.
type pipe struct {
	io.ReadCloser
	io.WriteCloser
}

func (p pipe) Close() error {
	p.ReadCloser.Close()
	return p.WriteCloser.Close()
}

// startServer starts a server on pipes, initializes it with root as the
// workspace folder, and returns the client end.
func startServer(t testing.TB, root string) *client {
	t.Helper()
	serverIn, clientOut := io.Pipe()
	clientIn, serverOut := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	c := &client{t: t, done: make(chan error, 1), diags: map[string]chan []wireDiag{}}
	srv := New(compiler.Options{}, "test")
	go func() { c.done <- srv.Serve(ctx, pipe{serverIn, serverOut}) }()
	c.conn = jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(pipe{clientIn, clientOut}, jsonrpc2.VSCodeObjectCodec{}), jsonrpc2.HandlerWithError(c.handle))
	t.Cleanup(func() {
		_ = c.conn.Close()
		cancel()
		<-c.done
	})
	var res protocol.InitializeResult
	rootURI := pathToURI(root)
	c.call(protocol.MethodInitialize, protocol.InitializeParams{RootURI: &rootURI, WorkspaceFolders: []protocol.WorkspaceFolder{{URI: rootURI, Name: "test"}}}, &res)
	c.notify(protocol.MethodInitialized, protocol.InitializedParams{})
	return c
}

func (c *client) handle(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	if req.Method == protocol.ServerTextDocumentPublishDiagnostics && req.Params != nil {
		var p struct {
			URI         string     `json:"uri"`
			Diagnostics []wireDiag `json:"diagnostics"`
		}
		if err := json.Unmarshal(*req.Params, &p); err == nil {
			c.diagChan(p.URI) <- p.Diagnostics
		}
	}
	return nil, nil
}

func (c *client) diagChan(uri string) chan []wireDiag {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := c.diags[uri]
	if ch == nil {
		ch = make(chan []wireDiag, 100000)
		c.diags[uri] = ch
	}
	return ch
}

// call sends a request and decodes its result.
func (c *client) call(method string, params, result any) {
	c.t.Helper()
	require.NoError(c.t, c.conn.Call(context.Background(), method, params, result), method)
}

// callErr sends a request that should fail, and returns its error.
func (c *client) callErr(method string, params any) error {
	var res json.RawMessage
	return c.conn.Call(context.Background(), method, params, &res)
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	require.NoError(c.t, c.conn.Notify(context.Background(), method, params), method)
}

// waitDiags returns the next diagnostics published for uri. The server
// publishes them while it handles the change, before it reads another
// message; the deadline only keeps a broken server from hanging the test.
func (c *client) waitDiags(uri string) []wireDiag {
	c.t.Helper()
	select {
	case p := <-c.diagChan(uri):
		return p
	case <-time.After(30 * time.Second):
		c.t.Fatalf("no diagnostics published for %s", uri)
		return nil
	}
}

// latestDiags returns the last diagnostics published for uri so far. A
// request's answer comes after every notification the server sent while
// it handled the messages before it, and the client handles messages in
// order: once the answer is in, every earlier notification is too.
func (c *client) latestDiags(uri string) []wireDiag {
	c.t.Helper()
	c.sync()
	var last []wireDiag
	found := false
	for {
		select {
		case p := <-c.diagChan(uri):
			last, found = p, true
			continue
		default:
		}
		break
	}
	require.True(c.t, found, "no diagnostics published for %s", uri)
	return last
}

// sync makes a round trip to the server.
func (c *client) sync() {
	c.t.Helper()
	var res json.RawMessage
	_ = c.conn.Call(context.Background(), "soni/none", nil, &res)
}

// open sends didOpen with the file's text on disk, or text when given.
func (c *client) open(path string, text ...string) string {
	c.t.Helper()
	src := ""
	if len(text) > 0 {
		src = text[0]
	} else {
		b, err := os.ReadFile(path)
		require.NoError(c.t, err)
		src = string(b)
	}
	uri := pathToURI(path)
	c.notify(protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: uri, LanguageID: "yaml", Version: 1, Text: src}})
	return uri
}

// change replaces a document's whole text.
func (c *client) change(uri string, version int32, text string) {
	c.t.Helper()
	c.notify(protocol.MethodTextDocumentDidChange, protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri}, Version: version},
		ContentChanges: []any{protocol.TextDocumentContentChangeEventWhole{Text: text}},
	})
}

// copyProject copies a testdata project into a temporary directory, so
// that tests may write its files.
func copyProject(t testing.TB, name string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), name)
	src := filepath.Join("testdata", name)
	require.NoError(t, filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	}))
	return dst
}

// pos makes a protocol position from a 1-based line and column.
func pos(line, col int) protocol.Position {
	return protocol.Position{Line: protocol.UInteger(line - 1), Character: protocol.UInteger(col - 1)}
}

func docPos(uri string, line, col int) protocol.TextDocumentPositionParams {
	return protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: pos(line, col)}
}
