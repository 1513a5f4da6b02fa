// Package inspect is soni's web inspector: one page, embedded in the
// binary, that talks to the flows through soni's public HTTP API (the
// /v1 messages with streaming, sessions and their event logs) and draws
// the compiled program from GET /v1/program. It holds no data and no
// back door: package serve mounts it at /inspect when asked to
// (soni serve --inspect, soni inspect). docs/inspect.md describes it.
package inspect

import (
	"embed"
	"io/fs"
	"net/http"
)

//go:embed assets
var assets embed.FS

// Assets are the page's files: index.html, app.js and style.css.
func Assets() fs.FS {
	sub, _ := fs.Sub(assets, "assets")
	return sub
}

// Handler serves the page's files under /inspect/.
func Handler() http.Handler {
	return HandlerFS(Assets())
}

// HandlerFS serves the page from other files: tests use it to prove that
// the browser tests catch a broken page.
func HandlerFS(files fs.FS) http.Handler {
	fsrv := http.StripPrefix("/inspect/", http.FileServerFS(files))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		fsrv.ServeHTTP(w, r)
	})
}
