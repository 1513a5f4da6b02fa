// Package fakellm is an OpenAI-compatible chat completions server for
// tests, with no network and no model: it answers each request from a
// fixture file keyed by a hash of the canonical request (model, messages,
// temperature, max_tokens). A request with no fixture gets a 500 naming
// the missing file, and the request is written beside where the fixture
// would be (HASH.request.json), so that it can be recorded or written.
//
// Fixtures are DIR/HASH.json: {"content": "...", "finish_reason": "stop",
// "source": "hand" | "recorded"}. No model is reachable from the machines
// soni is built on, so the first fixtures are written by hand, as the
// answers a model would give, and say so in "source".
package fakellm

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
)

// Request is the part of a chat completions request fixtures are keyed by.
type Request struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
	Temperature float64 `json:"temperature"`
	MaxTokens   int     `json:"max_tokens"`
}

// Fixture is one recorded or hand-written answer.
type Fixture struct {
	Content      string `json:"content"`
	FinishReason string `json:"finish_reason,omitempty"`
	// Source says where the answer came from: "hand" or "recorded".
	Source string `json:"source"`
}

// Key is the fixture key of a request: the hex SHA-256 of its canonical
// JSON, cut to 16 bytes.
func Key(r Request) string {
	b, _ := json.Marshal(r)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}

// Server answers from the fixtures in Dir. Respond, when set, answers
// instead (tests of failures: a status and a raw body). It records the
// requests and headers it got.
type Server struct {
	Dir     string
	Respond func(r Request, attempt int) (status int, body string)

	mu       sync.Mutex
	Requests []Request
	Headers  []http.Header
}

// ServeHTTP implements POST /chat/completions (under any prefix).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || filepath.Base(r.URL.Path) != "completions" {
		http.Error(w, `{"error":{"message":"only POST .../chat/completions"}}`, http.StatusNotFound)
		return
	}
	b, _ := io.ReadAll(r.Body)
	var req Request
	if err := json.Unmarshal(b, &req); err != nil {
		http.Error(w, `{"error":{"message":"the body is not a chat completions request"}}`, http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.Requests = append(s.Requests, req)
	s.Headers = append(s.Headers, r.Header.Clone())
	attempt := len(s.Requests)
	s.mu.Unlock()
	if s.Respond != nil {
		status, body := s.Respond(req, attempt)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
		return
	}
	key := Key(req)
	path := filepath.Join(s.Dir, key+".json")
	data, err := os.ReadFile(path)
	if err != nil {
		pretty, _ := json.MarshalIndent(req, "", "  ")
		_ = os.WriteFile(filepath.Join(s.Dir, key+".request.json"), pretty, 0o644)
		msg, _ := json.Marshal(map[string]any{"error": map[string]string{"message": fmt.Sprintf("fakellm: no fixture %s.json; the request was written to %s.request.json", key, key)}})
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write(msg)
		return
	}
	var f Fixture
	if err := json.Unmarshal(data, &f); err != nil {
		http.Error(w, fmt.Sprintf(`{"error":{"message":"fixture %s.json is not a fixture"}}`, key), http.StatusInternalServerError)
		return
	}
	if f.FinishReason == "" {
		f.FinishReason = "stop"
	}
	out, _ := json.Marshal(map[string]any{
		"object":  "chat.completion",
		"model":   req.Model,
		"choices": []any{map[string]any{"index": 0, "message": map[string]string{"role": "assistant", "content": f.Content}, "finish_reason": f.FinishReason}},
	})
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out)
}
