package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// server is a soni serve process started by a test.
type server struct {
	cmd    *exec.Cmd
	url    string
	mu     sync.Mutex
	cond   *sync.Cond // signalled when stderr grows or ends
	ended  bool
	stderr bytes.Buffer
	done   chan error
}

// waitLog blocks until the server's stderr holds want (or the process
// ends), reading as the server writes: no clock involved.
func (s *server) waitLog(t *testing.T, want string) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	for !strings.Contains(s.stderr.String(), want) {
		if s.ended {
			t.Fatalf("soni serve ended without logging %q:\n%s", want, s.stderr.String())
		}
		s.cond.Wait()
	}
}

var listening = regexp.MustCompile(`on (http://\S+) \(store`)

// startServe runs the test binary as soni serve on a free port and waits
// for its "listening" line (a blocking read of its stderr, no polling).
func startServe(t *testing.T, dir string, args ...string) *server {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe)
	cmd.Args = append(append([]string{"soni", "serve", "--addr", "127.0.0.1:0"}, args...), dir)
	cmd.Dir = dir
	pr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	s := &server{cmd: cmd, done: make(chan error, 1)}
	s.cond = sync.NewCond(&s.mu)
	br := bufio.NewReader(pr)
	for {
		line, err := br.ReadString('\n')
		s.stderr.WriteString(line)
		if m := listening.FindStringSubmatch(line); m != nil {
			s.url = m[1]
			break
		}
		if err != nil {
			_ = cmd.Wait()
			t.Fatalf("soni serve did not start: %s", s.stderr.String())
		}
	}
	go func() {
		for {
			line, err := br.ReadString('\n')
			s.mu.Lock()
			s.stderr.WriteString(line)
			s.ended = err != nil
			s.cond.Broadcast()
			s.mu.Unlock()
			if err != nil {
				break
			}
		}
		s.done <- cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-s.done
	})
	return s
}

func (s *server) log() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stderr.String()
}

// send posts a message and returns the status and body.
func send(t *testing.T, url, session, body string) (int, string) {
	code, b, err := trySend(url, session, body)
	if err != nil {
		t.Errorf("POST: %v", err)
	}
	return code, b
}

func trySend(url, session, body string) (int, string, error) {
	resp, err := http.Post(url+"/v1/sessions/"+session+"/messages", "application/json", strings.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), nil
}

// TestServeStopsGracefully: SIGTERM while a turn runs a slow action lets
// the turn finish and answer, then soni serve exits 0. The action and the
// test meet through FIFOs, so nothing waits on a clock.
func TestServeStopsGracefully(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "started"), 0o600))
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "release"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "flows.yaml"), []byte(`version: "1.0"
actions:
  slow:
    outputs: [done]
    run:
      exec: ["sh", "-c", "echo go > started; read x < release; echo '{\"done\": \"yes\"}'"]
      timeout: 60s
flows:
  job:
    trigger: {intents: ["start the job"]}
    steps:
      - {step: run, type: action, call: slow, map_outputs: {done: done}}
      - {step: bye, type: say, message: "Job done: {done}."}
`), 0o644))
	s := startServe(t, dir)
	assert.Regexp(t, `\(store file:\.soni/checkpoints/[^)]+\)\n`, s.log(), "the start line names the file store's directory")
	type result struct {
		code int
		body string
	}
	answered := make(chan result, 1)
	go func() {
		code, body := send(t, s.url, "u1", `{"text": "start the job"}`)
		answered <- result{code, body}
	}()
	started, err := os.ReadFile(filepath.Join(dir, "started")) // blocks until the action runs
	require.NoError(t, err)
	require.Equal(t, "go\n", string(started))
	// A client still sending its request, and an idle keep-alive: neither
	// holds the stop up (issue 20 §2.2; the trickler used to keep soni
	// until --shutdown-timeout, and it exited 1).
	trickler, err := net.Dial("tcp", strings.TrimPrefix(s.url, "http://"))
	require.NoError(t, err)
	defer trickler.Close()
	_, err = io.WriteString(trickler, "POST /v1/sessions/slow/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"te")
	require.NoError(t, err)
	idle, err := net.Dial("tcp", strings.TrimPrefix(s.url, "http://"))
	require.NoError(t, err)
	defer idle.Close()
	_, err = io.WriteString(idle, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
	require.NoError(t, err)
	idleResp, err := http.ReadResponse(bufio.NewReader(idle), nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, idleResp.StatusCode)
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGTERM))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "release"), []byte("now\n"), 0o600))
	r := <-answered
	assert.Equal(t, http.StatusOK, r.code, r.body)
	assert.Contains(t, r.body, `"Job done: yes."`)
	err = <-s.done
	assert.NoError(t, err, "soni serve exits 0 after a graceful stop: %s", s.log())
	s.done <- err // for the cleanup
	assert.Contains(t, s.log(), `"msg":"stopped"`)
}

// TestServeRefusesAnOpenAddressWithoutAToken: binding all interfaces with
// no token is a usage error unless --insecure.
func TestServeRefusesAnOpenAddressWithoutAToken(t *testing.T) {
	dir := writeProject(t, pizzaFlow)
	var out, errOut bytes.Buffer
	code := run(t.Context(), []string{"soni", "serve", "--addr", "0.0.0.0:0", dir}, strings.NewReader(""), &out, &errOut)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut.String(), `"0.0.0.0:0" is reachable from other machines and no token is set`)
}

// replicaFlow counts and confirms without actions, so that transcripts
// are a pure function of the messages.
const replicaFlow = `version: "1.0"
flows:
  book:
    trigger: {intents: ["book a table"]}
    slots:
      - {name: people, type: integer, min: 1, max: 20}
      - {name: name, type: text}
    steps:
      - {step: ask_people, type: collect, slot: people, message: "For how many people?"}
      - {step: ask_name, type: collect, slot: name, message: "Under which name?"}
      - {step: sure, type: confirm, slot: people, message: "A table for {people}, {name}?"}
      - {step: done, type: say, message: "Booked for {people}, {name}."}
  count:
    trigger: {intents: ["count"]}
    steps:
      - {step: say, type: say, message: "Counted."}
`

// postgresURL returns a store URL in a fresh schema of the test cluster.
func postgresURL(t *testing.T) string {
	url := os.Getenv("SONI_TEST_POSTGRES")
	if url == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("SONI_TEST_POSTGRES is not set under CI: .ci/run starts a PostgreSQL cluster and sets it")
		}
		t.Skip("SONI_TEST_POSTGRES is not set: start a cluster with scripts/postgres.sh")
	}
	schema := fmt.Sprintf("replicas_%d", os.Getpid())
	out, err := exec.Command("psql", url, "-qc", "DROP SCHEMA IF EXISTS "+schema+" CASCADE; CREATE SCHEMA "+schema).CombinedOutput()
	if err != nil {
		t.Fatalf("psql: %v: %s", err, out)
	}
	return url + "&search_path=" + schema
}

// TestReplicasOnOnePostgres: two soni serve processes share one database.
// Conversations whose turns alternate between them read exactly like the
// same conversations on one process; concurrent messages to one session
// are each answered once (or get a clear 409) with nothing lost; and when
// one replica is killed the other serves every session.
func TestReplicasOnOnePostgres(t *testing.T) {
	store := postgresURL(t)
	dir := writeProject(t, replicaFlow)
	a := startServe(t, dir, "--store", store)
	b := startServe(t, dir, "--store", store)
	single := startServe(t, dir, "--store", "memory:")
	replicas := []*server{a, b}
	script := []string{"book a table", "4", "Ana", "no", "book a table", "twelve", "3", "Bo", "yes", "count"}

	replies := func(body string) string {
		var r struct{ Replies []string }
		_ = json.Unmarshal([]byte(body), &r)
		return strings.Join(r.Replies, " | ")
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var mismatches []string
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := w; c < 200; c += 8 {
				session := fmt.Sprintf("conv-%03d", c)
				for i, msg := range script {
					body := fmt.Sprintf(`{"text": %q}`, msg)
					code1, got := send(t, replicas[(c+i)%2].url, session, body)
					code2, want := send(t, single.url, session, body)
					if code1 != 200 || code2 != 200 || replies(got) != replies(want) {
						mu.Lock()
						mismatches = append(mismatches, fmt.Sprintf("%s turn %d: %d %q vs %d %q", session, i+1, code1, replies(got), code2, replies(want)))
						mu.Unlock()
					}
				}
			}
		}()
	}
	wg.Wait()
	assert.Empty(t, mismatches)

	// 50 concurrent messages to one session, spread over both replicas.
	var answered, conflicts sync.Map
	var wg2 sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg2.Add(1)
		go func() {
			defer wg2.Done()
			code, body := send(t, replicas[i%2].url, "hot", fmt.Sprintf(`{"text": "count", "message_id": "m%d"}`, i))
			switch code {
			case 200:
				answered.Store(i, body)
			case 409:
				conflicts.Store(i, body)
			default:
				t.Errorf("message %d: %d %s", i, code, body)
			}
		}()
	}
	wg2.Wait()
	n := 0
	answered.Range(func(_, _ any) bool { n++; return true })
	resp, err := http.Get(a.url + "/v1/sessions/hot")
	require.NoError(t, err)
	var st struct{ Revision int }
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&st))
	resp.Body.Close()
	assert.Equal(t, n, st.Revision, "one revision per answered message, none lost or doubled")
	assert.Equal(t, 50, n, "with the turn lock no message needs a 409")

	// Kill one replica mid-load: the other serves every session, those
	// the killed one had touched (or was running a turn of) included.
	var sent sync.WaitGroup
	var killOnce sync.Once
	var count atomic.Int64
	for w := 0; w < 4; w++ {
		sent.Add(1)
		go func() {
			defer sent.Done()
			for c := w; c < 200; c += 4 {
				srv := replicas[c%2]
				if count.Add(1) == 40 {
					killOnce.Do(func() { _ = b.cmd.Process.Kill() })
				}
				_, _, _ = trySend(srv.url, fmt.Sprintf("conv-%03d", c), `{"text": "count"}`) // b's fail once it is killed
			}
		}()
	}
	sent.Wait()
	for c := 0; c < 200; c++ {
		code, body := send(t, a.url, fmt.Sprintf("conv-%03d", c), `{"text": "count"}`)
		assert.Equal(t, 200, code, body)
		assert.Contains(t, body, `"Counted."`)
	}
}

// TestPruneWhileServing: soni sessions prune on the store a running
// soni serve uses deletes idle conversations under their turn locks; the
// server goes on, and a pruned conversation starts afresh.
func TestPruneWhileServing(t *testing.T) {
	dir := writeProject(t, replicaFlow)
	store := "sqlite:" + filepath.Join(t.TempDir(), "soni.db")
	s := startServe(t, dir, "--store", store)
	for _, id := range []string{"p1", "p2"} {
		code, body := send(t, s.url, id, `{"text": "book a table"}`)
		require.Equal(t, 200, code, body)
	}
	var out, errOut bytes.Buffer
	code := run(t.Context(), []string{"soni", "sessions", "prune", "--store", store, "--older-than", "1ns"}, strings.NewReader(""), &out, &errOut)
	require.Equal(t, exitOK, code, errOut.String())
	// The server's version goes with them: no session uses it any more.
	assert.Equal(t, "pruned 2 sessions idle for more than 1ns\npruned 1 program versions no session uses\n", out.String())
	code2, body := send(t, s.url, "p1", `{"text": "count"}`)
	require.Equal(t, 200, code2, body)
	assert.Contains(t, body, `"revision":1,`, "the pruned conversation starts afresh")
	out.Reset()
	code = run(t.Context(), []string{"soni", "sessions", "list", "--store", store}, strings.NewReader(""), &out, &errOut)
	require.Equal(t, exitOK, code, errOut.String())
	assert.Regexp(t, `(?m)^p1 +1 +\S+ +- +sha256:[0-9a-f]{12}$`, out.String())
}

// TestMessageIDAcrossARestart: a message id answered before a restart is
// answered again with the first response after it, and the turn does not
// run twice.
func TestMessageIDAcrossARestart(t *testing.T) {
	dir := writeProject(t, replicaFlow)
	store := "sqlite:" + filepath.Join(t.TempDir(), "soni.db")
	s := startServe(t, dir, "--store", store)
	code, first := send(t, s.url, "r1", `{"text": "book a table", "message_id": "retry-1"}`)
	require.Equal(t, 200, code, first)
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGTERM))
	require.NoError(t, <-s.done)
	s.done <- nil // for the cleanup

	s2 := startServe(t, dir, "--store", store)
	code, again := send(t, s2.url, "r1", `{"text": "book a table", "message_id": "retry-1"}`)
	require.Equal(t, 200, code, again)
	assert.JSONEq(t, first, again)
	resp, err := http.Get(s2.url + "/v1/sessions/r1")
	require.NoError(t, err)
	defer resp.Body.Close()
	var st struct{ Revision int }
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&st))
	assert.Equal(t, 1, st.Revision, "the retry ran nothing")
	// The metrics count a turn before its response is sent.
	mresp, err := http.Get(s2.url + "/metrics")
	require.NoError(t, err)
	defer mresp.Body.Close()
	b, err := io.ReadAll(mresp.Body)
	require.NoError(t, err)
	assert.Contains(t, string(b), `soni_turns_total{outcome="duplicate"} 1`)
}

// TestServeReloadsOnSIGHUP: SIGHUP recompiles the project; new turns use
// the new flows, and a project with errors leaves the old program serving.
func TestServeReloadsOnSIGHUP(t *testing.T) {
	dir := writeProject(t, replicaFlow)
	s := startServe(t, dir)
	_, body := send(t, s.url, "h1", `{"text": "count"}`)
	require.Contains(t, body, `"Counted."`)
	path := filepath.Join(dir, "flows.yaml")
	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(replicaFlow, `"Counted."`, `"Counted again."`, 1)), 0o644))
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGHUP))
	s.waitLog(t, `"msg":"reloaded"`)
	_, body = send(t, s.url, "h2", `{"text": "count"}`)
	assert.Contains(t, body, `"Counted again."`)

	require.NoError(t, os.WriteFile(path, []byte("flows: [broken\n"), 0o644))
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGHUP))
	s.waitLog(t, "reload failed: the old program stays")
	_, body = send(t, s.url, "h3", `{"text": "count"}`)
	assert.Contains(t, body, `"Counted again."`)
}

// TestServeReloadKeepsPausedConversations is issue 29's report: a user
// asked "How much?" when the team renames that step and reloads. Before,
// every later message of that user was answered 500 cannot_resume; now
// the session finishes its transfer on the version it started with, and
// the reload logs what the new version does with the live sessions.
func TestServeReloadKeepsPausedConversations(t *testing.T) {
	const v1 = `flows:
  transfer:
    description: send money
    trigger: {intents: [send money]}
    slots:
      - {name: recipient, type: text}
      - {name: amount, type: number}
    steps:
      - {step: ask_recipient, type: collect, slot: recipient, message: "Who to?"}
      - {step: ask_amount, type: collect, slot: amount, message: "How much?"}
      - {step: done, type: say, message: "Sent {amount} to {recipient}."}
`
	dir := writeProject(t, v1)
	s := startServe(t, dir, "--store", "file:"+filepath.Join(dir, "store"))
	_, body := send(t, s.url, "u1", `{"text": "send money"}`)
	require.Contains(t, body, `"Who to?"`)
	_, body = send(t, s.url, "u1", `{"text": "Ana"}`)
	require.Contains(t, body, `"How much?"`)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "flows.yaml"), []byte(strings.Replace(v1, "step: ask_amount,", "step: ask_the_amount,", 1)), 0o644))
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGHUP))
	s.waitLog(t, `"summary":"same 0, move 0, finish 1, stay 0, code_change 0"`)
	s.waitLog(t, `"msg":"reloaded"`)
	code, body := send(t, s.url, "u1", `{"text": "50"}`)
	assert.Equal(t, http.StatusOK, code, body)
	assert.Contains(t, body, `"Sent 50 to Ana."`)
	assert.Contains(t, body, `"version_path":"finish"`)

	// The session's view (the inspector's) names its version: v2's now.
	sresp, err := http.Get(s.url + "/v1/sessions/u1")
	require.NoError(t, err)
	sb, err := io.ReadAll(sresp.Body)
	sresp.Body.Close()
	require.NoError(t, err)
	assert.Regexp(t, `"version":"sha256:[0-9a-f]{64}"`, string(sb))

	// /metrics: the sessions per version as the reload found them, and
	// the turn that finished on v1 and then moved.
	mresp, err := http.Get(s.url + "/metrics")
	require.NoError(t, err)
	defer mresp.Body.Close()
	b, err := io.ReadAll(mresp.Body)
	require.NoError(t, err)
	assert.Regexp(t, `soni_sessions_by_version\{version="sha256:[0-9a-f]{64}"\} 1`, string(b))
	assert.Contains(t, string(b), `soni_version_changes_total{path="finish"} 1`)
	assert.Contains(t, string(b), `soni_version_idle_moves_total 1`)

	// The API reloads as SIGHUP does; a broken project leaves v2 serving.
	rresp, err := http.Post(s.url+"/v1/program/reload", "application/json", nil)
	require.NoError(t, err)
	rb, _ := io.ReadAll(rresp.Body)
	rresp.Body.Close()
	assert.Equal(t, http.StatusOK, rresp.StatusCode, string(rb))
	assert.Regexp(t, `^\{"version":"sha256:[0-9a-f]{64}","summary":"same 1, move 0, finish 0, stay 0, code_change 0"\}`, string(rb))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "flows.yaml"), []byte("flows: [broken\n"), 0o644))
	rresp, err = http.Post(s.url+"/v1/program/reload", "application/json", nil)
	require.NoError(t, err)
	rb, _ = io.ReadAll(rresp.Body)
	rresp.Body.Close()
	assert.Equal(t, http.StatusUnprocessableEntity, rresp.StatusCode, string(rb))
	assert.Contains(t, string(rb), `"code":"reload_failed"`)
	_, body = send(t, s.url, "u1", `{"text": "send money"}`)
	assert.Contains(t, body, `"Who to?"`, "the old program still serves")
}

// TestServeHasTheSocketIOChannel: soni serve serves Rasa's socket.io
// channel at /socket.io/ (an Engine.IO handshake answers), and SIGTERM
// still stops it cleanly (issue 30 §3).
func TestServeHasTheSocketIOChannel(t *testing.T) {
	dir := writeProject(t, replicaFlow)
	s := startServe(t, dir)
	resp, err := http.Get(s.url + "/socket.io/?EIO=4&transport=polling")
	require.NoError(t, err)
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", b)
	require.Contains(t, string(b), `"sid"`)
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGTERM))
	require.NoError(t, <-s.done, s.log())
	s.done <- nil // for the cleanup
	assert.Contains(t, s.log(), `"msg":"stopped"`)
}
