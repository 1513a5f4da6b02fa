package llm

import (
	"context"
	"errors"
	"sync"
)

// Health is a change in whether the model can be asked: an outage begins
// (Down), or the model answers again after one. A model that falls back
// to the rules (hybrid) or to the fallback (llm) says so once per outage,
// through Config.OnHealth, so that a front end can warn (soni chat), log
// (soni serve) and count (/metrics) instead of degrading silently.
type Health struct {
	// Down is true when the model stopped answering, false when it
	// answers again.
	Down bool
	// Endpoint is the model's base URL.
	Endpoint string
	// Err is why the model could not be asked, when Down.
	Err string
}

// unreachable is an error of a request that never got the model's
// answer: the endpoint refused or dropped the connection, did not answer
// in time, or answered with an HTTP error status.
type unreachable struct{ err error }

func (u *unreachable) Error() string { return u.err.Error() }

func (u *unreachable) Unwrap() error { return u.err }

// health tracks whether the model is down, and says when that changes.
type health struct {
	mu   sync.Mutex
	down bool
}

// observe records the outcome of one attempt to ask the model: err nil
// (the model answered, whatever it said), an unreachable error, or
// another error (a malformed answer: the model is reachable). ctx is the
// turn's: a turn that was cancelled says nothing about the model.
func (m *Model) observe(ctx context.Context, err error) {
	var u *unreachable
	down := errors.As(err, &u)
	if err != nil && !down {
		return
	}
	if down && ctx.Err() != nil {
		return
	}
	m.health.mu.Lock()
	changed := m.health.down != down
	m.health.down = down
	m.health.mu.Unlock()
	if !changed || m.cfg.OnHealth == nil {
		return
	}
	h := Health{Down: down, Endpoint: m.cfg.BaseURL}
	if down {
		h.Err = err.Error()
	}
	m.cfg.OnHealth(h)
}
