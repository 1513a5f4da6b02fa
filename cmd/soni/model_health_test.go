package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// outageServer is a real local OpenAI-compatible endpoint whose requests
// fail (503) while failing is true, and answer "fallback" otherwise.
func outageServer(t *testing.T, failing *atomic.Bool) *httptest.Server {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if failing.Load() {
			http.Error(w, "model overloaded", http.StatusServiceUnavailable)
			return
		}
		_, _ = io.WriteString(w, `{"choices":[{"message":{"role":"assistant","content":"fallback"},"finish_reason":"stop"}]}`)
	}))
	t.Cleanup(ts.Close)
	return ts
}

// TestChatWarnsWhenTheModelIsUnreachable: flows/banking in hybrid mode,
// with a model that fails: soni chat warns once per outage (not once per
// message), says when the model answers again, and warns again at the next
// outage. The endpoint fails by request count, so that the run needs no
// clock: each message the rules are not sure of asks the model twice (one
// retry) while it fails, once when it answers.
func TestChatWarnsWhenTheModelIsUnreachable(t *testing.T) {
	var n atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if i := n.Add(1); i <= 4 || i >= 6 {
			http.Error(w, "model overloaded", http.StatusServiceUnavailable)
			return
		}
		_, _ = io.WriteString(w, `{"choices":[{"message":{"role":"assistant","content":"fallback"},"finish_reason":"stop"}]}`)
	}))
	defer ts.Close()
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"soni", "chat", "--checkpoints", filepath.Join(t.TempDir(), "cps"),
		"--understanding", "hybrid", "--llm-url", ts.URL + "/v1", "--llm-model", "m", filepath.Join("..", "..", "flows", "banking")},
		strings.NewReader("blorp\nflurb\nsnork\nquix\n"), &out, &errOut)
	require.Equal(t, exitOK, code, errOut.String())
	warn := fmt.Sprintf("soni chat: warning: the model at %s/v1 cannot be asked (status 503: model overloaded): until it answers, messages are understood by the rules alone (hybrid) or not at all (llm)\n", ts.URL)
	_, warnings, _ := strings.Cut(errOut.String(), "Type /help for commands.\n")
	assert.Equal(t, warn+fmt.Sprintf("soni chat: the model at %s/v1 answers again\n", ts.URL)+warn, warnings)
	assert.Equal(t, int32(7), n.Load())
	assert.Equal(t, 4, strings.Count(out.String(), "How can I help?"), "the rules answered every message")
}

// TestServeLogsAndCountsModelOutages: testdata/modelhealth, a small
// project with understanding: hybrid, whose model fails: soni serve logs one warning per outage and
// counts it in /metrics (soni_model_outages_total), however many turns
// fall back to the rules, and logs when the model answers again.
func TestServeLogsAndCountsModelOutages(t *testing.T) {
	var failing atomic.Bool
	failing.Store(true)
	ts := outageServer(t, &failing)
	// The project (testdata/modelhealth) reads its model's URL from the
	// environment, which soni serve inherits.
	t.Setenv("SONI_LLM_BASE_URL", ts.URL+"/v1")
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "modelhealth", "flows.yaml"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "flows.yaml"), src, 0o644))
	s := startServe(t, dir)
	outages := func() string {
		resp, err := http.Get(s.url + "/metrics")
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		m := regexp.MustCompile(`(?m)^soni_model_outages_total (\S+)$`).FindStringSubmatch(string(b))
		require.NotNil(t, m, "no soni_model_outages_total in /metrics")
		return m[1]
	}
	assert.Equal(t, "0", outages())

	_, body := send(t, s.url, "a", `{"text": "blorp"}`)
	assert.Contains(t, body, "How can I help?", "the rules answered")
	_, _ = send(t, s.url, "a", `{"text": "flurb"}`)
	assert.Equal(t, "1", outages(), "two failed turns, one outage")
	s.waitLog(t, `"msg":"the model cannot be asked: until it answers, messages are understood by the rules alone (hybrid) or not at all (llm)"`)
	assert.Contains(t, s.log(), `"error":"status 503: model overloaded"`)

	failing.Store(false)
	_, _ = send(t, s.url, "a", `{"text": "snork"}`)
	s.waitLog(t, `"msg":"the model answers again"`)

	failing.Store(true)
	_, _ = send(t, s.url, "a", `{"text": "quix"}`)
	assert.Equal(t, "2", outages(), "a new outage after the recovery")
	s.mu.Lock()
	for strings.Count(s.stderr.String(), `"msg":"the model cannot be asked`) < 2 && !s.ended {
		s.cond.Wait()
	}
	assert.Equal(t, 2, strings.Count(s.stderr.String(), `"msg":"the model cannot be asked`))
	s.mu.Unlock()
}
