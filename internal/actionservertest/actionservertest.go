// Package actionservertest is a Rasa action server for tests, written from
// Rasa's documentation of the action server API ("Action Server API" and
// "Events" on rasa.com), since Rasa's Python SDK cannot be installed here.
//
// It serves POST /webhook. A request must carry what Rasa sends:
// "next_action", "sender_id", a "tracker" object (with "sender_id",
// "slots", "latest_message" and "events"), a "domain" object and a
// "version". A request that lacks the domain gets 449, as a server that
// only received a domain digest answers; any other malformed request gets
// 400 with {"error": ...}. The action named by next_action runs: a
// registered [Action] answers with events and responses (200), with a
// rejection (400 {"action_name", "error"}, Rasa SDK's
// ActionExecutionRejection) or with a crash (500 {"error",
// "request_body"}, the request echoed back). An unknown action gets 404
// {"action_name", "error"}, as the SDK answers.
package actionservertest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
)

// Request is a decoded webhook request.
type Request struct {
	NextAction string         `json:"next_action"`
	SenderID   string         `json:"sender_id"`
	Tracker    Tracker        `json:"tracker"`
	Domain     map[string]any `json:"domain"`
	Version    string         `json:"version"`
}

// Tracker is the request's tracker.
type Tracker struct {
	SenderID      string           `json:"sender_id"`
	Slots         map[string]any   `json:"slots"`
	LatestMessage map[string]any   `json:"latest_message"`
	Events        []map[string]any `json:"events"`
}

// Slot returns the value of a slot in the tracker.
func (t Tracker) Slot(name string) any { return t.Slots[name] }

// Answer is what an action returns: Rasa's events and responses.
type Answer struct {
	Events    []map[string]any `json:"events"`
	Responses []map[string]any `json:"responses"`
}

// SlotSet is Rasa's slot event.
func SlotSet(name string, value any) map[string]any {
	return map[string]any{"event": "slot", "name": name, "value": value, "timestamp": nil}
}

// Reject is returned by an action to refuse to run: the server answers
// 400 with the action's name and the message.
type Reject string

func (r Reject) Error() string { return string(r) }

// Action runs one custom action. A [Reject] error is a rejection; any
// other error is a crash (500).
type Action func(req Request) (Answer, error)

// Server is the fake action server, an http.Handler.
type Server struct {
	mu       sync.Mutex
	actions  map[string]Action
	requests []Request
	raw      [][]byte
}

// New returns a server running the given actions.
func New(actions map[string]Action) *Server {
	return &Server{actions: actions}
}

// Requests returns the requests received so far, decoded.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// RawRequests returns the bodies of the requests received so far.
func (s *Server) RawRequests() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.raw...)
}

// ServeHTTP implements the webhook.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/webhook" {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodPost {
		writeJSON(w, http.StatusMethodNotAllowed, map[string]any{"error": "use POST"})
		return
	}
	var raw json.RawMessage
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&raw); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "body is not JSON: " + err.Error()})
		return
	}
	var check map[string]json.RawMessage
	if err := json.Unmarshal(raw, &check); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "body is not a JSON object"})
		return
	}
	if _, ok := check["domain"]; !ok {
		writeJSON(w, 449, map[string]any{"error": "domain not found, resend the request with the domain"})
		return
	}
	var req Request
	if err := json.Unmarshal(raw, &req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "malformed request: " + err.Error()})
		return
	}
	var tr map[string]json.RawMessage
	_ = json.Unmarshal(check["tracker"], &tr)
	for _, k := range []string{"sender_id", "slots", "latest_message", "events"} {
		if _, ok := tr[k]; !ok {
			writeJSON(w, http.StatusBadRequest, map[string]any{"error": fmt.Sprintf("tracker has no %q", k)})
			return
		}
	}
	if req.NextAction == "" || req.SenderID == "" || req.Version == "" || req.Domain == nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "request needs next_action, sender_id, domain and version"})
		return
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.raw = append(s.raw, raw)
	act := s.actions[req.NextAction]
	s.mu.Unlock()
	if act == nil {
		writeJSON(w, http.StatusNotFound, map[string]any{"action_name": req.NextAction, "error": fmt.Sprintf("No registered action found for name '%s'.", req.NextAction)})
		return
	}
	ans, err := act(req)
	if rej, ok := err.(Reject); ok {
		writeJSON(w, http.StatusBadRequest, map[string]any{"action_name": req.NextAction, "error": string(rej)})
		return
	}
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, map[string]any{"error": err.Error(), "request_body": json.RawMessage(raw)})
		return
	}
	if ans.Events == nil {
		ans.Events = []map[string]any{}
	}
	if ans.Responses == nil {
		ans.Responses = []map[string]any{}
	}
	writeJSON(w, http.StatusOK, ans)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
