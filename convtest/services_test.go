package convtest

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/soni-dev/soni/actions"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// serviceEnv makes the test binary a service: it serves /quote and prints
// its URL (see TestMain).
const serviceEnv = "SONI_CONVTEST_SERVICE"

func TestMain(m *testing.M) {
	if os.Getenv(serviceEnv) == "1" {
		serveQuotes()
		return
	}
	os.Exit(m.Run())
}

// serveQuotes is the service the tests start: POST /quote answers
// {"price": 42}.
func serveQuotes() {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("quote service on http://%s\n", l.Addr())
	_ = http.Serve(l, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"price": 42})
	}))
}

const quoteProject = `version: "1.0"
actions:
  quote:
    outputs: [price]
    run:
      http: {url: "${QUOTE_URL:-http://127.0.0.1:1}/quote"}
flows:
  price:
    trigger: {intents: ["price"]}
    slots:
      - {name: price, type: number}
    steps:
      - {step: ask, type: action, call: quote, map_outputs: {price: price}, on_error: down}
      - {step: tell, type: say, message: "It costs {price}.", jump_to: __end__}
      - {step: down, type: say, message: "The quote service is down."}
`

const quoteCase = `test_cases:
  - test_case: priced
    steps:
      - user: price
      - bot: "It costs 42."
`

// TestServices: a test file's service is started before its cases, its
// URL reaches the actions through the variable the file names, and a
// service that does not start fails the file's cases with its reason.
func TestServices(t *testing.T) {
	t.Setenv(serviceEnv, "1")
	self, err := os.Executable()
	require.NoError(t, err)
	dir := t.TempDir()
	writeFile(t, dir, "flows.yaml", quoteProject)
	factory := func(p *ir.Program, dir string, env func(string) (string, bool)) vm.ActionRunner {
		return actions.New(p, dir, actions.Options{LookupEnv: env})
	}
	for _, tc := range []struct {
		name     string
		services string
		passed   int
		want     string
	}{
		{"started", "services:\n  QUOTE_URL: [" + self + "]\n", 1, ""},
		{"no service, no quote", "", 0, `+The quote service is down.`},
		{"service that fails", "services:\n  QUOTE_URL: [sh, -c, \"echo port taken >&2; exit 3\"]\n", 0,
			`service QUOTE_URL (sh -c echo port taken >&2; exit 3) exited before printing its URL: exit status 3; stderr: "port taken"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, t.TempDir(), "quote_test.yaml", "flows: "+dir+"\n"+tc.services+quoteCase)
			_, rep := run(t, []string{path}, Options{Actions: factory})
			assert.Equal(t, tc.passed, rep.Passed)
			if tc.want != "" {
				assert.Contains(t, textOf(t, rep), tc.want)
			}
		})
	}
}

// TestServicesNeedARunner: without an action runner nothing could use a
// service, so none is started.
func TestServicesNeedARunner(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "started")
	writeFile(t, dir, "flows.yaml", quoteProject)
	path := writeFile(t, t.TempDir(), "quote_test.yaml", "flows: "+dir+"\nservices:\n  QUOTE_URL: [sh, -c, \"touch "+marker+"; echo http://x\"]\n"+quoteCase)
	_, rep := run(t, []string{path}, Options{})
	assert.Equal(t, 0, rep.Passed)
	assert.NoFileExists(t, marker)
	assert.True(t, strings.Contains(textOf(t, rep), "no stub and no run"), textOf(t, rep))
}
