//go:build unix

package actions_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/actions"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// projectYAML is a one-flow project whose only action's run block, and
// whether the action step has on_error, vary per test.
const projectYAML = `version: "1.0"
settings:
  action_error_message: "Sorry, I could not {action}."
slots:
  account_type:
    type: categorical
    values:
      checking: []
      savings: []
actions:
  lookup:
    description: Look up the balance of the account
    inputs:
      - name: account_type
        required: true
    outputs: [balance]
    required_outputs: [balance]
    run:
%s
flows:
  check:
    slots:
      - name: balance
        type: number
    steps:
      - step: fetch
        type: action
        call: lookup
        map_outputs:
          balance: balance
%s
      - step: tell
        type: say
        message: "Your {account_type} balance is {balance}."
        jump_to: __end__
      - step: sorry
        type: say
        message: "The balance service is unavailable."
`

// loadProject writes the project and its scripts into a new directory and
// loads it with soni.Load, which makes that directory the project's.
func loadProject(t *testing.T, run string, onError bool, scripts map[string]string) (*soni.Engine, string) {
	t.Helper()
	dir := t.TempDir()
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(run), "\n") {
		lines = append(lines, "      "+l)
	}
	step := ""
	if onError {
		step = "        on_error: sorry"
	}
	src := fmt.Sprintf(projectYAML, strings.Join(lines, "\n"), step)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "domain.yaml"), []byte(src), 0o644))
	for name, body := range scripts {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755))
	}
	eng, err := soni.Load(dir, soni.Options{})
	require.NoError(t, err)
	return eng, dir
}

// start begins the check flow, with the account type set unless it is "".
func start(account string) vm.Input {
	cmd := vm.Command{Kind: vm.CmdStartFlow, Flow: "check"}
	if account != "" {
		cmd.Slots = []vm.SlotValue{{Slot: "account_type", Value: account}}
	}
	return vm.Input{Commands: []vm.Command{cmd}}
}

func TestConversationFaults(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, `{"balance": 80}`) })
	mux.HandleFunc("/500", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "ledger down", 500) })
	mux.HandleFunc("/garbage", func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "OK!") })
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) })
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = io.WriteString(w, `{"balance": `)
		w.(http.Flusher).Flush()
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	refused := "http://" + l.Addr().String()
	require.NoError(t, l.Close())

	tests := []struct {
		name    string
		run     string
		scripts map[string]string
		account string
		// noOnError leaves out on_error: the failure says the project's
		// action_error_message and cancels the flow.
		noOnError bool
		// wantErr is in the trace and the action_failed event; "" means
		// the action succeeds.
		wantErr   string
		wantReply string
		warning   string
		// holder names a pipe the script's grandchild holds (see actions.Hold),
		// which must not run after the turn.
		holder string
	}{
		{
			name: "exec succeeds", run: `exec: ["./ok.sh"]`,
			scripts:   map[string]string{"ok.sh": `cat >/dev/null; echo '{"balance": 12.5}'`},
			wantReply: "Your checking balance is 12.5.",
		},
		{
			name: "undeclared output is a warning", run: `exec: ["./ok.sh"]`,
			scripts:   map[string]string{"ok.sh": `cat >/dev/null; echo '{"balance": 7, "bonus": 1}'`},
			wantReply: "Your checking balance is 7.",
			warning:   `action "lookup" returned output "bonus", which its declaration does not list`,
		},
		{
			name: "exec sees the inputs", run: `exec: ["./in.sh"]`, account: "savings",
			scripts:   map[string]string{"in.sh": `grep -q '"inputs":{"account_type":"savings"}' && echo '{"balance": 1}'`},
			wantReply: "Your savings balance is 1.",
		},
		{
			name: "command missing", run: `exec: ["./missing.sh"]`,
			wantErr: `cannot start command "./missing.sh": no such file or directory`, wantReply: "The balance service is unavailable.",
		},
		{
			name: "garbage", run: `exec: ["./garbage.sh"]`,
			scripts: map[string]string{"garbage.sh": `echo 'balance=12'`},
			wantErr: `command "./garbage.sh" failed: output is not valid JSON`, wantReply: "The balance service is unavailable.",
		},
		{
			name: "nothing", run: `exec: ["./nothing.sh"]`,
			scripts: map[string]string{"nothing.sh": `true`},
			wantErr: `command "./nothing.sh" failed: no output: expected one JSON object`, wantReply: "The balance service is unavailable.",
		},
		{
			name: "10 MiB", run: `exec: ["./huge.sh"]`,
			scripts: map[string]string{"huge.sh": `head -c 10485760 /dev/zero`},
			wantErr: `command "./huge.sh" failed: output larger than 1 MiB`, wantReply: "The balance service is unavailable.",
		},
		{
			name: "exit 3 with stderr", run: `exec: ["./exit3.sh"]`,
			scripts: map[string]string{"exit3.sh": `echo 'ledger offline' >&2; exit 3`},
			wantErr: `command "./exit3.sh" failed: exit status 3; stderr: "ledger offline"`, wantReply: "The balance service is unavailable.",
		},
		{
			name: "exit 3 without on_error", run: `exec: ["./exit3.sh"]`, noOnError: true,
			scripts: map[string]string{"exit3.sh": `echo 'ledger offline' >&2; exit 3`},
			wantErr: `exit status 3; stderr: "ledger offline"`, wantReply: "Sorry, I could not look up the balance of the account.",
		},
		{
			name: "hangs past the timeout", run: "exec: [\"./hang.sh\"]\ntimeout: 500ms",
			scripts: map[string]string{"hang.sh": `echo 'about to hang' >&2; exec 3>hold.fifo; sleep 60 & echo started >&3; exec 3>&-; wait`},
			// The runner owns the timeout, so its whole message, stderr
			// included, reaches the trace.
			wantErr:   `command "./hang.sh" timed out after 500ms and was killed; stderr: "about to hang"`,
			wantReply: "The balance service is unavailable.", holder: "hold.fifo",
		},
		{
			name: "non-finite output", run: `exec: ["./inf.sh"]`,
			scripts: map[string]string{"inf.sh": `echo '{"balance": 1e400}'`},
			wantErr: `action "lookup" output "balance" for slot "balance": +Inf is not a finite number`, wantReply: "The balance service is unavailable.",
		},
		{
			name: "missing output map_outputs needs", run: `exec: ["./other.sh"]`,
			scripts: map[string]string{"other.sh": `echo '{"total": 3}'`},
			wantErr: `action "lookup" returned no output "balance"`, wantReply: "The balance service is unavailable.",
			warning: `action "lookup" returned output "total", which its declaration does not list`,
		},
		{
			name: "output of the wrong type", run: `exec: ["./text.sh"]`,
			scripts: map[string]string{"text.sh": `echo '{"balance": "lots"}'`},
			wantErr: `action "lookup" output "balance" for slot "balance"`, wantReply: "The balance service is unavailable.",
		},
		{
			name: "required input unset", run: `exec: ["./touch.sh"]`, account: "-",
			scripts: map[string]string{"touch.sh": `touch ran; echo '{"balance": 1}'`},
			wantErr: `action "lookup" needs slot "account_type", which is not set`, wantReply: "The balance service is unavailable.",
		},
		{
			name: "http succeeds", run: fmt.Sprintf(`http: {url: "%s/ok"}`, srv.URL),
			wantReply: "Your checking balance is 80.",
		},
		{
			name: "http 500", run: fmt.Sprintf(`http: {url: "%s/500"}`, srv.URL),
			wantErr: `POST ` + srv.URL + `/500: status 500 Internal Server Error: "ledger down"`, wantReply: "The balance service is unavailable.",
		},
		{
			name: "http 404", run: fmt.Sprintf(`http: {url: "%s/none"}`, srv.URL),
			wantErr: `status 404 Not Found`, wantReply: "The balance service is unavailable.",
		},
		{
			name: "http slow body", run: fmt.Sprintf(`http: {url: "%s/slow", timeout: 200ms}`, srv.URL),
			wantErr: `status 200, but the body did not arrive within 200ms`, wantReply: "The balance service is unavailable.",
		},
		{
			name: "http invalid JSON", run: fmt.Sprintf(`http: {url: "%s/garbage"}`, srv.URL),
			wantErr: `status 200, but output is not valid JSON`, wantReply: "The balance service is unavailable.",
		},
		{
			name: "http redirect loop", run: fmt.Sprintf(`http: {url: "%s/loop"}`, srv.URL),
			wantErr: `stopped after 5 redirects`, wantReply: "The balance service is unavailable.",
		},
		{
			name: "http connection refused", run: fmt.Sprintf(`http: {url: "%s/ok"}`, refused),
			wantErr: `connection failed: dial tcp`, wantReply: "The balance service is unavailable.",
		},
		{
			name: "http connection refused without on_error", run: fmt.Sprintf(`http: {url: "%s/ok"}`, refused), noOnError: true,
			wantErr: `connection failed: dial tcp`, wantReply: "Sorry, I could not look up the balance of the account.",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			eng, dir := loadProject(t, tc.run, !tc.noOnError, tc.scripts)
			var child *actions.Holder
			if tc.holder != "" {
				child = actions.Hold(t, dir, tc.holder)
			}
			account := tc.account
			switch account {
			case "":
				account = "checking"
			case "-":
				account = ""
			}
			ctx := context.Background()
			rep, err := eng.Handle(ctx, "s1", start(account))
			require.NoError(t, err, "a failed action does not fail the turn")

			// The reply and the end of the flow.
			require.NotEmpty(t, rep.Replies)
			assert.Equal(t, tc.wantReply, rep.Replies[len(rep.Replies)-1])
			assert.Nil(t, rep.Pending)
			assert.Empty(t, rep.State.Stack, "the flow ended")

			// The events and the trace say what happened.
			var failed, executed []vm.Event
			var ended vm.EventType
			for _, ev := range rep.Events {
				switch ev.Type {
				case vm.EventActionFailed:
					failed = append(failed, ev)
				case vm.EventActionExecuted:
					executed = append(executed, ev)
				case vm.EventFlowCompleted, vm.EventFlowCancelled:
					if ev.Flow == "check" {
						ended = ev.Type
					}
				}
			}
			trace := strings.Join(rep.Trace, "\n")
			if tc.wantErr == "" {
				assert.Empty(t, failed)
				require.Len(t, executed, 1)
				assert.Equal(t, "lookup", executed[0].Action)
				assert.Equal(t, vm.EventFlowCompleted, ended)
			} else {
				assert.Empty(t, executed)
				require.Len(t, failed, 1)
				assert.Equal(t, "lookup", failed[0].Action)
				assert.Contains(t, failed[0].Error, tc.wantErr)
				assert.Contains(t, trace, "action lookup failed: ")
				assert.Contains(t, trace, tc.wantErr)
				if tc.noOnError {
					assert.Equal(t, vm.EventFlowCancelled, ended)
				} else {
					assert.Equal(t, vm.EventFlowCompleted, ended)
				}
			}
			if tc.warning != "" {
				assert.Equal(t, []string{tc.warning}, rep.Warnings)
				assert.Contains(t, rep.Trace, "warning: "+tc.warning)
			} else {
				assert.Empty(t, rep.Warnings)
			}

			// The checkpoint has the new revision and decodes.
			assert.Equal(t, uint64(1), rep.Revision)
			b, rev, err := eng.Store().Load(ctx, "s1")
			require.NoError(t, err)
			assert.Equal(t, uint64(1), rev)
			st, err := eng.Codec().Decode(b)
			require.NoError(t, err)
			assert.Equal(t, uint64(1), st.Revision)
			assert.Empty(t, st.Stack)

			// The conversation goes on: the next turn saves revision 2.
			rep2, err := eng.Handle(ctx, "s1", vm.Input{Commands: []vm.Command{}})
			require.NoError(t, err)
			assert.Equal(t, uint64(2), rep2.Revision)

			if tc.name == "required input unset" {
				_, err := os.Stat(filepath.Join(dir, "ran"))
				assert.ErrorIs(t, err, os.ErrNotExist, "the command must not run")
			}
			if child != nil {
				child.WaitEnded(t, "the grandchild")
			}

		})
	}
}
