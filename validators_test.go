package soni_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// validatorsYAML asks for an account number checked by a named
// validator, then says it back. VALIDATOR is replaced per test.
const validatorsYAML = `version: "1.0"
validators:
  account_check:
    description: Our bank's account numbers
    run:
      RUN
flows:
  open:
    trigger:
      intents: ["open account"]
    steps:
      - step: ask
        type: collect
        slot: account
        message: "Which account?"
        validator: VALIDATOR
      - step: done
        type: say
        message: "Account {account}."
`

func validatorEngine(t *testing.T, validator, run string) *soni.Engine {
	t.Helper()
	src := strings.ReplaceAll(validatorsYAML, "VALIDATOR", validator)
	src = strings.ReplaceAll(src, "RUN", run)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "flows.yaml"), []byte(src), 0o644))
	e, err := soni.Load(dir, soni.Options{})
	require.NoError(t, err)
	return e
}

func say(t *testing.T, e *soni.Engine, text string) *soni.Reply {
	t.Helper()
	r, err := e.Handle(context.Background(), "s", vm.Input{Text: text})
	require.NoError(t, err)
	return r
}

// TestValidatorRunners: a named validator runs as a Go function, an exec
// command or an HTTP endpoint, with one protocol: the value in, {valid,
// value?, message?} out. Its message is what the bot says for a refused
// value; its value replaces the answer.
func TestValidatorRunners(t *testing.T) {
	check := func(value string) map[string]any {
		v := strings.ToUpper(strings.ReplaceAll(value, " ", ""))
		if strings.HasPrefix(v, "AC") {
			return map[string]any{"valid": true, "value": v}
		}
		return map[string]any{"valid": false, "message": "Our account numbers start with AC."}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Validator, Session, Slot string
			Value                    any
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Validator != "account_check" || req.Slot != "account" || req.Session != "s" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		_ = json.NewEncoder(w).Encode(check(req.Value.(string)))
	}))
	defer srv.Close()
	script := filepath.Join(t.TempDir(), "check.sh")
	require.NoError(t, os.WriteFile(script, []byte(`#!/bin/sh
read -r line
case "$line" in
  *'"value":"ac'*|*'"value":"AC'*) echo '{"valid": true, "value": "AC-EXEC"}' ;;
  *) echo '{"valid": false, "message": "Our account numbers start with AC."}' ;;
esac
`), 0o755))

	tests := []struct {
		name, run string
		register  bool
		want      string
	}{
		{"go", `timeout: 5s`, true, "Account AC123."},
		{"exec", `exec: ["` + script + `"]`, false, "Account AC-EXEC."},
		{"http", `http: {url: "` + srv.URL + `"}`, false, "Account AC123."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := validatorEngine(t, "account_check", tt.run)
			if tt.register {
				e.RegisterValidator("account_check", func(_ context.Context, req vm.ValidatorRequest) (vm.Verdict, error) {
					out := check(req.Value.(string))
					v := vm.Verdict{Valid: out["valid"].(bool), Value: out["value"]}
					v.Message, _ = out["message"].(string)
					return v, nil
				})
			}
			assert.Equal(t, []string{"Which account?"}, say(t, e, "open account").Replies)
			r := say(t, e, "xy 99")
			assert.Equal(t, []string{"Our account numbers start with AC.", "Which account?"}, r.Replies)
			assert.Empty(t, r.Warnings)
			assert.Equal(t, []string{tt.want}, say(t, e, "ac 123").Replies)
		})
	}
}

// TestValidatorFailures: a validator that cannot give a verdict (no
// runner, a failing command, a malformed answer, a panic) never lets the
// value in; the user hears the invalid message and the turn carries a
// warning that names the validator and the cause.
func TestValidatorFailures(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.sh")
	require.NoError(t, os.WriteFile(bad, []byte("#!/bin/sh\necho '{\"ok\": true}'\n"), 0o755))
	failing := filepath.Join(dir, "failing.sh")
	require.NoError(t, os.WriteFile(failing, []byte("#!/bin/sh\necho 'database down' >&2\nexit 3\n"), 0o755))
	tests := []struct {
		name, validator, run string
		fn                   vm.ValidatorFunc
		warning              string
	}{
		{"undeclared, nothing registered", "branch_code", `timeout: 1s`, nil, `validator "branch_code" has no runner`},
		{"malformed answer", "account_check", `exec: ["` + bad + `"]`, nil, `answered without a boolean "valid"`},
		{"failing command", "account_check", `exec: ["` + failing + `"]`, nil, "database down"},
		{"go error", "account_check", `timeout: 1s`, func(context.Context, vm.ValidatorRequest) (vm.Verdict, error) {
			return vm.Verdict{}, errors.New("registry offline")
		}, "registry offline"},
		{"go panic", "account_check", `timeout: 1s`, func(context.Context, vm.ValidatorRequest) (vm.Verdict, error) {
			panic("boom")
		}, `validator "account_check" panicked: boom`},
		{"value of the wrong kind", "account_check", `timeout: 1s`, func(context.Context, vm.ValidatorRequest) (vm.Verdict, error) {
			return vm.Verdict{Valid: true, Value: ""}, nil
		}, `returned value "", which is not a valid`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := validatorEngine(t, tt.validator, tt.run)
			if tt.fn != nil {
				e.RegisterValidator(tt.validator, tt.fn)
			}
			say(t, e, "open account")
			r := say(t, e, "AC1")
			assert.Equal(t, "Which account?", r.Replies[len(r.Replies)-1])
			require.Len(t, r.Warnings, 1)
			assert.Contains(t, r.Warnings[0], tt.warning)
			assert.Contains(t, r.Warnings[0], "the answer was not accepted")
			_, set := r.Slots()["account"]
			assert.False(t, set)
		})
	}
}

// TestUndeclaredValidatorWarns: a validator name that is neither built in
// nor declared compiles with W015, like an undeclared action.
func TestUndeclaredValidatorWarns(t *testing.T) {
	src := strings.ReplaceAll(strings.ReplaceAll(validatorsYAML, "VALIDATOR", "acount_check"), "RUN", "timeout: 1s")
	r := compiler.CompileSource("flows.yaml", []byte(src), compiler.Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	require.Len(t, r.Diags, 1)
	assert.Equal(t, "W015", r.Diags[0].Code)
	assert.Contains(t, r.Diags[0].Message, `validator "acount_check" is neither built in nor declared`)
	assert.Equal(t, `did you mean "account_check"?`, r.Diags[0].Suggestion)
}
