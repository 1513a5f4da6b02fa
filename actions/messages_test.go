package actions_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const speakingYAML = `version: "1.0"
responses:
  utter_found:
    - text: "Found {count} flights."
      buttons:
        - {title: "Cheapest", payload: "/SetSlots(choice=cheapest)"}
actions:
  search:
    outputs: [count]
    run:
%s
flows:
  find:
    trigger: {intents: ["find flights"]}
    slots:
      - {name: count, type: integer}
      - {name: choice, type: text}
    steps:
      - {step: look, type: action, call: search, map_outputs: {count: count}, on_error: sorry}
      - {step: done, type: say, message: "Done.", jump_to: __end__}
      - {step: sorry, type: say, message: "The search failed."}
`

// TestActionsThatSpeak: an action's answer may carry messages (text, a
// response by name, buttons, a custom payload), said in order at the
// action's step, after its outputs are stored; a command, an endpoint and
// a Go function speak the same way, and a malformed message fails the
// call.
func TestActionsThatSpeak(t *testing.T) {
	answer := `{"count": 3, "messages": [{"text": "Searching..."}, {"response": "utter_found"}, {"custom": {"map": "paris"}}]}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, answer)
	}))
	defer srv.Close()
	want := []vm.Utterance{
		{Text: "Searching..."},
		{Text: "Found 3 flights.", Response: "utter_found", Buttons: []ir.Button{{Title: "Cheapest", Payload: "/SetSlots(choice=cheapest)"}}},
		{Custom: map[string]any{"map": "paris"}},
		{Text: "Done."},
	}
	for _, tc := range []struct {
		name, run, script string
		register          bool
		wantErr           string
	}{
		{name: "exec", run: `      exec: ["./search.sh"]`, script: "cat >/dev/null; echo '" + answer + "'"},
		{name: "http", run: fmt.Sprintf(`      http: {url: "%s"}`, srv.URL)},
		{name: "go", run: `      exec: ["./never.sh"]`, register: true},
		{name: "malformed", run: `      exec: ["./search.sh"]`, script: `cat >/dev/null; echo '{"count": 1, "messages": [{}]}'`, wantErr: "message 1 says nothing"},
		{name: "not a list", run: `      exec: ["./search.sh"]`, script: `cat >/dev/null; echo '{"count": 1, "messages": "hi"}'`, wantErr: `"messages" must be a list of messages`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "flows.yaml"), []byte(fmt.Sprintf(speakingYAML, tc.run)), 0o644))
			if tc.script != "" {
				require.NoError(t, os.WriteFile(filepath.Join(dir, "search.sh"), []byte("#!/bin/sh\n"+tc.script+"\n"), 0o755))
			}
			eng, err := soni.Load(dir, soni.Options{})
			require.NoError(t, err)
			if tc.register {
				eng.Register("search", func(_ context.Context, req vm.ActionRequest) (map[string]any, error) {
					req.Say(vm.ActionMessage{Text: "Searching..."})
					req.Say(vm.ActionMessage{Response: "utter_found"})
					return map[string]any{"count": 3, "messages": []any{map[string]any{"custom": map[string]any{"map": "paris"}}}}, nil
				})
			}
			rep, err := eng.Handle(context.Background(), "s", vm.Input{Text: "find flights"})
			require.NoError(t, err)
			if tc.wantErr != "" {
				assert.Equal(t, []string{"The search failed."}, rep.Replies, "a failed call says none of its messages")
				var failed string
				for _, e := range rep.Events {
					if e.Type == vm.EventActionFailed {
						failed = e.Error
					}
				}
				assert.Contains(t, failed, tc.wantErr)
				return
			}
			var got []vm.Utterance
			for i := range rep.Replies {
				got = append(got, rep.Message(i))
			}
			assert.Equal(t, want, got)
		})
	}
}
