package main

import (
	"bytes"
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/soni-dev/soni/understand/llm/replay"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestChatWithAModel: in hybrid mode a message the rules do not
// understand goes to the model (a fake OpenAI-compatible endpoint here),
// --trace shows its latency, its answer and what was kept, and a clean
// answer to the question never reaches it. A bad mode is a usage error.
func TestChatWithAModel(t *testing.T) {
	fake := &replay.Server{Respond: func(r replay.Request, _ int) (int, string) {
		if strings.Contains(r.Messages[0].Content, "a margherita would be nice") {
			return 200, `{"choices":[{"message":{"role":"assistant","content":"start flow order\nstart flow launch_missiles"},"finish_reason":"stop"}]}`
		}
		return 200, `{"choices":[{"message":{"role":"assistant","content":"fallback"},"finish_reason":"stop"}]}`
	}}
	ts := httptest.NewServer(fake)
	defer ts.Close()
	dir := writeProject(t, pizzaFlow)
	cps := filepath.Join(t.TempDir(), "cps")
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"soni", "chat", "--checkpoints", cps, "--trace", "--understanding", "hybrid", "--llm-url", ts.URL + "/v1", "--llm-model", "tiny", dir},
		strings.NewReader("a margherita would be nice\nAna\n"), &out, &errOut)
	require.Equal(t, exitOK, code, errOut.String())
	assert.Equal(t, "Your name?\nWhat size, Ana?\n", out.String())
	trace := errOut.String()
	assert.Contains(t, trace, "trace: hybrid: rule fallback is not sure (no rule reads the message); asking the model")
	assert.Regexp(t, `trace: llm: answered in \d+m?s: "start flow order\\nstart flow launch_missiles"`, trace)
	assert.Contains(t, trace, `trace: llm: dropped line 2 (start_flow): unknown flow "launch_missiles"`)
	assert.Contains(t, trace, "trace: llm: kept start_flow")
	assert.Contains(t, trace, "trace: understood by llm, rule fallback: the rules were not sure: no rule reads the message", "the trace says which layer answered, which rule sent the message to the model, and why")
	assert.Contains(t, trace, "trace: understood by rules (sure), rule answer: the message is exactly an answer to the pending question")
	assert.Len(t, fake.Requests, 1, `"Ana" answered the question: no model call`)

	errOut.Reset()
	code = run(context.Background(), []string{"soni", "chat", "--understanding", "psychic", dir}, strings.NewReader(""), &out, &errOut)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut.String(), `unknown understanding mode "psychic": use rules, llm or hybrid`)
}
