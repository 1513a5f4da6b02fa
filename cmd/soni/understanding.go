package main

import (
	"errors"
	"net"
	"net/http"
	"os"
	"slices"
	"time"

	"fmt"

	"github.com/soni-dev/soni/understand/llm/replay"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/understand/llm"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
	"github.com/urfave/cli/v2"
)

// understandingFlags are the flags that choose how messages become
// commands (docs/understanding.md).
func understandingFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "understanding", Usage: "rules, llm or hybrid (else SONI_UNDERSTANDING, else the project's, else rules)"},
		&cli.StringFlag{Name: "llm-url", Usage: "the model's OpenAI-compatible base `URL` (else SONI_LLM_BASE_URL, else the project's)"},
		&cli.StringFlag{Name: "llm-model", Usage: "the model's `NAME` (else SONI_LLM_MODEL, else the project's)"},
	}
}

// understanderFor builds the understanding layer of a command. health,
// when not nil, hears when the model stops answering and when it answers
// again (llm.Health), once per change.
func understanderFor(c *cli.Context, prog *ir.Program, dir string, health func(llm.Health)) (vm.Understander, error) {
	return understanderWith(c, prog, dir, health, nil)
}

// understanderWith is understanderFor with the HTTP client of the model's
// requests (nil: the default).
func understanderWith(c *cli.Context, prog *ir.Program, dir string, health func(llm.Health), client *http.Client) (vm.Understander, error) {
	u, _, err := llm.Select(prog, dir, llm.Overrides{Mode: c.String("understanding"), BaseURL: c.String("llm-url"), Model: c.String("llm-model"), OnHealth: health, Client: client}, nil)
	if err != nil {
		return nil, cli.Exit(fmt.Sprintf("%s: %s", c.Command.Name, err), exitUsage)
	}
	return u, nil
}

// llmFixturesFlag is --llm-fixtures, on test and eval.
func llmFixturesFlag() cli.Flag {
	return &cli.StringFlag{Name: "llm-fixtures", Usage: "answer the model's requests from the recorded fixtures in `DIR` (with --understanding llm or hybrid; SONI_LLM_RECORD=1 records missing ones)"}
}

// llmOverrides reads the understanding flags of test and eval. With
// --llm-fixtures it starts the fixtures' endpoint and points the model at
// it; finish stops it and turns a missing fixture into a failure, loudly,
// even when the run did not notice.
func llmOverrides(e *env, c *cli.Context) (llm.Overrides, func(error) error, error) {
	over := llm.Overrides{Mode: c.String("understanding"), BaseURL: c.String("llm-url"), Model: c.String("llm-model")}
	name := c.Command.Name
	dir := c.String("llm-fixtures")
	if dir == "" {
		return over, func(err error) error { return err }, nil
	}
	if c.IsSet("llm-url") {
		return over, nil, usageError("%s: give --llm-fixtures or --llm-url, not both", name)
	}
	url, stop, err := fixtureEndpoint(dir)
	if err != nil {
		return over, nil, cli.Exit(name+": --llm-fixtures: "+err.Error(), exitUsage)
	}
	over.BaseURL, over.Model = url, fixtureModel
	return over, func(err error) error {
		if missing := stop(); len(missing) > 0 {
			fmt.Fprintf(e.stderr, "soni: %s: --llm-fixtures: %d distinct model requests had no fixture in %s; each was written there as HASH.request.json: record them with SONI_LLM_RECORD=1 and a real endpoint, or write them (docs/understanding.md)\n", name, len(missing), dir)
			if err == nil {
				err = cli.Exit("", exitFailed)
			}
		}
		return err
	}, nil
}

// fixtureModel is the model name requests to a fixture endpoint carry, so
// that fixtures do not depend on the model that recorded them.
const fixtureModel = "fixtures"

// fixtureEndpoint starts, for --llm-fixtures DIR, a loopback
// OpenAI-compatible endpoint that answers from the fixtures in DIR
// (understand/llm/replay). With SONI_LLM_RECORD=1 a missing fixture is asked of
// the real endpoint in SONI_LLM_BASE_URL and SONI_LLM_MODEL (the key in
// SONI_LLM_API_KEY) and recorded; otherwise it fails the turn, naming the
// request written beside the fixtures.
// stop closes it and returns the keys of the requests that had no
// fixture.
func fixtureEndpoint(dir string) (url string, stop func() (missing []string), err error) {
	srv := &replay.Server{Dir: dir}
	if os.Getenv("SONI_LLM_RECORD") == "1" {
		base, model := os.Getenv("SONI_LLM_BASE_URL"), os.Getenv("SONI_LLM_MODEL")
		if base == "" || model == "" {
			return "", nil, errors.New("SONI_LLM_RECORD=1 records from a real endpoint: set SONI_LLM_BASE_URL and SONI_LLM_MODEL (and SONI_LLM_API_KEY)")
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", nil, fmt.Errorf("cannot create the fixtures directory %q: %v", dir, errText(err))
		}
		srv.Record = replay.Upstream(base, model, os.Getenv("SONI_LLM_API_KEY"), nil)
	} else if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", nil, fmt.Errorf("the fixtures directory %q does not exist: write fixtures, or record them with SONI_LLM_RECORD=1 (docs/understanding.md)", dir)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, fmt.Errorf("cannot listen on loopback for the fixtures: %v", err)
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	return "http://" + ln.Addr().String() + "/v1", func() []string { _ = hs.Close(); return slices.Compact(slices.Sorted(slices.Values(srv.Missing))) }, nil
}

// nowFlag is --now, on chat and eval: when the messages are sent, so
// that relative dates ("tomorrow", "next Friday") read the same on every
// run.
func nowFlag() cli.Flag {
	return &cli.StringFlag{Name: "now", Usage: "read relative dates as if today were `DATE` (2027-03-10, or an RFC 3339 time)"}
}

// nowOf reads --now; the zero time when it is not given.
func nowOf(c *cli.Context) (time.Time, error) {
	if !c.IsSet("now") {
		return time.Time{}, nil
	}
	t, err := values.ParseNow(c.String("now"))
	if err != nil {
		return time.Time{}, usageError("%s: --now: %s", c.Command.Name, err)
	}
	return t, nil
}

// modelWarning is how soni chat says that the model stopped answering, or
// answers again: the messages are understood by the rules meanwhile
// (hybrid), or not at all (llm).
func modelWarning(h llm.Health) string {
	if h.Down {
		return fmt.Sprintf("warning: the model at %s cannot be asked (%s): until it answers, messages are understood by the rules alone (hybrid) or not at all (llm)", h.Endpoint, h.Err)
	}
	return fmt.Sprintf("the model at %s answers again", h.Endpoint)
}
