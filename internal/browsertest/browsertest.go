// Package browsertest starts Debian's headless Chromium for the browser
// tests (the inspector's, serve's CORS): a fresh profile, no network of
// its own, and a scenario that ends at once, with the exception as the
// cause, when the page throws one it does not catch.
package browsertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Chromium finds Debian's Chromium. Without it the browser tests skip on
// a laptop and fail in CI, which installs it (.ci/run).
func Chromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no chromium on this machine: .ci/run installs Debian's chromium package")
	}
	t.Skip("no chromium: apt-get install chromium to run the browser tests")
	return ""
}

// New starts a headless Chromium with a fresh profile and no network, and
// returns the context of its first tab, bound to 3 minutes so that a
// broken page fails rather than hangs; no step waits on the clock.
func New(t testing.TB) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(Chromium(t)),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1400, 1000),
	)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	// An exception the page does not catch (a script that does not parse,
	// a bug in a handler) ends the scenario at once, with the exception
	// as the cause, instead of leaving a wait to run out.
	var threw context.CancelCauseFunc
	bctx, cancel2 := chromedp.NewContext(actx, chromedp.WithListener(func(ev any) {
		if e, ok := ev.(*runtime.EventExceptionThrown); ok && e.ExceptionDetails != nil {
			d := e.ExceptionDetails
			msg := d.Text
			if d.Exception != nil && d.Exception.Description != "" {
				msg += " " + d.Exception.Description
			}
			threw(fmt.Errorf("the page threw an exception at %s:%d: %s", d.URL, d.LineNumber+1, msg))
		}
	}))
	t.Cleanup(cancel2)
	ctx, cancelCause := context.WithCancelCause(bctx)
	threw = cancelCause
	t.Cleanup(func() { cancelCause(nil) })
	ctx, cancel3 := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(cancel3)
	return ctx
}
