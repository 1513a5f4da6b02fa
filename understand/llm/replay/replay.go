// Package replay records a model's answers and replays them: an
// OpenAI-compatible chat completions server with no network and no model
// (soni test and eval's --llm-fixtures, and the tests of package llm): it
// answers each request from a
// fixture file keyed by a hash of the canonical request (model, messages,
// temperature, max_tokens). A request with no fixture gets a 500 naming
// the missing file, and the request is written beside where the fixture
// would be (HASH.request.json), so that it can be recorded or written.
//
// Fixtures are DIR/HASH.json: {"message": "...", "content": "...",
// "finish_reason": "stop", "source": "..."}. No model is reachable from the
// machines soni is built on, so the first fixtures are written as the
// answers a model would give, and say so in "source".
//
// With Record set, a missing fixture is made instead of refused: Record
// answers the request (Upstream asks a real endpoint: SONI_LLM_RECORD=1),
// and the answer is written as the fixture and served. Recorded and
// written fixtures take that one path.
package replay

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
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
	// ResponseFormat is the request's response_format, when it has one
	// (structured outputs); a request without one keys as before.
	ResponseFormat json.RawMessage `json:"response_format,omitempty"`
}

// Fixture is one recorded or written answer.
type Fixture struct {
	// Message is the user's message the request is about, for people
	// reading the fixture (the text between the prompt's <<< and >>>).
	Message      string `json:"message,omitempty"`
	Content      string `json:"content"`
	FinishReason string `json:"finish_reason,omitempty"`
	// Source says where the answer came from: "recorded" (a real model,
	// and which), or a sentence saying how it was written.
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
	// Record, when set, answers a request that has no fixture; the
	// answer is written as its fixture.
	Record func(r Request) (Fixture, error)

	mu       sync.Mutex
	Requests []Request
	Headers  []http.Header
	// Missing are the keys of the requests that had no fixture.
	Missing []string
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
	f, err := s.fixture(req)
	if err != nil {
		msg, _ := json.Marshal(map[string]any{"error": map[string]string{"message": err.Error()}})
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write(msg)
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

// fixture reads the request's fixture, or makes it with Record.
func (s *Server) fixture(req Request) (Fixture, error) {
	key := Key(req)
	path := filepath.Join(s.Dir, key+".json")
	data, err := os.ReadFile(path)
	var f Fixture
	switch {
	case err == nil:
		if err := json.Unmarshal(data, &f); err != nil {
			return f, fmt.Errorf("replay: fixture %s.json is not a fixture: %v", key, err)
		}
		return f, nil
	case s.Record != nil:
		s.mu.Lock() // one recording at a time: fixtures are written whole
		defer s.mu.Unlock()
		if f, err = s.Record(req); err != nil {
			return f, fmt.Errorf("replay: recording %s.json: %v", key, err)
		}
		if f.Message == "" {
			f.Message = UserMessage(req)
		}
		out, _ := json.MarshalIndent(f, "", "  ")
		if err := os.WriteFile(path, append(out, '\n'), 0o644); err != nil {
			return f, fmt.Errorf("replay: writing fixture %s.json: %v", key, err)
		}
		return f, nil
	default:
		s.mu.Lock()
		s.Missing = append(s.Missing, key)
		s.mu.Unlock()
		pretty, _ := json.MarshalIndent(req, "", "  ")
		_ = os.WriteFile(filepath.Join(s.Dir, key+".request.json"), pretty, 0o644)
		return f, fmt.Errorf("replay: no fixture %s.json for the message %q; the request was written to %s.request.json (record it with SONI_LLM_RECORD=1, or write it)", key, UserMessage(req), key)
	}
}

// UserMessage is the user's message a soni prompt is about: the text
// between its last "<<<" and ">>>" lines, or "" when there are none.
func UserMessage(r Request) string {
	if len(r.Messages) == 0 {
		return ""
	}
	c := r.Messages[len(r.Messages)-1].Content
	i := strings.LastIndex(c, "<<<\n")
	if i < 0 {
		return ""
	}
	rest := c[i+4:]
	j := strings.LastIndex(rest, "\n>>>")
	if j < 0 {
		return ""
	}
	return rest[:j]
}

// Upstream returns a Record function that asks a real OpenAI-compatible
// endpoint (base URL, model, API key) the same request, the model name
// replaced: SONI_LLM_RECORD=1. Fixtures stay keyed by the request as the
// fake got it, so that they do not depend on which model recorded them.
func Upstream(baseURL, model, apiKey string, client *http.Client) func(Request) (Fixture, error) {
	if client == nil {
		client = &http.Client{Timeout: 60 * time.Second}
	}
	return func(r Request) (Fixture, error) {
		r.Model = model
		body, _ := json.Marshal(r)
		req, err := http.NewRequest(http.MethodPost, strings.TrimSuffix(baseURL, "/")+"/chat/completions", bytes.NewReader(body))
		if err != nil {
			return Fixture{}, fmt.Errorf("the endpoint %q is not a URL", baseURL)
		}
		req.Header.Set("Content-Type", "application/json")
		if apiKey != "" {
			req.Header.Set("Authorization", "Bearer "+apiKey)
		}
		resp, err := client.Do(req)
		if err != nil {
			return Fixture{}, err
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		if resp.StatusCode != http.StatusOK {
			return Fixture{}, fmt.Errorf("the endpoint answered status %d", resp.StatusCode)
		}
		var out struct {
			Model   string `json:"model"`
			Choices []struct {
				Message struct {
					Content string `json:"content"`
				} `json:"message"`
				FinishReason string `json:"finish_reason"`
			} `json:"choices"`
		}
		if err := json.Unmarshal(b, &out); err != nil || len(out.Choices) == 0 {
			return Fixture{}, fmt.Errorf("the endpoint's answer is not chat completions JSON with a choice")
		}
		if out.Model != "" {
			model = out.Model
		}
		return Fixture{Content: out.Choices[0].Message.Content, FinishReason: out.Choices[0].FinishReason, Source: "recorded from " + model}, nil
	}
}
