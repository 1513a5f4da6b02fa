package serve

import (
	"context"
	"errors"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/versions"
	"github.com/soni-dev/soni/vm"
)

// Metrics are the server's Prometheus metrics. Register them on a registry
// of your own, or let [New] make one.
type Metrics struct {
	turns     *prometheus.CounterVec
	turnTime  prometheus.Histogram
	actions   *prometheus.HistogramVec
	actFailed *prometheus.CounterVec
	storeTime *prometheus.HistogramVec
	conflicts prometheus.Counter
	flows     *prometheus.CounterVec
	// versionPaths counts turns of sessions saved with another program
	// version, by what they did (move, finish, stay, code_change);
	// idleMoves the sessions that moved once their flows finished.
	versionPaths *prometheus.CounterVec
	idleMoves    prometheus.Counter
	// sessions counts the stored sessions per program version, as of the
	// last check (start and each reload).
	sessions *prometheus.GaugeVec
	// outages counts the understanding model's outages.
	outages prometheus.Counter
}

// NewMetrics creates the metrics and registers them on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		turns: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "soni_turns_total", Help: "Turns handled, by outcome (ok, duplicate, error code).",
		}, []string{"outcome"}),
		turnTime: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "soni_turn_duration_seconds", Help: "Time to handle one turn, store included.",
			Buckets: []float64{.0005, .001, .002, .005, .01, .02, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}),
		actions: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "soni_action_duration_seconds", Help: "Time an action took, by action.",
			Buckets: prometheus.DefBuckets,
		}, []string{"action"}),
		actFailed: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "soni_action_failures_total", Help: "Actions that failed, by action.",
		}, []string{"action"}),
		storeTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "soni_store_duration_seconds", Help: "Time of checkpoint store operations, by operation.",
			Buckets: []float64{.0001, .0005, .001, .002, .005, .01, .02, .05, .1, .5, 1},
		}, []string{"op"}),
		conflicts: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "soni_store_conflicts_total", Help: "Compare-and-swap saves that lost.",
		}),
		flows: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "soni_flows_total", Help: "Flows started, completed and cancelled, by flow.",
		}, []string{"flow", "event"}),
		outages: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "soni_model_outages_total", Help: "Times the understanding model stopped answering (refused, timed out or failed), once per outage.",
		}),
	}
	m.versionPaths = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "soni_version_changes_total", Help: "Turns of sessions saved with another program version, by path: move, finish, stay, code_change.",
	}, []string{"path"})
	m.idleMoves = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "soni_version_idle_moves_total", Help: "Sessions that finished their flows on an older program version and then moved to the running one.",
	})
	m.sessions = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "soni_sessions_by_version", Help: "Stored sessions per program version, as of the last check (server start and each reload).",
	}, []string{"version"})
	reg.MustRegister(m.turns, m.turnTime, m.actions, m.actFailed, m.storeTime, m.conflicts, m.flows, m.versionPaths, m.idleMoves, m.sessions, m.outages)
	return m
}

// turn records one handled turn.
func (m *Metrics) turn(outcome string, d time.Duration, events []vm.Event) {
	m.turns.WithLabelValues(outcome).Inc()
	m.turnTime.Observe(d.Seconds())
	for _, e := range events {
		switch e.Type {
		case vm.EventFlowStarted, vm.EventFlowCompleted, vm.EventFlowCancelled:
			m.flows.WithLabelValues(e.Flow, string(e.Type)).Inc()
		case vm.EventActionFailed:
			m.actFailed.WithLabelValues(e.Action).Inc()
		}
	}
}

// version records what a turn did about program versions.
func (m *Metrics) version(rep *soni.Reply) {
	if rep == nil || rep.Duplicate || rep.VersionPath == "" || rep.VersionPath == versions.Same {
		return
	}
	m.versionPaths.WithLabelValues(string(rep.VersionPath)).Inc()
	if rep.Moved {
		m.idleMoves.Inc()
	}
}

// SessionVersions sets the count of stored sessions per program version
// (from [soni.DeployReport.Versions]), replacing the previous counts.
func (m *Metrics) SessionVersions(counts map[string]int) {
	m.sessions.Reset()
	for v, n := range counts {
		m.sessions.WithLabelValues(v).Set(float64(n))
	}
}

// ModelOutage counts one outage of the understanding model: call it when
// the model stops answering (llm.Config.OnHealth), not once per failed
// request.
func (m *Metrics) ModelOutage() { m.outages.Inc() }

// Actions wraps an action runner so that each call's duration is measured.
func (m *Metrics) Actions(r vm.ActionRunner) vm.ActionRunner {
	return vm.ActionFunc(func(ctx context.Context, req vm.ActionRequest) (map[string]any, error) {
		start := time.Now()
		out, err := r.RunAction(ctx, req)
		m.actions.WithLabelValues(req.Action).Observe(time.Since(start).Seconds())
		return out, err
	})
}

// Store wraps a store so that each operation's duration, and each lost
// compare-and-swap, is measured (checkpoints.Observe wraps the whole
// interface). Pings are not measured: probes are not turns.
func (m *Metrics) Store(s checkpoints.Store) checkpoints.Store {
	return checkpoints.Observe(s, func(op string, d time.Duration, err error) {
		if op == "ping" {
			return
		}
		m.storeTime.WithLabelValues(op).Observe(d.Seconds())
		if errors.Is(err, checkpoints.ErrConflict) {
			m.conflicts.Inc()
		}
	})
}
