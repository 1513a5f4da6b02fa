package serve

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// api checks the answers of the HTTP tests against the OpenAPI
// description, and records which operations the tests reached.
var api struct {
	once sync.Once
	v    validator.Validator
	ops  []string // "METHOD /path" of every operation described
	err  error

	mu   sync.Mutex
	seen map[string]bool
}

func openAPIValidator() (validator.Validator, error) {
	api.once.Do(func() {
		doc, err := libopenapi.NewDocument(OpenAPI)
		if err != nil {
			api.err = err
			return
		}
		v, errs := validator.NewValidator(doc)
		if len(errs) > 0 {
			api.err = fmt.Errorf("%v", errs)
			return
		}
		api.v = v
		model, err := doc.BuildV3Model()
		if err != nil {
			api.err = err
			return
		}
		for path, item := range model.Model.Paths.PathItems.FromOldest() {
			for method := range item.GetOperations().FromOldest() {
				api.ops = append(api.ops, strings.ToUpper(method)+" "+path)
			}
		}
		slices.Sort(api.ops)
		api.seen = map[string]bool{}
	})
	return api.v, api.err
}

// recorder passes a response on as it is written (streams stream) and
// keeps a copy to check.
type recorder struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	r.body.Write(b)
	return r.ResponseWriter.Write(b)
}

func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// checkedAgainstAPI serves with h and checks each answer against the
// OpenAPI description: an operation it describes, a status it lists for
// it, a body of the schema it gives. Paths it does not describe (an
// unknown endpoint) must be answered 404.
func checkedAgainstAPI(t *testing.T, h http.Handler) http.Handler {
	v, err := openAPIValidator()
	require.NoError(t, err)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &recorder{ResponseWriter: w}
		h.ServeHTTP(rec, r)
		if r.Context().Err() != nil {
			return // the client is gone and reads no answer
		}
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		resp := &http.Response{StatusCode: rec.status, Header: w.Header().Clone(), Body: io.NopCloser(bytes.NewReader(rec.body.Bytes())), Request: r}
		req := r.Clone(r.Context())
		req.Body = http.NoBody
		ok, errs := v.ValidateHttpResponse(req, resp)
		if ok {
			api.mu.Lock()
			api.seen[r.Method+" "+describedPath(r)] = true
			api.mu.Unlock()
			return
		}
		for _, e := range errs {
			if e.IsPathMissingError() || e.IsOperationMissingError() {
				if rec.status != http.StatusNotFound && r.Method != http.MethodOptions {
					t.Errorf("%s %s: answered %d, but the OpenAPI description has no such operation", r.Method, r.URL.Path, rec.status)
				}
				return
			}
		}
		t.Errorf("%s %s: answer %d does not match the OpenAPI description: %v\n%s", r.Method, r.URL.Path, rec.status, errs, rec.body.String())
	})
}

// describedPath is the description's path of a request.
func describedPath(r *http.Request) string {
	p := r.URL.Path
	switch {
	case strings.HasPrefix(p, "/v1/sessions/"):
		rest := strings.TrimPrefix(p, "/v1/sessions/")
		if _, tail, ok := strings.Cut(rest, "/"); ok {
			return "/v1/sessions/{id}/" + tail
		}
		return "/v1/sessions/{id}"
	case strings.HasPrefix(p, "/inspect/"):
		return "/inspect/"
	}
	return p
}

// TestMain runs the tests, then, when all of them ran, that they reached
// every operation the OpenAPI description has: no operation goes
// unchecked.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 && flag.Lookup("test.run").Value.String() == "" && api.v != nil {
		var missed []string
		for _, op := range api.ops {
			if !api.seen[op] {
				missed = append(missed, op)
			}
		}
		if len(missed) > 0 {
			fmt.Fprintf(os.Stderr, "FAIL: no HTTP test reached these operations of the OpenAPI description: %s\n", strings.Join(missed, ", "))
			code = 1
		}
	}
	os.Exit(code)
}

// TestOpenAPI: the description is valid OpenAPI 3.1 (checked by
// libopenapi-validator against the specification's schema), /openapi.json
// serves it without a token, and docs/openapi.json is the same file.
func TestOpenAPI(t *testing.T) {
	v, err := openAPIValidator()
	require.NoError(t, err)
	ok, errs := v.ValidateDocument()
	assert.True(t, ok, "%v", errs)

	ts, _ := newShop(t, Options{Token: "t0k"}, nil)
	resp, body := do(t, ts, http.MethodGet, "/openapi.json")
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, string(OpenAPI), body)

	docs := filepath.Join("..", "docs", "openapi.json")
	if os.Getenv("SONI_UPDATE") != "" {
		require.NoError(t, os.WriteFile(docs, OpenAPI, 0o644))
	}
	inDocs, err := os.ReadFile(docs)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(OpenAPI, inDocs), "docs/openapi.json differs from serve/openapi.json: SONI_UPDATE=1 go test ./serve copies it")
}
