package replay

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func ask(t *testing.T, url, model, prompt string) (int, string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"model": model, "messages": []map[string]string{{"role": "user", "content": prompt}}, "temperature": 0, "max_tokens": 200})
	resp, err := http.Post(url+"/v1/chat/completions", "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	var out struct {
		Choices []struct {
			Message struct{ Content string } `json:"message"`
		} `json:"choices"`
		Error struct{ Message string } `json:"error"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	if len(out.Choices) > 0 {
		return resp.StatusCode, out.Choices[0].Message.Content
	}
	return resp.StatusCode, out.Error.Message
}

// TestRecording: with Upstream as Record, a request with no fixture is
// asked of the real endpoint under the real model's name, written as a
// fixture keyed by the request as the fake got it, and served from the
// file after that without asking again.
func TestRecording(t *testing.T) {
	var models []string
	var auth string
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req Request
		_ = json.NewDecoder(r.Body).Decode(&req)
		models = append(models, req.Model)
		auth = r.Header.Get("Authorization")
		_, _ = w.Write([]byte(`{"model":"big-1","choices":[{"message":{"role":"assistant","content":"start flow greet"},"finish_reason":"stop"}]}`))
	}))
	defer upstream.Close()
	dir := t.TempDir()
	fake := &Server{Dir: dir, Record: Upstream(upstream.URL+"/v1", "big", "sk-test", nil)}
	ts := httptest.NewServer(fake)
	defer ts.Close()

	prompt := "Flows: ...\n<<<\nhello there\n>>>"
	for range 2 {
		status, content := ask(t, ts.URL, "fixtures", prompt)
		assert.Equal(t, 200, status)
		assert.Equal(t, "start flow greet", content)
	}
	assert.Equal(t, []string{"big"}, models, "asked once, under the real model's name")
	assert.Equal(t, "Bearer sk-test", auth)
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	require.Len(t, files, 1)
	assert.Equal(t, Key(fake.Requests[0])+".json", filepath.Base(files[0]))
	var f Fixture
	b, _ := os.ReadFile(files[0])
	require.NoError(t, json.Unmarshal(b, &f))
	assert.Equal(t, Fixture{Message: "hello there", Content: "start flow greet", FinishReason: "stop", Source: "recorded from big-1"}, f)
	assert.Empty(t, fake.Missing)
}

// TestMissingFixture: with no Record, a request with no fixture is a 500
// that names the message and the request file, which is written.
func TestMissingFixture(t *testing.T) {
	dir := t.TempDir()
	fake := &Server{Dir: dir}
	ts := httptest.NewServer(fake)
	defer ts.Close()
	status, msg := ask(t, ts.URL, "fixtures", "x\n<<<\nhi\n>>>")
	assert.Equal(t, 500, status)
	key := Key(fake.Requests[0])
	assert.Contains(t, msg, `no fixture `+key+`.json for the message "hi"`)
	assert.FileExists(t, filepath.Join(dir, key+".request.json"))
	assert.Equal(t, []string{key}, fake.Missing)

	require.NoError(t, os.WriteFile(filepath.Join(dir, key+".json"), []byte("{not json"), 0o644))
	status, msg = ask(t, ts.URL, "fixtures", "x\n<<<\nhi\n>>>")
	assert.Equal(t, 500, status)
	assert.Contains(t, msg, "is not a fixture")
}

// TestUpstreamFailures: an endpoint that fails is no fixture.
func TestUpstreamFailures(t *testing.T) {
	for _, body := range []string{"", `{"choices":[]}`, "oops"} {
		upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if body == "" {
				w.WriteHeader(http.StatusTooManyRequests)
				return
			}
			_, _ = w.Write([]byte(body))
		}))
		dir := t.TempDir()
		ts := httptest.NewServer(&Server{Dir: dir, Record: Upstream(upstream.URL, "big", "", nil)})
		status, msg := ask(t, ts.URL, "fixtures", "p")
		assert.Equal(t, 500, status)
		assert.Contains(t, msg, "recording")
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		assert.Empty(t, files, "nothing is written")
		ts.Close()
		upstream.Close()
	}
}
