// Package loadgen drives a conversation server over HTTP: N conversations
// in flight, each a fixed script of messages posted to
// POST {url}/v1/sessions/{id}/messages with {"text": ...}, and reports
// turns per second and latency percentiles. soni bench uses it against
// soni serve and against any server with the same endpoint shape (the
// LangGraph.js comparison under bench/).
package loadgen

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Options configure a run.
type Options struct {
	// URL is the server's base URL.
	URL string
	// Conversations is how many conversations are in flight at once.
	Conversations int
	// Duration is how long to send; conversations in flight finish.
	Duration time.Duration
	// Script is the messages of one conversation.
	Script []string
	// Expect, when set, is the reply the last message must contain; a
	// turn answered otherwise counts as an error.
	Expect string
	// Client sends the requests; default one with keep-alive for each
	// conversation.
	Client *http.Client
}

// Result is what a run measured.
type Result struct {
	Turns    int
	Errors   int
	Elapsed  time.Duration
	P50, P99 time.Duration
	// FirstError describes the first failed turn, if any.
	FirstError string
}

// TurnsPerSecond is the throughput.
func (r Result) TurnsPerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Turns) / r.Elapsed.Seconds()
}

// String is one line for people.
func (r Result) String() string {
	return fmt.Sprintf("%d turns in %s: %.0f turns/s, p50 %s, p99 %s, %d errors",
		r.Turns, r.Elapsed.Round(time.Millisecond), r.TurnsPerSecond(), r.P50.Round(time.Microsecond), r.P99.Round(time.Microsecond), r.Errors)
}

// Run runs the load until Duration has passed.
func Run(ctx context.Context, o Options) Result {
	if o.Conversations <= 0 {
		o.Conversations = 16
	}
	client := o.Client
	if client == nil {
		client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: o.Conversations * 2}}
	}
	var (
		mu       sync.Mutex
		lat      []time.Duration
		errs     int
		firstErr string
		seq      atomic.Int64
		wg       sync.WaitGroup
	)
	// The request bodies are the same for every conversation: encoded
	// once, so that the load generator takes as little of the machine as
	// it can from the server it measures.
	bodies := make([][]byte, len(o.Script))
	for i, msg := range o.Script {
		bodies[i], _ = json.Marshal(map[string]string{"text": msg})
	}
	start := time.Now()
	deadline := start.Add(o.Duration)
	for w := 0; w < o.Conversations; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf bytes.Buffer // the replies, one at a time
			var local []time.Duration
			localErrs := 0
			var localFirst string
			for time.Now().Before(deadline) && ctx.Err() == nil {
				session := fmt.Sprintf("load-%d", seq.Add(1))
				for i := range o.Script {
					t0 := time.Now()
					reply, err := post(ctx, client, o.URL, session, bodies[i], &buf)
					d := time.Since(t0)
					if err == nil && i == len(o.Script)-1 && o.Expect != "" && !bytes.Contains(reply, []byte(o.Expect)) {
						err = fmt.Errorf("the last reply lacks %q: %s", o.Expect, reply)
					}
					if err != nil {
						localErrs++
						if localFirst == "" {
							localFirst = err.Error()
						}
						break
					}
					local = append(local, d)
				}
			}
			mu.Lock()
			lat = append(lat, local...)
			errs += localErrs
			if firstErr == "" {
				firstErr = localFirst
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	r := Result{Turns: len(lat), Errors: errs, Elapsed: time.Since(start), FirstError: firstErr}
	if len(lat) > 0 {
		slices.Sort(lat)
		r.P50 = lat[len(lat)/2]
		r.P99 = lat[min(len(lat)-1, len(lat)*99/100)]
	}
	return r
}

// post sends one message and returns the reply, read into buf.
func post(ctx context.Context, c *http.Client, base, session string, body []byte, buf *bytes.Buffer) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/sessions/"+session+"/messages", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	buf.Reset()
	if _, err := buf.ReadFrom(resp.Body); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %d: %s", resp.StatusCode, b)
	}
	return b, nil
}
