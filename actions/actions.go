// Package actions runs the actions that a soni program's action steps call,
// against real systems: Go functions registered by name, commands declared
// with `run: {exec: [...]}` and HTTP endpoints declared with
// `run: {http: {url: ...}}`.
//
// A [Runner] implements [vm.ActionRunner]. For each call it picks, in
// order: the Go function registered under the action's name, the
// declaration's exec command, its http endpoint. An action with none of
// these fails with a message that says how to provide one.
//
// Every runner speaks the same protocol: the request is one JSON object
// {"action": ..., "session": ..., "inputs": {...}} and the outputs are one
// JSON object. Output size is capped (1 MiB by default), every call has a
// timeout (10s by default, or the declaration's), and an exec command gets
// its whole request before it starts. On Linux, in a program that called
// [EnableSupervisor], an exec command runs under a supervisor process that
// kills everything the command started when the call ends, and when soni
// dies; elsewhere it runs in its own process group, which is killed as a
// whole. docs/actions.md describes the protocols and the failure messages.
package actions

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/soni-dev/soni/internal/jsonval"
	"github.com/soni-dev/soni/internal/supervise"
	"github.com/soni-dev/soni/internal/text"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/vm"
)

// DefaultTimeout bounds an exec or http action whose declaration gives no
// timeout.
const DefaultTimeout = 10 * time.Second

// DefaultMaxOutput is the largest output, in bytes, an exec command may
// print or an HTTP endpoint may answer with.
const DefaultMaxOutput = 1 << 20

// stderrTail is how much of the end of a command's stderr a failure quotes.
const stderrTail = 4 << 10

// Options configure a [Runner]. Every field is optional.
type Options struct {
	// Timeout bounds each exec command and each HTTP attempt whose
	// declaration has no timeout; default [DefaultTimeout].
	Timeout time.Duration
	// MaxOutput is the output size limit in bytes; default
	// [DefaultMaxOutput].
	MaxOutput int64
	// LookupEnv reads the environment for ${VAR} references in HTTP
	// declarations and for the variables passed to commands; default
	// os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Transport sends the HTTP requests; default a clone of
	// http.DefaultTransport.
	Transport http.RoundTripper
	// RasaSenderSuffix is added to the session id that a Rasa action
	// server sees as the sender_id. soni test sets a suffix per run, so
	// that an action server that keeps state per sender (a demo's
	// balances) does not see the last run's.
	RasaSenderSuffix string
}

// Runner runs the actions of one program. It is safe for concurrent use;
// functions may be registered at any time.
type Runner struct {
	prog  *ir.Program
	dir   string
	opts  Options
	funcs vm.Registry
	names sync.Map // action name -> struct{}: registered functions
	// validators are the registered Go validator functions.
	validators vm.ValidatorRegistry
	http       *httpClient
	// times holds the parsed durations of each declaration: parsed once,
	// for the program's declarations in New, else on first use.
	times sync.Map // *ir.Action -> *runTimes
	// domain is the domain a Rasa action server receives, built once.
	domain     map[string]any
	domainOnce sync.Once
	// supervised runs exec commands under a supervisor (EnableSupervisor);
	// otherwise each runs in a process group of its own.
	supervised bool
}

// runTimes are the durations of one action declaration, parsed once.
type runTimes struct {
	// timeout bounds a command, a Go function call or one HTTP attempt.
	timeout time.Duration
	// backoff is the pause before the first HTTP retry.
	backoff time.Duration
	// err is the first invalid duration: the call fails with it.
	err error
}

// New returns a runner for the actions of prog. dir is the project
// directory: exec commands run there, and a relative command path is
// resolved against it. prog may be nil, in which case only registered
// functions and the declarations carried by each request are used.
func New(prog *ir.Program, dir string, opts Options) *Runner {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxOutput <= 0 {
		opts.MaxOutput = DefaultMaxOutput
	}
	if opts.LookupEnv == nil {
		opts.LookupEnv = os.LookupEnv
	}
	r := &Runner{prog: prog, dir: dir, opts: opts, supervised: supervise.Enabled()}
	r.http = newHTTPClient(opts.Transport)
	if prog != nil {
		for _, a := range prog.Actions {
			r.timesOf("action", a)
		}
		for _, a := range prog.Validators {
			r.timesOf("validator", a)
		}
	}
	return r
}

// timesOf returns the parsed durations of the declaration of an action or
// a validator, as what says (decl may be nil: the defaults).
func (r *Runner) timesOf(what string, decl *ir.Action) *runTimes {
	if decl == nil {
		return &runTimes{timeout: r.opts.Timeout, backoff: defaultBackoff}
	}
	if t, ok := r.times.Load(decl); ok {
		return t.(*runTimes)
	}
	t := &runTimes{timeout: r.opts.Timeout, backoff: defaultBackoff}
	parse := func(field, text string, into *time.Duration) {
		if text == "" || t.err != nil {
			return
		}
		d, err := ir.ParseDuration(text)
		if err != nil {
			t.err = fmt.Errorf("%s of %s %q: %v", field, what, decl.Name, err)
			return
		}
		*into = d
	}
	if run := decl.Run; run != nil {
		parse("run.timeout", run.Timeout, &t.timeout)
		for _, e := range []struct {
			kind string
			h    *ir.HTTP
		}{{"http", run.HTTP}, {"rasa", run.Rasa}} {
			if kind, h := e.kind, e.h; h != nil {
				parse("run."+kind+".timeout", h.Timeout, &t.timeout)
				if h.Retry != nil {
					parse("run."+kind+".retry.backoff", h.Retry.Backoff, &t.backoff)
				}
			}
		}
	}
	actual, _ := r.times.LoadOrStore(decl, t)
	return actual.(*runTimes)
}

// Register binds an action name to a Go function, replacing any earlier
// one. A registered function is used before the declaration's run block.
func (r *Runner) Register(name string, fn vm.ActionFunc) {
	r.funcs.Register(name, fn)
	r.names.Store(name, struct{}{})
}

// Dir returns the project directory the runner runs commands in.
func (r *Runner) Dir() string { return r.dir }

// RunAction runs one action: the registered function, else the declared
// exec command, else the declared http endpoint, each within the action's
// timeout (its declaration's, else Options.Timeout), which the runner owns.
// (Required inputs are the VM's to check: it never calls an action whose
// required inputs are unset.) Output keys the declaration does not list are
// reported through req.Warn.
func (r *Runner) RunAction(ctx context.Context, req vm.ActionRequest) (map[string]any, error) {
	decl := req.Decl
	if decl == nil && r.prog != nil {
		decl = r.prog.Action(req.Action)
	}
	times := r.timesOf("action", decl)
	if times.err != nil {
		return nil, times.err
	}
	var (
		out map[string]any
		err error
	)
	_, registered := r.names.Load(req.Action)
	switch {
	case registered:
		out, err = r.runFunc(ctx, req, times.timeout)
	case decl != nil && decl.Run != nil && len(decl.Run.Exec) > 0:
		body, berr := encodeRequest(req)
		if berr != nil {
			return nil, berr
		}
		out, err = r.runExec(ctx, body, decl, times.timeout)
	case decl != nil && decl.Run != nil && decl.Run.HTTP != nil:
		body, berr := encodeRequest(req)
		if berr != nil {
			return nil, berr
		}
		out, err = r.runHTTP(ctx, "action", body, decl, times)
	case decl != nil && decl.Run != nil && decl.Run.Rasa != nil:
		out, err = r.runRasa(ctx, req, decl, times)
	default:
		return nil, fmt.Errorf("action %q has no runner: declare run: exec/http/rasa, register a Go function, or stub it in tests", req.Action)
	}
	if err != nil {
		return nil, err
	}
	if err := sayMessages(req, decl, out); err != nil {
		return nil, err
	}
	if decl != nil && req.Warn != nil {
		for _, k := range undeclared(out, decl.Outputs) {
			req.Warn(fmt.Sprintf("action %q returned output %q, which its declaration does not list", req.Action, k))
		}
	}
	return out, nil
}

// runFunc calls a registered Go action function within timeout.
func (r *Runner) runFunc(ctx context.Context, req vm.ActionRequest, timeout time.Duration) (map[string]any, error) {
	return runGo(ctx, timeout, "action", req.Action, func(ctx context.Context) (map[string]any, error) {
		return r.funcs.RunAction(ctx, req)
	})
}

// runGo calls a registered Go function (of an action or a validator, as
// what says) within timeout. The function runs in its own goroutine, so
// one that ignores its context cannot hang the turn: the call fails when
// the timeout passes, and the function's late result is dropped.
func runGo[T any](ctx context.Context, timeout time.Duration, what, name string, fn func(context.Context) (T, error)) (T, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, errTimeout)
	defer cancel()
	type result struct {
		out T
		err error
	}
	var zero T
	ch := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				ch <- result{err: fmt.Errorf("%s %q panicked: %v", what, name, p)}
			}
		}()
		out, err := fn(ctx)
		ch <- result{out, err}
	}()
	select {
	case res := <-ch:
		if res.err != nil && errors.Is(context.Cause(ctx), errTimeout) {
			return zero, fmt.Errorf("%s %q (a Go function) did not finish within %s: %w", what, name, timeout, res.err)
		}
		return res.out, res.err
	case <-ctx.Done():
		if errors.Is(context.Cause(ctx), errTimeout) {
			return zero, fmt.Errorf("%s %q (a Go function) did not finish within %s", what, name, timeout)
		}
		return zero, ctx.Err()
	}
}

// undeclared returns the keys of out that are not in declared, sorted.
func undeclared(out map[string]any, declared []string) []string {
	var keys []string
	for k := range out {
		found := false
		for _, d := range declared {
			if d == k {
				found = true
				break
			}
		}
		if !found {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// request is the JSON object an exec command reads and an endpoint
// receives.
type request struct {
	Action         string         `json:"action"`
	Session        string         `json:"session"`
	Inputs         map[string]any `json:"inputs"`
	IdempotencyKey string         `json:"idempotency_key,omitempty"`
}

// encodeRequest returns the request JSON of a call. Unset inputs are null.
func encodeRequest(req vm.ActionRequest) ([]byte, error) {
	in := req.Inputs
	if in == nil {
		in = map[string]any{}
	}
	b, err := json.Marshal(request{Action: req.Action, Session: req.Session, Inputs: in, IdempotencyKey: req.IdempotencyKey})
	if err != nil {
		return nil, fmt.Errorf("action %q: cannot encode its inputs as JSON: %v", req.Action, err)
	}
	return b, nil
}

// decodeOutputs parses the outputs of an exec command or endpoint: exactly
// one JSON object. Integral numbers become int64, others float64.
func decodeOutputs(b []byte) (map[string]any, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, errors.New("no output: expected one JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("output is not valid JSON: %v (output starts %q)", err, text.Clip(string(bytes.TrimSpace(b)), 80))
	}
	switch _, err := dec.Token(); {
	case err == nil:
		return nil, fmt.Errorf("output has more than one JSON value (output starts %q)", text.Clip(string(bytes.TrimSpace(b)), 80))
	case err != io.EOF:
		return nil, fmt.Errorf("output has data after the JSON object: %v", err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("output is a JSON %s, not an object (output starts %q)", jsonval.Kind(v), text.Clip(string(bytes.TrimSpace(b)), 80))
	}
	return jsonval.Numbers(obj).(map[string]any), nil
}
