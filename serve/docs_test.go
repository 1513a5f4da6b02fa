package serve

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/actions"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/compiler"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestErrorTableIsTrue: docs/serve.md's table of errors, and the OpenAPI
// description's error codes, list every code the server answers with,
// and no other.
func TestErrorTableIsTrue(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "serve.md"))
	require.NoError(t, err)
	documented := map[string]bool{}
	row := regexp.MustCompile(`(?m)^\| [0-9, ]+ \| (.*?) \|`)
	for _, m := range row.FindAllStringSubmatch(string(doc), -1) {
		for _, code := range regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(m[1], -1) {
			documented[code[1]] = true
		}
	}
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	used := map[string]bool{}
	call := regexp.MustCompile(`(?:writeError\(w, [^,]+, |httpError\{[^,]+, |rawError\([^,]+, |"code":|return )"([a-z_]+)"`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range call.FindAllStringSubmatch(string(src), -1) {
			used[m[1]] = true
		}
	}
	require.NotEmpty(t, used)
	// The codes of the metrics and logs that are no error of a request.
	for _, code := range []string{"ok", "duplicate"} {
		delete(used, code)
	}
	assert.Equal(t, slices.Sorted(maps.Keys(used)), slices.Sorted(maps.Keys(documented)))

	var spec struct {
		Components struct {
			Schemas struct {
				Error struct {
					Properties struct {
						Error struct {
							Properties struct {
								Code struct {
									Enum []string
								}
							}
						}
					}
				}
			}
		}
	}
	require.NoError(t, json.Unmarshal(OpenAPI, &spec))
	described := spec.Components.Schemas.Error.Properties.Error.Properties.Code.Enum
	slices.Sort(described)
	assert.Equal(t, slices.Sorted(maps.Keys(used)), described, "the OpenAPI description's error codes")
}

// TestStreamingExampleIsTrue: docs/serve.md's streaming example is what
// flows/banking streams, frame for frame (the done object up to its
// "..."). SONI_UPDATE=1 writes what it streams into the example.
func TestStreamingExampleIsTrue(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "serve.md"))
	require.NoError(t, err)
	section := string(doc)[strings.Index(string(doc), "**Streaming.**"):]
	m := regexp.MustCompile("(?s)```sh\n(.*?)```\n\n```\n(.*?)```").FindStringSubmatch(section)
	require.NotNil(t, m, "the streaming section has a curl command and its frames")
	cmd := regexp.MustCompile(`localhost:5005(/v1/sessions/[a-z]+/messages).*-d '([^']*)'`).FindStringSubmatch(strings.ReplaceAll(m[1], "\\\n", ""))
	require.NotNil(t, cmd, m[1])
	var want []sseEvent
	require.NoError(t, readSSE(strings.NewReader(m[2]+"\n"), func(ev sseEvent) bool { want = append(want, ev); return true }))
	require.NotEmpty(t, want)

	project, err := filepath.Abs(filepath.Join("..", "flows", "banking"))
	require.NoError(t, err)
	r := compiler.Compile(project, compiler.Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	eng, err := soni.New(r.Program, soni.Options{Store: checkpoints.NewMemoryStore(), Dir: project, Actions: actions.New(r.Program, project, actions.Options{})})
	require.NoError(t, err)
	ts := newTestServer(t, New(eng, Options{Project: project}))
	resp, body := post(t, ts, cmd[1], `{"text": "what is my balance?"}`)
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	_, got := streamOf(t, ts.URL, cmd[1], cmd[2])
	if os.Getenv("SONI_UPDATE") != "" {
		var b strings.Builder
		for i, ev := range got {
			data := ev.data
			if ev.event == "done" {
				var rec soni.TurnRecord
				require.NoError(t, json.Unmarshal([]byte(data), &rec))
				data = fmt.Sprintf(`{"session":%q,"revision":%d,"time":"...","message_id":%q,"text":%q,...}`, rec.Session, rec.Revision, rec.MessageID, rec.Text)
			}
			if i > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "id: %s\nevent: %s\ndata: %s\n", ev.id, ev.event, data)
		}
		at := strings.Index(string(doc), "**Streaming.**") + strings.Index(section, m[2])
		updated := string(doc)[:at] + b.String() + string(doc)[at+len(m[2]):]
		require.NoError(t, os.WriteFile(filepath.Join("..", "docs", "serve.md"), []byte(updated), 0o644))
		return
	}
	require.Len(t, got, len(want), "SONI_UPDATE=1 rewrites the example")
	for i := range want {
		assert.Equal(t, want[i].id, got[i].id)
		assert.Equal(t, want[i].event, got[i].event)
		if head, ok := strings.CutSuffix(want[i].data, "...}"); ok {
			for _, part := range strings.Split(head, `"...",`) {
				assert.Contains(t, got[i].data, strings.TrimPrefix(strings.TrimSuffix(part, ","), "{"), "frame %d", i+1)
			}
			continue
		}
		assert.JSONEq(t, want[i].data, got[i].data, "frame %d", i+1)
	}
}
