package actions

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/soni-dev/soni/internal/text"

	"github.com/soni-dev/soni/ir"
)

// maxRedirects is how many redirects an HTTP action follows.
const maxRedirects = 5

// defaultBackoff is the pause before the first retry of an HTTP action;
// it doubles after each attempt.
const defaultBackoff = 200 * time.Millisecond

var errTooManyRedirects = fmt.Errorf("stopped after %d redirects (a redirect loop?)", maxRedirects)

// httpClient sends the requests of HTTP actions.
type httpClient struct {
	c *http.Client
}

func newHTTPClient(t http.RoundTripper) *httpClient {
	if t == nil {
		t = http.DefaultTransport.(*http.Transport).Clone()
	}
	return &httpClient{c: &http.Client{
		Transport: t,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > maxRedirects {
				return errTooManyRedirects
			}
			return nil
		},
	}}
}

// runHTTP POSTs the request JSON body to the endpoint of decl, the
// declaration of an action or a validator (what says which); a 2xx answer
// with one JSON object is the outputs.
func (r *Runner) runHTTP(ctx context.Context, what string, body []byte, decl *ir.Action, times *runTimes) (map[string]any, error) {
	return post(ctx, r, what, decl.Name, decl.Run.HTTP, nil, body, times, decodeAnswer)
}

// decodeAnswer reads the answer of an http action or validator: a 2xx
// status with one JSON object. retry says whether a failure may be
// retried (a 5xx status).
func decodeAnswer(status int, statusText string, b []byte) (map[string]any, bool, error) {
	if status < 200 || status > 299 {
		return nil, status >= 500, statusError(statusText, b)
	}
	out, err := decodeOutputs(b)
	if err != nil {
		return nil, false, fmt.Errorf("status %d, but %v", status, err)
	}
	return out, false, nil
}

// statusError is the failure of an answer with an unexpected status: the
// status and the start of the body.
func statusError(statusText string, b []byte) error {
	msg := fmt.Sprintf("status %s", statusText)
	if ex := text.Clip(string(bytes.TrimSpace(b)), 200); ex != "" {
		msg += fmt.Sprintf(": %q", ex)
	}
	return errors.New(msg)
}

// post POSTs body to the endpoint h of the action or validator name (what
// says which), with h's headers and retry policy, and decodes each answer
// with decode, which also says whether a failure may be retried. fix, when
// not nil, adjusts the parsed URL (a Rasa action server's /webhook).
func post[T any](ctx context.Context, r *Runner, what, name string, h *ir.HTTP, fix func(*url.URL), body []byte, times *runTimes, decode func(status int, statusText string, b []byte) (T, bool, error)) (T, error) {
	var zero T
	timeout, backoff := times.timeout, times.backoff
	attempts := 1
	if h.Retry != nil && h.Retry.Attempts > 1 {
		attempts = h.Retry.Attempts
	}
	rawURL, err := expandEnv(h.URL, r.opts.LookupEnv)
	if err != nil {
		return zero, fmt.Errorf("url of %s %q: %v", what, name, err)
	}
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return zero, fmt.Errorf("url of %s %q: %q is not an http or https URL", what, name, rawURL)
	}
	if fix != nil {
		fix(u)
	}
	headers := make(http.Header, len(h.Headers))
	names := make([]string, 0, len(h.Headers))
	for k := range h.Headers {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		v, err := expandEnv(h.Headers[k], r.opts.LookupEnv)
		if err != nil {
			return zero, fmt.Errorf("header %q of %s %q: %v", k, what, name, err)
		}
		headers.Set(k, v)
	}
	var failures []string
	for attempt := 1; ; attempt++ {
		out, retry, err := postOnce(ctx, r, u.String(), headers, body, timeout, decode)
		if err == nil {
			return out, nil
		}
		if attempts > 1 {
			failures = append(failures, fmt.Sprintf("attempt %d: %v", attempt, err))
		}
		if !retry || attempt >= attempts || ctx.Err() != nil {
			if len(failures) > 1 {
				return zero, fmt.Errorf("POST %s failed %d times: %s", redact(u), attempt, strings.Join(failures, "; "))
			}
			return zero, fmt.Errorf("POST %s: %w", redact(u), err)
		}
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			failures = append(failures, fmt.Sprintf("gave up waiting to retry: %v", ctx.Err()))
			return zero, fmt.Errorf("POST %s failed %d times: %s", redact(u), attempt, strings.Join(failures, "; "))
		case <-t.C:
		}
		backoff *= 2
	}
}

// postOnce makes one attempt and decodes its answer with decode. retry
// says whether the failure may be retried: a connection error, or what
// decode says (a 5xx status).
func postOnce[T any](ctx context.Context, r *Runner, target string, headers http.Header, body []byte, timeout time.Duration, decode func(int, string, []byte) (T, bool, error)) (out T, retry bool, err error) {
	var zero T
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, errTimeout)
	defer cancel()
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return zero, false, err
	}
	for k, v := range headers {
		hreq.Header[k] = v
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/json")
	resp, err := r.http.c.Do(hreq)
	if err != nil {
		switch {
		case errors.Is(context.Cause(ctx), errTimeout):
			return zero, false, fmt.Errorf("no answer within %s", timeout)
		case ctx.Err() != nil:
			return zero, false, ctx.Err()
		case errors.Is(err, errTooManyRedirects):
			return zero, false, errTooManyRedirects
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return zero, true, fmt.Errorf("connection failed: %v", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, r.opts.MaxOutput+1))
	if err != nil {
		if errors.Is(context.Cause(ctx), errTimeout) {
			return zero, false, fmt.Errorf("status %d, but the body did not arrive within %s", resp.StatusCode, timeout)
		}
		if ctx.Err() != nil {
			return zero, false, ctx.Err()
		}
		return zero, true, fmt.Errorf("status %d, reading the body: %v", resp.StatusCode, err)
	}
	if int64(len(b)) > r.opts.MaxOutput {
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			return zero, resp.StatusCode >= 500, statusError(resp.Status, b[:r.opts.MaxOutput])
		}
		return zero, false, fmt.Errorf("answer larger than %s", sizeText(r.opts.MaxOutput))
	}
	return decode(resp.StatusCode, resp.Status, b)
}

// redact returns the URL without its user information or query, which
// may carry secrets, for messages.
func redact(u *url.URL) string {
	c := *u
	c.User = nil
	c.RawQuery = ""
	c.ForceQuery = false
	c.Fragment = ""
	return c.String()
}

// expandEnv replaces ${NAME} and ${NAME:-default} in s by the value of the
// environment variable NAME. An unset NAME without a default is an error;
// with ":-" the default is used when NAME is unset or empty. A "$" not
// followed by "{" is kept as it is.
func expandEnv(s string, lookup func(string) (string, bool)) (string, error) {
	if !strings.Contains(s, "${") {
		return s, nil
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		b.WriteString(s[:i])
		rest := s[i+2:]
		j := strings.IndexByte(rest, '}')
		if j < 0 {
			return "", fmt.Errorf("unclosed ${ in %q", s)
		}
		ref := rest[:j]
		name, def, hasDef := strings.Cut(ref, ":-")
		if !validEnvName(name) {
			return "", fmt.Errorf("invalid environment variable reference %q", "${"+ref+"}")
		}
		v, ok := lookup(name)
		switch {
		case hasDef && v == "":
			v = def
		case !ok:
			return "", fmt.Errorf("environment variable %q is not set", name)
		}
		b.WriteString(v)
		s = rest[j+1:]
	}
}

// validEnvName reports whether s is a shell-style variable name.
func validEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		switch {
		case c == '_', c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
