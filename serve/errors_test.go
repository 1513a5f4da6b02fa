package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/ir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// logLines is a slog destination that hands each JSON line to a channel,
// so that a test waits for the line it needs instead of for a clock.
type logLines chan map[string]any

func (l logLines) Write(b []byte) (int, error) {
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return 0, err
	}
	l <- m
	return len(b), nil
}

func newLogLines() (logLines, *slog.Logger) {
	l := make(logLines, 100)
	return l, slog.New(slog.NewJSONHandler(l, nil))
}

// next returns the next line whose msg is msg. A line that never comes
// fails the test after a bound far above any wait for it.
func (l logLines) next(t *testing.T, msg string) map[string]any {
	t.Helper()
	bound := time.NewTimer(time.Minute)
	defer bound.Stop()
	for {
		select {
		case m := <-l:
			if m["msg"] == msg {
				return m
			}
		case <-bound.C:
			t.Fatalf("no %q line was logged", msg)
		}
	}
}

func stocked(context.Context) (map[string]any, error) { return map[string]any{"in_stock": true}, nil }

// TestClientErrorsAreNotRetryable: what no retry can fix is a 4xx, never
// 503 "retry" (issue 20 §2.7): a message id or Idempotency-Key over 256
// bytes, metadata that nests too deep or holds a number out of range,
// and a message that would grow the conversation over the store's size
// limit.
func TestClientErrorsAreNotRetryable(t *testing.T) {
	store, err := checkpoints.NewFileStore(t.TempDir(), checkpoints.WithoutSync(), checkpoints.WithMaxSize(8<<10))
	require.NoError(t, err)
	ts, _ := shopOn(t, Options{MaxBody: 1 << 20}, store, stocked)
	deep := strings.Repeat(`{"a":`, 40) + "1" + strings.Repeat("}", 40)
	long := strings.Repeat("k", 257)
	tests := []struct {
		name, path, body string
		headers          []string
		status           int
		code, message    string
	}{
		{"long message id", "/v1/sessions/c1/messages", `{"text": "hi", "message_id": "` + long + `"}`, nil, 400, "bad_request", "257 bytes, over the limit of 256"},
		{"long idempotency key", "/v1/sessions/c1/messages", `{"text": "hi"}`, []string{"Idempotency-Key", long}, 400, "bad_request", "over the limit of 256"},
		{"long key on the rest channel", "/webhooks/rest/webhook", `{"sender": "c1", "message": "hi"}`, []string{"Idempotency-Key", long}, 400, "bad_request", "over the limit of 256"},
		{"deep metadata", "/v1/sessions/c1/messages", `{"text": "hi", "metadata": ` + deep + `}`, nil, 422, "invalid_metadata", "nests deeper than 16 levels"},
		{"large metadata", "/v1/sessions/c1/messages", `{"text": "hi", "metadata": {"blob": "` + strings.Repeat("x", 17<<10) + `"}}`, nil, 422, "invalid_metadata", "over the limit of 16384 bytes"},
		{"deep metadata on the rest channel", "/webhooks/rest/webhook", `{"sender": "c1", "message": "hi", "metadata": {"x": [` + deep + `]}}`, nil, 422, "invalid_metadata", `key "x"`},
		{"infinite metadata", "/v1/sessions/c1/messages", `{"text": "hi", "metadata": {"n": [1, 1e999]}}`, nil, 422, "invalid_metadata", "not a finite number"},
		{"over the store's size", "/v1/sessions/c1/messages", `{"text": "hi", "metadata": {"blob": "` + strings.Repeat("x", 9000) + `"}}`, nil, 413, "too_large", "over the store's size limit"},
		{"within the limits", "/v1/sessions/c2/messages", `{"text": "hi", "message_id": "` + long[:256] + `", "metadata": {"n": 1e300}}`, nil, 200, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := post(t, ts, tt.path, tt.body, tt.headers...)
			require.Equal(t, tt.status, resp.StatusCode, body)
			if tt.code == "" {
				return
			}
			var e apiError
			require.NoError(t, json.Unmarshal([]byte(body), &e), body)
			assert.Equal(t, tt.code, e.Error.Code)
			assert.Contains(t, e.Error.Message, tt.message)
		})
	}
}

// TestClientHangUpIsClientClosed: a client that goes away mid-turn is
// counted and logged as client_closed, not as a failure of the flows
// (issue 20 §2.9).
func TestClientHangUpIsClientClosed(t *testing.T) {
	lines, logger := newLogLines()
	started := make(chan struct{})
	ts, _ := shopOn(t, Options{Logger: logger}, checkpoints.NewMemoryStore(), func(ctx context.Context) (map[string]any, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	})
	for _, text := range []string{"order a pizza", "small"} {
		resp, body := post(t, ts, "/v1/sessions/h/messages", `{"text": "`+text+`"}`)
		require.Equal(t, http.StatusOK, resp.StatusCode, body)
	}
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+"/v1/sessions/h/messages", strings.NewReader(`{"text": "no"}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	failed := make(chan error, 1)
	go func() {
		resp, err := ts.Client().Do(req)
		if err == nil {
			resp.Body.Close()
		}
		failed <- err
	}()
	<-started
	cancel()
	require.Error(t, <-failed)
	var line map[string]any
	for line == nil || line["session"] != "h" || line["outcome"] == "ok" {
		line = lines.next(t, "turn")
	}
	assert.Equal(t, "client_closed", line["outcome"])

	_, metrics := do(t, ts, http.MethodGet, "/metrics")
	assert.Contains(t, metrics, `soni_turns_total{outcome="client_closed"} 1`)
	assert.NotContains(t, metrics, `outcome="runtime_error"`)
}

// fullDisk is a memory store whose commits fail as a full disk fails
// them, with a path in the error that must not reach a client.
type fullDisk struct {
	*checkpoints.MemoryStore
	full atomic.Bool
}

func (s *fullDisk) Begin(ctx context.Context, id string) (checkpoints.Tx, error) {
	tx, err := s.MemoryStore.Begin(ctx, id)
	if err != nil {
		return nil, err
	}
	return &fullDiskTx{Tx: tx, s: s, id: id}, nil
}

type fullDiskTx struct {
	checkpoints.Tx
	s  *fullDisk
	id string
}

func (tx *fullDiskTx) Commit(ctx context.Context, rec checkpoints.Record, data []byte) error {
	if tx.s.full.Load() {
		return &fs.PathError{Op: "write", Path: "/secret/checkpoints/" + tx.id + ".tmp", Err: syscall.ENOSPC}
	}
	return tx.Tx.Commit(ctx, rec, data)
}

// TestReadyReflectsCommitFailures: a store that answers its ping but
// cannot save (a full disk) makes /readyz fail for a while, and both the
// turn's error and readiness name the cause, without the path (issue 20
// §2.8).
func TestReadyReflectsCommitFailures(t *testing.T) {
	store := &fullDisk{MemoryStore: checkpoints.NewMemoryStore()}
	r := compiler.CompileSource("shop.yaml", []byte(shopYAML), compiler.Options{})
	eng, err := soni.New(r.Program, soni.Options{Store: store})
	require.NoError(t, err)
	srv := New(eng, Options{})
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	srv.now = func() time.Time { return now }
	ts := newTestServer(t, srv)

	resp, _ := do(t, ts, http.MethodGet, "/readyz")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	store.full.Store(true)
	resp, body := post(t, ts, "/v1/sessions/d/messages", `{"text": "order a pizza"}`)
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	assert.Contains(t, body, `"store_unavailable"`)
	assert.Contains(t, body, "no space left on device")
	assert.NotContains(t, body, "could not be reached")
	assert.NotContains(t, body, "/secret")

	resp, body = do(t, ts, http.MethodGet, "/readyz")
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode, "the store pings, but turns fail")
	assert.Contains(t, body, "turns are failing to save: ")
	assert.Contains(t, body, "no space left on device")
	assert.NotContains(t, body, "/secret")

	now = now.Add(readyWindow)
	resp, _ = do(t, ts, http.MethodGet, "/readyz")
	assert.Equal(t, http.StatusOK, resp.StatusCode, "a failure long past no longer keeps traffic away")

	post(t, ts, "/v1/sessions/d/messages", `{"text": "order a pizza"}`)
	resp, _ = do(t, ts, http.MethodGet, "/readyz")
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	store.full.Store(false)
	resp, body = post(t, ts, "/v1/sessions/d/messages", `{"text": "order a pizza"}`)
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	resp, _ = do(t, ts, http.MethodGet, "/readyz")
	assert.Equal(t, http.StatusOK, resp.StatusCode, "a saved turn makes the server ready at once")
}

// TestStoreCause: the causes a store error is told by, none with a path.
func TestStoreCause(t *testing.T) {
	assert.Equal(t, "no space left on device", storeCause(&fs.PathError{Op: "write", Path: "/x", Err: syscall.ENOSPC}))
	assert.Equal(t, "read-only file system", storeCause(errors.Join(errors.New("save /x"), syscall.EROFS)))
	assert.Equal(t, "the database answered with error 53100", storeCause(sqlStateError("53100")))
	assert.Equal(t, "it could not be reached or did not answer", storeCause(errors.New("/secret/path: broken")))
}

type sqlStateError string

func (e sqlStateError) Error() string    { return "ERROR: could not extend file /var/lib/x" }
func (e sqlStateError) SQLState() string { return string(e) }

// TestNotFoundIsJSON: requests the mux would answer itself, in text or
// HTML (a CONNECT, a path with empty or dot segments), get the JSON
// error (issue 20 §2.12).
func TestNotFoundIsJSON(t *testing.T) {
	ts, _ := newShop(t, Options{}, nil)
	for _, path := range []string{"//v1//program", "/v1/sessions/a/../b", "/v1/./program", "/v1/sessions/a/.."} {
		req, err := http.NewRequest(http.MethodGet, ts.URL, nil)
		require.NoError(t, err)
		req.URL.Path, req.URL.RawPath = path, path
		client := ts.Client()
		client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		resp, err := client.Do(req)
		require.NoError(t, err)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, http.StatusNotFound, resp.StatusCode, path)
		assert.Equal(t, "application/json", resp.Header.Get("Content-Type"), path)
		assert.Contains(t, string(b), `"not_found"`, path)
	}
}

// TestProgramIsProjectRelative: /v1/program names the flow files
// relative to the project, however the project was given: no directory
// of the server's machine reaches a client (issue 20 §2.12).
func TestProgramIsProjectRelative(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "more"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "shop.yaml"), []byte(shopYAML), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "more", "extra.yaml"), []byte("version: \"1.0\"\nflows:\n  hello:\n    trigger: {intents: [\"hello there\"]}\n    steps:\n      - {step: hi, type: say, message: \"Hi.\"}\n"), 0o644))
	wd, err := os.Getwd()
	require.NoError(t, err)
	relDir, err := filepath.Rel(wd, dir)
	require.NoError(t, err)
	for _, project := range []string{dir, relDir} {
		r := compiler.Compile(project, compiler.Options{})
		require.NotNil(t, r.Program, "%v", r.Diags)
		eng, err := soni.New(r.Program, soni.Options{})
		require.NoError(t, err)
		ts := newTestServer(t, New(eng, Options{Project: project}))
		resp, body := do(t, ts, http.MethodGet, "/v1/program")
		require.Equal(t, http.StatusOK, resp.StatusCode)
		files := map[string]bool{}
		for _, m := range regexp.MustCompile(`"pos": "([^"]*):\d+:\d+"`).FindAllStringSubmatch(body, -1) {
			files[m[1]] = true
		}
		assert.Equal(t, map[string]bool{"shop.yaml": true, "more/extra.yaml": true, ir.DefaultsFile: true}, files, project, "the project's files, and soni's default patterns")
		assert.False(t, strings.Contains(body, filepath.Base(dir)), "the program names %s", dir)
		_, again := do(t, ts, http.MethodGet, "/v1/program")
		assert.True(t, body == again, "the answer is the same each time")
	}
}

// TestMetricsHaveTheProcess: /metrics carries the Go runtime's and the
// process's standard collectors, goroutines and file descriptors among
// them.
func TestMetricsHaveTheProcess(t *testing.T) {
	ts, _ := newShop(t, Options{}, nil)
	_, body := do(t, ts, http.MethodGet, "/metrics")
	assert.Contains(t, body, "\ngo_goroutines ")
	assert.Contains(t, body, "\ngo_memstats_heap_alloc_bytes ")
	if runtime.GOOS == "linux" {
		assert.Contains(t, body, "\nprocess_open_fds ")
		assert.Contains(t, body, "\nprocess_max_fds ")
	}
}

// TestActionFailuresAreLogged: an action that fails is logged with the
// session and the action, even when the flow goes on and the bot's
// words do not say so (issue 21 §1).
func TestActionFailuresAreLogged(t *testing.T) {
	lines, logger := newLogLines()
	ts, _ := shopOn(t, Options{Logger: logger}, checkpoints.NewMemoryStore(), func(context.Context) (map[string]any, error) {
		return nil, errors.New("connection refused")
	})
	for _, text := range []string{"order a pizza", "small", "no"} {
		post(t, ts, "/v1/sessions/fails/messages", `{"text": "`+text+`"}`)
	}
	line := lines.next(t, "action failed")
	assert.Equal(t, "WARN", line["level"])
	assert.Equal(t, "fails", line["session"])
	assert.Equal(t, "check_stock", line["action"])
	assert.Equal(t, "order", line["flow"])
	assert.Equal(t, "stock", line["step"])
	assert.Contains(t, line["error"], "connection refused")
}

// busyStore is a memory store whose sessions' queues are full.
type busyStore struct{ *checkpoints.MemoryStore }

func (busyStore) Begin(context.Context, string) (checkpoints.Tx, error) {
	return nil, fmt.Errorf("begin: %w", checkpoints.ErrBusy)
}

// TestHotSessionIs429: a message to a session whose queue of waiting
// turns is full is answered 429 with Retry-After, not 503 (issue 20
// §2.4): it ran nothing, and the same message can be sent again.
func TestHotSessionIs429(t *testing.T) {
	ts, _ := shopOn(t, Options{}, busyStore{checkpoints.NewMemoryStore()}, stocked)
	for _, c := range []struct{ path, body string }{
		{"/v1/sessions/hot/messages", `{"text": "order a pizza"}`},
		{"/webhooks/rest/webhook", `{"sender": "hot", "message": "order a pizza"}`},
	} {
		resp, body := post(t, ts, c.path, c.body)
		assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode, body)
		assert.Equal(t, "1", resp.Header.Get("Retry-After"))
		assert.Contains(t, body, `"session_busy"`)
	}
	// A stream opens with its first frame: a turn that ran nothing is
	// answered with its status, which a client can act on (before, a 200
	// stream with one error frame).
	resp, frames := streamOf(t, ts.URL, "/v1/sessions/hot/messages", `{"text": "order a pizza"}`)
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
	assert.Equal(t, "1", resp.Header.Get("Retry-After"))
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	assert.Empty(t, frames)
}

// TestSessionIDIsCheckedByTheTurn: the message endpoint leaves the
// session id to the store's Begin, the one place a turn checks it (issue
// 20 §1), and a bad one is still 400 with the rule, streamed or not.
func TestSessionIDIsCheckedByTheTurn(t *testing.T) {
	ts, _ := shopOn(t, Options{}, checkpoints.NewMemoryStore(), stocked)
	for _, stream := range []bool{false, true} {
		req, err := http.NewRequest(http.MethodPost, ts.URL+"/v1/sessions/a%20b/messages", strings.NewReader(`{"text": "order a pizza"}`))
		require.NoError(t, err)
		if stream {
			req.Header.Set("Accept", "text/event-stream")
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode, "stream %v", stream)
		assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
		assert.Contains(t, string(body), `session id \"a b\" is not valid: use 1 to 128 of A-Z a-z 0-9 . _ -`)
	}
}

// TestHotSessionQueueIsBounded: with the store's real per-session queue
// (room for one waiting turn), of two more messages to a session whose
// turn is running one waits and runs after it, and the other is answered
// 429 at once, while the running turn still holds the session (issue 20
// §2.4, end to end).
func TestHotSessionQueueIsBounded(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	ts, _ := shopOn(t, Options{}, checkpoints.NewMemoryStore(checkpoints.WithMaxWaiting(1)), func(ctx context.Context) (map[string]any, error) {
		close(started)
		<-release
		return map[string]any{"in_stock": true}, nil
	})
	post(t, ts, "/v1/sessions/hot/messages", `{"text": "order a pizza"}`)
	post(t, ts, "/v1/sessions/hot/messages", `{"text": "small"}`)
	type answer struct {
		status int
		body   string
		err    error
	}
	answers := make(chan answer, 3)
	send := func(text string) { // on goroutines of its own: it must not fail the test
		resp, body, err := tryPost(ts, "/v1/sessions/hot/messages", `{"text": "`+text+`"}`)
		if err != nil {
			answers <- answer{err: err}
			return
		}
		answers <- answer{resp.StatusCode, body, nil}
	}
	go send("no") // runs check_stock, which holds the turn
	select {
	case <-started:
	case a := <-answers:
		t.Fatalf("the turn ended (%d %v) before its action ran: %s", a.status, a.err, a.body)
	}
	go send("yes")
	go send("yes")
	select {
	case busy := <-answers: // one of the two is refused while the other waits
		require.NoError(t, busy.err)
		assert.Equal(t, http.StatusTooManyRequests, busy.status, busy.body)
		assert.Contains(t, busy.body, `"session_busy"`)
	case <-time.After(bound): // a guard on a hang, not a measure
		t.Error("no message was refused while two waited for the session")
		close(release)
		return
	}
	close(release)
	for range 2 {
		a := <-answers
		require.NoError(t, a.err)
		assert.Equal(t, http.StatusOK, a.status, a.body)
	}
}
