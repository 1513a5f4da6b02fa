package soni_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/understand/llm"
	"github.com/soni-dev/soni/vm"
)

// modelProject writes a project whose understanding block asks for a
// model at url (none when url is empty).
func modelProject(t *testing.T, mode, url string) string {
	t.Helper()
	block := "  understanding:\n    mode: " + mode + "\n"
	if url != "" {
		block += "    llm:\n      base_url: " + url + "\n      model: m\n"
	}
	src := "version: \"1.0\"\nsettings:\n" + block + `flows:
  greet:
    description: Say hello
    steps:
      - {step: hello, type: say, message: "Hello from the flow."}
`
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "flows.yaml"), []byte(src), 0o644))
	return dir
}

// TestLoadHonoursUnderstanding checks that an embedder's Load builds the
// understanding layer the project's understanding block asks for, as the
// soni command does, and that Options.Understanding overrides it. Before,
// Load gave the rules whatever the block said.
func TestLoadHonoursUnderstanding(t *testing.T) {
	for _, v := range []string{"SONI_UNDERSTANDING", "SONI_LLM_BASE_URL", "SONI_LLM_MODEL"} {
		t.Setenv(v, "")
	}
	var asked atomic.Int32
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":%q},"finish_reason":"stop"}]}`, "start flow greet")
	}))
	defer model.Close()
	// A message the rules cannot read: only the model starts greet.
	msg := vm.Input{Text: "zorblax quuxly"}

	tests := []struct {
		name    string
		mode    string
		url     string
		opts    soni.Options
		want    []string
		asked   int32
		loadErr string
	}{
		{name: "llm from the project", mode: "llm", url: model.URL, want: []string{"Hello from the flow."}, asked: 1},
		{name: "hybrid from the project", mode: "hybrid", url: model.URL, want: []string{"Hello from the flow."}, asked: 1},
		{name: "overridden to the rules", mode: "llm", url: model.URL, opts: soni.Options{Understanding: llm.Overrides{Mode: "rules"}}, asked: 0},
		{name: "overridden to the model", mode: "rules", url: model.URL, opts: soni.Options{Understanding: llm.Overrides{Mode: "llm"}}, want: []string{"Hello from the flow."}, asked: 1},
		{name: "a model without an endpoint", mode: "llm", loadErr: "understanding: llm understanding needs a base URL and a model"},
		{name: "an unknown mode", mode: "rules", opts: soni.Options{Understanding: llm.Overrides{Mode: "guess"}}, loadErr: `unknown understanding mode "guess"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			asked.Store(0)
			eng, err := soni.Load(modelProject(t, tc.mode, tc.url), tc.opts)
			if tc.loadErr != "" {
				require.ErrorContains(t, err, tc.loadErr)
				return
			}
			require.NoError(t, err)
			rep, err := eng.Handle(context.Background(), "s", msg)
			require.NoError(t, err)
			if tc.want != nil {
				assert.Equal(t, tc.want, rep.Replies)
			} else {
				assert.NotContains(t, rep.Replies, "Hello from the flow.")
			}
			assert.Equal(t, tc.asked, asked.Load(), "requests to the model")
		})
	}
}
