package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/soni-dev/soni/actions"
	"github.com/soni-dev/soni/convtest"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/understand"
	"github.com/soni-dev/soni/understand/llm"
	"github.com/soni-dev/soni/understand/llm/replay"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writtenSource marks the fixtures this test writes: no model is
// reachable from soni's build machines, so each answer is the one a model
// should give, written in the answer grammar from the built-in rules'
// reading of the same turn. The conversation tests passing on them checks
// each one. A recording (SONI_LLM_RECORD=1) replaces them with a real
// model's answers, through the same replay path (package understand/llm/replay).
const writtenSource = "written, not recorded: the built-in rules' reading of this turn, in the answer grammar (SONI_UPDATE=1 go test ./cmd/soni -run TestExamplesInLLMMode)"

// deriving remembers, before each turn goes to the model, the rules'
// reading of it in the answer grammar, for replay to write as the
// fixture when it has none.
type deriving struct {
	rules vm.Understander
	inner vm.Understander
	mu    *sync.Mutex
	next  *string
}

func (d deriving) Understand(ctx context.Context, msg string, v vm.View) ([]vm.Command, error) {
	cmds, err := d.rules.Understand(ctx, msg, v)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	*d.next = llm.FormatCommands(cmds)
	d.mu.Unlock()
	return d.inner.Understand(ctx, msg, v)
}

// TestExamplesInLLMMode runs every example project's conversation tests
// with the model as the understanding layer (llm, and hybrid), on the
// fixtures kept in the project's tests/llm directory: no network. The
// whole model path is exercised on every turn: the prompt, the request,
// the answer's parsing and validation, and the commands in the VM. With
// SONI_UPDATE=1 missing fixtures are written (see writtenSource).
func TestExamplesInLLMMode(t *testing.T) {
	update := os.Getenv("SONI_UPDATE") != ""
	for _, project := range []string{"banking", "support", "travel"} {
		// The prompt holds today's date, so a fixture's hash would change
		// every day: every example test file fixes its clock.
		files, _ := filepath.Glob(filepath.Join("..", "..", "flows", project, "tests", "*.yaml"))
		for _, f := range files {
			src, err := os.ReadFile(f)
			require.NoError(t, err)
			assert.Regexp(t, `(?m)^now: `, string(src), "%s: add now: 2026-06-01 (the model's prompt holds today's date, which its fixtures hash)", f)
		}
		used := map[string]bool{}
		for _, mode := range []string{"llm", "hybrid"} {
			t.Run(project+"/"+mode, func(t *testing.T) {
				dir := filepath.Join("..", "..", "flows", project)
				fixtures := filepath.Join(dir, "tests", "llm")
				var mu sync.Mutex
				var next string
				fake := &replay.Server{Dir: fixtures}
				if update {
					require.NoError(t, os.MkdirAll(fixtures, 0o755))
					fake.Record = func(replay.Request) (replay.Fixture, error) {
						mu.Lock()
						defer mu.Unlock()
						return replay.Fixture{Content: next, Source: writtenSource}, nil
					}
				}
				ts := httptest.NewServer(fake)
				defer ts.Close()
				opts := convtest.Options{
					Actions: func(p *ir.Program, dir string, env func(string) (string, bool)) vm.ActionRunner {
						return actions.New(p, dir, actions.Options{LookupEnv: env})
					},
					Understander: func(p *ir.Program, dir string) (vm.Understander, error) {
						u, _, err := llm.Select(p, dir, llm.Overrides{Mode: mode, BaseURL: ts.URL + "/v1", Model: fixtureModel}, nil)
						if err != nil || !update {
							return u, err
						}
						return deriving{rules: understand.New(p), inner: u, mu: &mu, next: &next}, nil
					},
				}
				if update {
					opts.Jobs = 1 // one turn at a time: next belongs to it
				}
				suite := convtest.Load([]string{filepath.Join(dir, "tests")}, opts)
				require.False(t, suite.Diags.HasErrors(), "%v", suite.Diags)
				rep := suite.Run(context.Background())
				var out bytes.Buffer
				require.NoError(t, convtest.WriteFailures(&out, rep, convtest.TextOptions{}))
				assert.Zero(t, rep.Failed, out.String())
				assert.NotZero(t, rep.Passed)
				if mode == "llm" {
					assert.NotEmpty(t, fake.Requests, "llm mode asks the model")
				}
				for _, r := range fake.Requests {
					used[replay.Key(r)+".json"] = true
				}
			})
		}
		// Every fixture is used: a stale one (the prompt or a test
		// changed) is removed by SONI_UPDATE=1, and fails the test
		// otherwise.
		t.Run(project+"/no stale fixtures", func(t *testing.T) {
			entries, err := os.ReadDir(filepath.Join("..", "..", "flows", project, "tests", "llm"))
			require.NoError(t, err)
			for _, e := range entries {
				if used[e.Name()] {
					continue
				}
				path := filepath.Join("..", "..", "flows", project, "tests", "llm", e.Name())
				if update {
					require.NoError(t, os.Remove(path))
					continue
				}
				t.Errorf("%s is no fixture of any turn: remove it with SONI_UPDATE=1 go test ./cmd/soni -run TestExamplesInLLMMode", path)
			}
		})
	}
}

// TestTestWithLLMFixtures: soni test --llm-fixtures answers the model's
// requests from a fixtures directory; a missing fixture fails the turn,
// names the message and writes the request out to be recorded.
func TestTestWithLLMFixtures(t *testing.T) {
	var out, errOut bytes.Buffer
	tests := filepath.Join("..", "..", "flows", "support", "tests")
	code := run(context.Background(), []string{"soni", "test", "--understanding", "llm", "--llm-fixtures", filepath.Join(tests, "llm"), tests}, strings.NewReader(""), &out, &errOut)
	require.Equal(t, exitOK, code, out.String()+errOut.String())
	assert.Regexp(t, `(?m)^\d+ passed, 0 failed$`, out.String())

	empty := t.TempDir()
	out.Reset()
	errOut.Reset()
	code = run(context.Background(), []string{"soni", "test", "--understanding", "llm", "--llm-fixtures", empty, "--run", "^ticket_happy_path$", tests}, strings.NewReader(""), &out, &errOut)
	assert.Equal(t, exitFailed, code)
	reqs, _ := filepath.Glob(filepath.Join(empty, "*.request.json"))
	assert.NotEmpty(t, reqs, "the missing request is written out")
	assert.Contains(t, errOut.String(), "distinct model requests had no fixture in "+empty)

	out.Reset()
	errOut.Reset()
	code = run(context.Background(), []string{"soni", "test", "--understanding", "llm", "--llm-fixtures", filepath.Join(empty, "nowhere"), tests}, strings.NewReader(""), &out, &errOut)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut.String(), fmt.Sprintf("the fixtures directory %q does not exist", filepath.Join(empty, "nowhere")))

	t.Setenv("SONI_LLM_RECORD", "1")
	t.Setenv("SONI_LLM_BASE_URL", "")
	code = run(context.Background(), []string{"soni", "test", "--understanding", "llm", "--llm-fixtures", empty, tests}, strings.NewReader(""), &out, &errOut)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut.String(), "SONI_LLM_RECORD=1 records from a real endpoint: set SONI_LLM_BASE_URL and SONI_LLM_MODEL")
}

// TestEvalWithLLMFixtures: soni eval takes --llm-fixtures too; a message
// with no fixture is counted as the model's fallback and fails the run,
// loudly.
func TestEvalWithLLMFixtures(t *testing.T) {
	var out, errOut bytes.Buffer
	empty := t.TempDir()
	code := run(context.Background(), []string{"soni", "eval", "--understanding", "llm", "--llm-fixtures", empty, filepath.Join("..", "..", "eval", "testdata", "small.eval.yaml")}, strings.NewReader(""), &out, &errOut)
	assert.Equal(t, exitFailed, code, out.String()+errOut.String())
	assert.Contains(t, out.String(), "small.eval.yaml: accuracy 12.5% (1/8)")
	assert.Contains(t, errOut.String(), "soni: eval: --llm-fixtures: 8 distinct model requests had no fixture in "+empty)
}
