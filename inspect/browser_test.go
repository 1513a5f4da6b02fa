package inspect_test

import (
	"context"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/actions"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/convtest"
	"github.com/soni-dev/soni/inspect"
	"github.com/soni-dev/soni/internal/browsertest"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/serve"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// server serves flows/banking with the inspector, its files from files
// (nil: the embedded ones), on a memory store.
func server(t *testing.T, files fs.FS) (url, project string) {
	t.Helper()
	return serverOf(t, "banking", files)
}

// serverOf serves the example project flows/NAME with the inspector.
func serverOf(t *testing.T, name string, files fs.FS) (url, project string) {
	t.Helper()
	project, err := filepath.Abs(filepath.Join("..", "flows", name))
	require.NoError(t, err)
	r := compiler.Compile(project, compiler.Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	eng, err := soni.New(r.Program, soni.Options{Store: checkpoints.NewMemoryStore(), Dir: project, Actions: actions.New(r.Program, project, actions.Options{})})
	require.NoError(t, err)
	srv := serve.New(eng, serve.Options{Inspect: true, InspectFiles: files, Project: project})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return ts.URL, project
}

// browser starts a headless Chromium with a fresh profile and no network.
func browser(t *testing.T) context.Context { return browsertest.New(t) }

// shots is where the screenshots go: $SONI_ARTIFACTS/inspect in CI
// (docs/inspect.md), else a temporary directory.
func shots(t *testing.T) string {
	dir := t.TempDir()
	if a := os.Getenv("SONI_ARTIFACTS"); a != "" {
		dir = filepath.Join(a, "inspect")
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	return dir
}

// page reads what the inspector shows.
type page struct {
	ctx  context.Context
	dir  string
	shot int
}

func (p *page) run(actions ...chromedp.Action[chromedp.Void]) error {
	return chromedp.Do(p.ctx, actions...)
}

// eval evaluates JavaScript in the page.
func eval[T any](p *page, js string) (T, error) { return chromedp.Run(p.ctx, chromedp.Evaluate[T](js)) }

func (p *page) screenshot(name string) error {
	buf, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		return err
	}
	p.shot++
	return os.WriteFile(filepath.Join(p.dir, fmt.Sprintf("%02d-%s.png", p.shot, name)), buf, 0o644)
}

// turn waits for the page to show a revision.
func (p *page) waitRevision(rev int) error {
	return p.run(chromedp.Poll[chromedp.Void](fmt.Sprintf(`document.getElementById("revision").textContent === "%d" && !document.getElementById("status").textContent.startsWith("sending")`, rev)))
}

func (p *page) say(text string, rev int) error {
	if err := p.run(chromedp.SendKeys(chromedp.CSS("#text"), text+"\r")); err != nil {
		return err
	}
	return p.waitRevision(rev)
}

func (p *page) click(selector string, rev int) error {
	if err := p.run(chromedp.Click(chromedp.CSS(selector), chromedp.NodeVisible)); err != nil {
		return err
	}
	return p.waitRevision(rev)
}

// expect checks what the page shows after a turn: the step highlighted as
// current, the stack, the slots highlighted as changed, and a reply.
type expect struct {
	current string
	stack   []string
	changed []string
	reply   string
	visited []string
}

func (p *page) check(stage string, want expect) error {
	current, err := eval[string](p, `(document.querySelector("g.node.current") || {dataset: {}}).dataset.step || ""`)
	if err != nil {
		return err
	}
	stack, err := eval[[]string](p, `Array.from(document.querySelectorAll("#stack li")).map(li => li.textContent.split(" at ")[0]).filter(s => s !== "(empty)")`)
	if err != nil {
		return err
	}
	changed, err := eval[[]string](p, `Array.from(document.querySelectorAll("#slots tr.changed")).map(tr => tr.dataset.slot).sort()`)
	if err != nil {
		return err
	}
	visited, err := eval[[]string](p, `Array.from(document.querySelectorAll("g.node.visited")).map(g => g.dataset.step)`)
	if err != nil {
		return err
	}
	bots, err := eval[[]string](p, `Array.from(document.querySelectorAll("#messages li.bot")).map(li => li.textContent)`)
	if err != nil {
		return err
	}
	var problems []string
	if current != want.current {
		problems = append(problems, fmt.Sprintf("current step %q, want %q", current, want.current))
	}
	if strings.Join(stack, ",") != strings.Join(want.stack, ",") {
		problems = append(problems, fmt.Sprintf("stack %q, want %q", stack, want.stack))
	}
	if strings.Join(changed, ",") != strings.Join(want.changed, ",") {
		problems = append(problems, fmt.Sprintf("changed slots %q, want %q", changed, want.changed))
	}
	for _, v := range want.visited {
		if !strings.Contains(","+strings.Join(visited, ",")+",", ","+v+",") {
			problems = append(problems, fmt.Sprintf("step %q not marked on the last turn's path %q", v, visited))
		}
	}
	if len(bots) == 0 || !strings.Contains(bots[len(bots)-1], want.reply) {
		problems = append(problems, fmt.Sprintf("last reply %q, want it to contain %q", bots, want.reply))
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s: %s", stage, strings.Join(problems, "; "))
	}
	return p.screenshot(stage)
}

// scenario runs the banking transfer in the page: by typing and by
// clicking, with a correction at the confirmation, then saves it as a
// test. It returns the saved test file.
func scenario(p *page, url string) (string, error) {
	steps := []func() error{
		func() error {
			return p.run(chromedp.Navigate(url+"/inspect/#session=e2e"), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`)))
		},
		func() error { return p.screenshot("open") },
		func() error { return p.say("I want to send money", 1) },
		func() error {
			return p.check("transfer-started", expect{current: "ask_recipient", stack: []string{"transfer_funds"}, reply: "Who should receive the money?", visited: []string{"ask_recipient"}})
		},
		func() error { return p.say("Ana", 2) },
		func() error {
			return p.check("recipient", expect{current: "ask_amount", stack: []string{"transfer_funds"}, changed: []string{"recipient"}, reply: "How much?"})
		},
		func() error { return p.say("50", 3) },
		func() error {
			return p.check("amount", expect{current: "ask_account", stack: []string{"transfer_funds"}, changed: []string{"amount"}, reply: "checking or savings"})
		},
		// The categorical question's buttons.
		func() error { return p.click(`#buttons button:first-child`, 4) },
		func() error {
			return p.check("account-by-button", expect{current: "confirm_transfer", stack: []string{"transfer_funds"}, changed: []string{"account_type", "available"}, reply: "Send 50 from your checking account to Ana?", visited: []string{"check_funds", "enough_funds", "confirm_transfer"}})
		},
		// A correction at the confirmation: the bank's pattern_correction
		// asks first; its Yes button applies it, and the graph goes back
		// to where the amount was collected and runs the funds check again.
		func() error { return p.say("actually 60", 5) },
		func() error {
			return p.check("correction-asks", expect{current: "ask", stack: []string{"transfer_funds", "pattern_correction"}, reply: "Do you want to update the amount to 60?"})
		},
		func() error { return p.click(`#buttons button:first-child`, 6) },
		func() error {
			return p.check("corrected", expect{current: "confirm_transfer", stack: []string{"transfer_funds"}, changed: []string{"amount"}, reply: "Send 60 from your checking account to Ana?", visited: []string{"check_funds", "enough_funds", "confirm_transfer"}})
		},
		func() error { return p.click(`#buttons button:first-child`, 7) },
		func() error {
			return p.check("confirmed", expect{current: "", stack: nil, reply: "anything else", visited: []string{"send"}})
		},
		func() error {
			return p.run(chromedp.Click(chromedp.CSS("#save-test")), chromedp.WaitVisible(chromedp.CSS("#test-yaml")))
		},
		func() error { return p.screenshot("saved-as-test") },
	}
	for i, step := range steps {
		if err := step(); err != nil {
			if cause := context.Cause(p.ctx); cause != nil && cause != err {
				err = fmt.Errorf("%w (%v)", err, cause)
			}
			return "", fmt.Errorf("step %d: %w", i+1, err)
		}
	}
	return chromedp.Run(p.ctx, chromedp.Text(chromedp.CSS("#test-yaml")))
}

// TestInspectorInABrowser runs the whole scenario in headless Chromium,
// then runs soni's conversation tests on the saved test file: it passes.
func TestInspectorInABrowser(t *testing.T) {
	url, project := server(t, nil)
	p := &page{ctx: browser(t), dir: shots(t)}
	yaml, err := scenario(p, url)
	require.NoError(t, err)
	assert.Contains(t, yaml, "test_case: session_e2e")
	assert.Contains(t, yaml, `- user: "actually 60"`)

	path := filepath.Join(t.TempDir(), "saved.yaml")
	require.NoError(t, os.WriteFile(path, []byte(yaml), 0o644))
	suite := convtest.Load([]string{path}, convtest.Options{Flows: project, Actions: func(p *ir.Program, dir string, env func(string) (string, bool)) vm.ActionRunner {
		return actions.New(p, dir, actions.Options{LookupEnv: env})
	}})
	require.False(t, suite.Diags.HasErrors(), "%v", suite.Diags)
	rep := suite.Run(context.Background())
	assert.Equal(t, 1, rep.Passed)
	assert.Zero(t, rep.Failed)
}

// TestInspectorBreaksAreCaught proves the browser test fails when the page
// breaks: the same scenario on a page whose graph no longer highlights
// the current step, and on one whose script does not load.
func TestInspectorBreaksAreCaught(t *testing.T) {
	orig, err := fs.ReadFile(inspect.Assets(), "app.js")
	require.NoError(t, err)
	breaks := map[string]string{
		"no current step": strings.Replace(string(orig), `if (n.id === current) cls.push("current");`, ``, 1),
		"script error":    "this is not javascript(",
	}
	// What each break's failure says: the check that caught it.
	want := map[string]string{
		"no current step": `current step "", want "ask_recipient"`,
		"script error":    "the page threw an exception",
	}
	for name, js := range breaks {
		t.Run(name, func(t *testing.T) {
			require.NotEqual(t, string(orig), js, "the break must change the page")
			files := fstest.MapFS{"app.js": {Data: []byte(js)}}
			for _, f := range []string{"index.html", "style.css"} {
				b, err := fs.ReadFile(inspect.Assets(), f)
				require.NoError(t, err)
				files[f] = &fstest.MapFile{Data: b}
			}
			url, _ := server(t, files)
			ctx, cancel := context.WithTimeout(browser(t), 20*time.Second)
			defer cancel()
			_, err := scenario(&page{ctx: ctx, dir: t.TempDir()}, url)
			require.Error(t, err)
			assert.Contains(t, err.Error(), want[name])
		})
	}
}

// TestInspectorDrawsAPattern: a pattern runs on the stack like any flow,
// and the inspector draws it: at the support desk, a correction asks
// before it applies (the project's pattern_correction), and while it
// waits for the answer the graph is the pattern's, at its question; the
// answer applies it and the graph goes back to the ticket's flow.
func TestInspectorDrawsAPattern(t *testing.T) {
	url, _ := serverOf(t, "support", nil)
	p := &page{ctx: browser(t), dir: shots(t)}
	graphFlow := func() (string, error) { return eval[string](p, `document.getElementById("graph-flow").textContent`) }
	steps := []func() error{
		func() error {
			return p.run(chromedp.Navigate(url+"/inspect/#session=pattern"), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`)))
		},
		func() error { return p.say("I want to open a ticket", 1) },
		func() error { return p.say("billing", 2) },
		func() error { return p.say("I was charged twice", 3) },
		func() error { return p.say("low", 4) },
		func() error { return p.say("actually high", 5) },
		func() error {
			return p.check("correction-asks", expect{current: "ask", stack: []string{"open_ticket", "pattern_correction"}, reply: "Do you want to update the priority to high?"})
		},
		func() error {
			name, err := graphFlow()
			if err == nil && name != "pattern_correction" {
				err = fmt.Errorf("the graph shows %q, want pattern_correction", name)
			}
			return err
		},
		func() error { return p.click(`#buttons button:first-child`, 6) },
		func() error {
			return p.check("correction-applied", expect{current: "confirm_ticket", stack: []string{"open_ticket"}, changed: []string{"priority"}, reply: "with high priority"})
		},
		func() error {
			name, err := graphFlow()
			if err == nil && name != "open_ticket" {
				err = fmt.Errorf("the graph shows %q, want open_ticket", name)
			}
			return err
		},
	}
	for i, step := range steps {
		require.NoError(t, step(), "step %d", i+1)
	}
}
