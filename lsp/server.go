// Package lsp is soni's language server: `soni lsp` speaks the Language
// Server Protocol over a stream (stdio) and gives an editor the
// compiler's own diagnostics as the author types, completion, hovers, go
// to definition, references, rename, code actions for the validator's
// suggestions, document symbols and formatting.
//
// The server checks nothing itself. On every change it compiles the
// project the edited file belongs to with package compiler, over the open
// documents' unsaved text, and answers from the compiler's diagnostics
// and symbol index (compiler.Result.Symbols) and from the references that
// package convtest finds in conversation test files. The protocol's types
// and message dispatch come from github.com/tliron/glsp; the JSON-RPC
// stream from github.com/sourcegraph/jsonrpc2, which glsp uses.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/soni-dev/soni/compiler"
)

// Server is one language server session: the workspace folders, the open
// documents and the projects compiled so far.
type Server struct {
	mu       sync.Mutex
	opts     compiler.Options
	version  string
	roots    []string
	docs     map[string]*document
	projects map[string]*project
	owner    map[string]string
	disk     map[string]diskFile
	tests    map[string]*testCache
	notify   func(method string, params any)
}

// document is an open document: the editor's text, which may be unsaved.
type document struct {
	uri     string
	text    string
	version int32
}

// New returns a server that compiles with opts; version is reported to the
// client as the server's.
func New(opts compiler.Options, version string) *Server {
	return &Server{
		opts:     opts,
		version:  version,
		docs:     map[string]*document{},
		projects: map[string]*project{},
		owner:    map[string]string{},
		disk:     map[string]diskFile{},
		tests:    map[string]*testCache{},
		notify:   func(string, any) {},
	}
}

// Serve speaks the protocol over rw (stdin and stdout for `soni lsp`)
// until the client sends exit, the stream ends or ctx is done. Messages
// are handled one at a time, in order, so each change is compiled before
// the next message is read.
func (s *Server) Serve(ctx context.Context, rw io.ReadWriteCloser) error {
	h := s.handler()
	handle := func(ctx context.Context, c *jsonrpc2.Conn, req *jsonrpc2.Request) (result any, err error) {
		// A bug must not end the editor's session: the request fails,
		// with the method it failed in, and the server goes on.
		defer func() {
			if v := recover(); v != nil {
				result, err = nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: fmt.Sprintf("soni lsp failed in %q: %v; please report it", req.Method, v)}
			}
		}()
		gc := &glsp.Context{
			Method: req.Method,
			Notify: func(method string, params any) { _ = c.Notify(ctx, method, params) },
			Call:   func(method string, params any, result any) { _ = c.Call(ctx, method, params, result) },
		}
		if req.Params != nil {
			gc.Params = *req.Params
		}
		if req.Method == protocol.MethodExit {
			return nil, c.Close()
		}
		// Messages are handled one at a time on the connection's reading
		// goroutine, which is also the only one that publishes.
		s.mu.Lock()
		s.notify = gc.Notify
		s.mu.Unlock()
		r, validMethod, validParams, err := h.Handle(gc)
		switch {
		case !validMethod:
			if req.Notif {
				return nil, nil
			}
			return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: fmt.Sprintf("method %q is not supported", req.Method)}
		case !validParams:
			msg := fmt.Sprintf("invalid parameters of %q", req.Method)
			if err != nil {
				msg += ": " + err.Error()
			}
			return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: msg}
		case err != nil:
			return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: err.Error()}
		}
		return r, nil
	}
	conn := jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(rw, jsonrpc2.VSCodeObjectCodec{}), jsonrpc2.HandlerWithError(handle))
	select {
	case <-conn.DisconnectNotify():
	case <-ctx.Done():
		_ = conn.Close()
		return ctx.Err()
	}
	return nil
}

// handler maps the protocol's methods to the server's.
func (s *Server) handler() *protocol.Handler {
	return &protocol.Handler{
		Initialize:                     s.initialize,
		Initialized:                    func(*glsp.Context, *protocol.InitializedParams) error { return nil },
		Shutdown:                       func(*glsp.Context) error { return nil },
		SetTrace:                       func(*glsp.Context, *protocol.SetTraceParams) error { return nil },
		TextDocumentDidOpen:            s.didOpen,
		TextDocumentDidChange:          s.didChange,
		TextDocumentDidClose:           s.didClose,
		TextDocumentDidSave:            s.didSave,
		WorkspaceDidChangeWatchedFiles: s.didChangeWatchedFiles,
		WorkspaceDidChangeConfiguration: func(*glsp.Context, *protocol.DidChangeConfigurationParams) error {
			return nil
		},
		TextDocumentCompletion:     s.completion,
		TextDocumentHover:          s.hover,
		TextDocumentDefinition:     s.definition,
		TextDocumentReferences:     s.references,
		TextDocumentPrepareRename:  s.prepareRename,
		TextDocumentRename:         s.rename,
		TextDocumentCodeAction:     s.codeAction,
		TextDocumentDocumentSymbol: s.documentSymbol,
		TextDocumentFormatting:     s.formatting,
	}
}

func (s *Server) initialize(_ *glsp.Context, p *protocol.InitializeParams) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range p.WorkspaceFolders {
		if path, ok := uriToPath(f.URI); ok {
			s.roots = append(s.roots, path)
		}
	}
	if len(s.roots) == 0 && p.RootURI != nil {
		if path, ok := uriToPath(*p.RootURI); ok {
			s.roots = append(s.roots, path)
		}
	}
	sync := protocol.TextDocumentSyncKindIncremental
	yes := true
	caps := protocol.ServerCapabilities{
		TextDocumentSync: protocol.TextDocumentSyncOptions{
			OpenClose: &yes,
			Change:    &sync,
			Save:      true,
		},
		CompletionProvider:         &protocol.CompletionOptions{TriggerCharacters: []string{"{", ":", " ", "."}},
		HoverProvider:              true,
		DefinitionProvider:         true,
		ReferencesProvider:         true,
		RenameProvider:             protocol.RenameOptions{PrepareProvider: &yes},
		CodeActionProvider:         protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix}},
		DocumentSymbolProvider:     true,
		DocumentFormattingProvider: true,
	}
	version := s.version
	return protocol.InitializeResult{
		Capabilities: caps,
		ServerInfo:   &protocol.InitializeResultServerInfo{Name: "soni", Version: &version},
	}, nil
}

func (s *Server) didOpen(_ *glsp.Context, p *protocol.DidOpenTextDocumentParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	path, ok := uriToPath(p.TextDocument.URI)
	if !ok {
		return nil
	}
	s.docs[path] = &document{uri: p.TextDocument.URI, text: p.TextDocument.Text, version: p.TextDocument.Version}
	s.refresh(path)
	return nil
}

func (s *Server) didChange(_ *glsp.Context, p *protocol.DidChangeTextDocumentParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	path, ok := uriToPath(p.TextDocument.URI)
	if !ok {
		return nil
	}
	d := s.docs[path]
	if d == nil {
		return fmt.Errorf("document %q changed before it was opened", p.TextDocument.URI)
	}
	for _, c := range p.ContentChanges {
		d.text = applyChange(d.text, c)
	}
	d.version = p.TextDocument.Version
	s.refresh(path)
	return nil
}

func (s *Server) didClose(_ *glsp.Context, p *protocol.DidCloseTextDocumentParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	path, ok := uriToPath(p.TextDocument.URI)
	if !ok {
		return nil
	}
	delete(s.docs, path)
	// The file on disk is what the project holds now.
	s.refresh(path)
	return nil
}

func (s *Server) didSave(_ *glsp.Context, p *protocol.DidSaveTextDocumentParams) error { return nil }

func (s *Server) didChangeWatchedFiles(_ *glsp.Context, p *protocol.DidChangeWatchedFilesParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	seen := map[string]bool{}
	for _, c := range p.Changes {
		path, ok := uriToPath(c.URI)
		if !ok {
			continue
		}
		delete(s.disk, path)
		// A new or deleted file may change which project a file is in.
		s.owner = map[string]string{}
		dir := s.projectDir(path)
		if !seen[dir] {
			seen[dir] = true
			s.publish(s.compile(dir), path)
		}
	}
	return nil
}

// refresh compiles the project of path and publishes its diagnostics.
func (s *Server) refresh(path string) {
	s.publish(s.compile(s.projectDir(path)), path)
}

// projectFor returns the compiled project of an open document, compiling
// it if it never was.
func (s *Server) projectFor(uri string) (*project, string, bool) {
	path, ok := uriToPath(uri)
	if !ok {
		return nil, "", false
	}
	dir := s.projectDir(path)
	p := s.projects[dir]
	if p == nil {
		p = s.compile(dir)
	}
	s.index(p)
	return p, path, true
}

// text returns the current text of a file of project p.
func (s *Server) text(p *project, path string) string {
	if d, ok := s.docs[path]; ok {
		return d.text
	}
	if src, ok := p.srcs[path]; ok {
		return src
	}
	src, _ := s.source(path)
	return src
}

// errNoDocument is returned for a request about a document that is not a
// file.
var errNoDocument = errors.New("the document is not a file: soni lsp works on files")

// mustJSON renders v as JSON, for fingerprints.
func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
