package soni

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/codec"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/versions"
	"github.com/soni-dev/soni/vm"
)

// resaveEvery is how often a turn saves the engine's program version
// again: it marks the version used, so that a prune keeps it, and puts it
// back if a prune (soni sessions prune, while no session used it) took
// it, so that the other replicas can run its sessions.
const resaveEvery = 10 * time.Minute

// maxLoadedVersions bounds the other program versions an engine keeps
// loaded: sessions of older deploys are few and short-lived.
const maxLoadedVersions = 16

// progVersion is one version of the program an engine can run sessions
// on: its own, or one loaded from the store.
type progVersion struct {
	m     *vm.Machine
	codec *codec.Codec
	// saved is when the store first saved the version.
	saved time.Time
}

// engineVersions is what an Engine knows of program versions.
type engineVersions struct {
	policy versions.Policy
	// build makes the machine of another version, with the engine's
	// understanding and runners.
	build func(*ir.Program) (*vm.Machine, error)

	mu sync.Mutex
	// saved is when the store first saved the engine's own program; zero
	// until it has.
	saved time.Time
	// savedAt is when this process last saved it.
	savedAt time.Time
	loaded  map[string]*progVersion
}

// saveProgram saves the engine's program in the store before its first
// turn (and again after a failure, and every resaveEvery): any process
// sharing the store can then run the sessions it saves.
func (e *Engine) saveProgram(ctx context.Context) error {
	e.ver.mu.Lock()
	fresh := !e.ver.saved.IsZero() && time.Since(e.ver.savedAt) < resaveEvery
	e.ver.mu.Unlock()
	if fresh {
		return nil
	}
	return e.SaveVersion(ctx)
}

// SaveVersion saves the engine's program version in its store (or marks
// it used, when the store has it): the engine does it before its first
// turn, and a server at each reload and prune.
func (e *Engine) SaveVersion(ctx context.Context) error {
	data, err := ir.Encode(e.m.Program())
	if err != nil {
		return err
	}
	saved, err := e.store.SaveProgram(ctx, e.m.Fingerprint(), data)
	if err != nil {
		return fmt.Errorf("save the program version: %w", err)
	}
	e.ver.mu.Lock()
	e.ver.saved, e.ver.savedAt = saved, time.Now()
	e.ver.mu.Unlock()
	return nil
}

// Version returns the engine's program version (its [ir.Hash]).
func (e *Engine) Version() string { return e.m.Fingerprint() }

// loadVersion returns another version of the program, from the engine's
// cache or the store; nil when the store does not have it (or it cannot
// be run any more). Only a failing store is an error.
func (e *Engine) loadVersion(ctx context.Context, v string) (*progVersion, error) {
	if checkpoints.ValidateVersion(v) != nil {
		return nil, nil
	}
	e.ver.mu.Lock()
	pv := e.ver.loaded[v]
	e.ver.mu.Unlock()
	if pv != nil {
		return pv, nil
	}
	b, saved, err := e.store.LoadProgram(ctx, v)
	if errors.Is(err, checkpoints.ErrNoProgram) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	p, err := ir.Decode(b)
	if err != nil {
		return nil, nil // written by another soni: as good as gone
	}
	m, err := e.ver.build(p)
	if err != nil || m.Fingerprint() != v {
		return nil, nil
	}
	pv = &progVersion{m: m, codec: codec.New(m), saved: saved}
	e.ver.mu.Lock()
	if e.ver.loaded == nil {
		e.ver.loaded = map[string]*progVersion{}
	}
	if len(e.ver.loaded) >= maxLoadedVersions {
		for k := range e.ver.loaded {
			delete(e.ver.loaded, k)
			break
		}
	}
	e.ver.loaded[v] = pv
	e.ver.mu.Unlock()
	return pv, nil
}

// resolved is a session's state ready for its turn, and on which version.
type resolved struct {
	st *vm.State
	// saved is the version the checkpoint was saved with.
	saved string
	d     versions.Decision
	// codec encodes the state after the turn, unless it moves.
	codec *codec.Codec
}

// resolve reads a session's checkpoint and decides, with package
// versions, which version of the program runs its turn. A checkpoint that
// does not parse, or belongs to another session, is a *ResumeError; a
// change of the flows never is.
func (e *Engine) resolve(ctx context.Context, session string, b []byte) (*resolved, error) {
	st, err := e.codec.DecodeOwnedUnchecked(b)
	if err == nil && st.Session != session {
		err = fmt.Errorf("its session field is %q, not %q (was it copied or renamed from another session?)", st.Session, session)
	}
	if err != nil {
		return nil, &ResumeError{Session: session, Err: err}
	}
	if st.Fingerprint == e.m.Fingerprint() {
		if err := e.m.Resume(st); err != nil {
			return nil, &ResumeError{Session: session, Err: err}
		}
		return &resolved{st: st, saved: st.Fingerprint, d: versions.Decision{Path: versions.Same, Run: e.m}, codec: e.codec}, nil
	}
	pv, err := e.loadVersion(ctx, st.Fingerprint)
	if err != nil {
		return nil, err
	}
	var saved *vm.Machine
	newer := false
	if pv != nil {
		saved = pv.m
		e.ver.mu.Lock()
		own := e.ver.saved
		e.ver.mu.Unlock()
		newer = !own.IsZero() && pv.saved.After(own)
	}
	d := versions.Decide(e.ver.policy, st, e.m, saved, newer)
	r := &resolved{st: st, saved: st.Fingerprint, d: d, codec: e.codec}
	switch d.Path {
	case versions.Move:
		err = e.m.Resume(st)
	case versions.Finish, versions.Stay:
		r.codec = pv.codec
		err = pv.m.Resume(st)
		if err == nil {
			st.Notes = append(st.Notes, fmt.Sprintf("running on version %s (path %s): %s", st.Fingerprint, d.Path, d.Reason))
		}
	}
	if err != nil || d.Path == versions.CodeChange {
		// Never fail a turn because the flows changed: a state no
		// version can resume ends its flows and keeps its slots.
		if err != nil {
			d.Reason = err.Error()
		}
		r.d = versions.Decision{Path: versions.CodeChange, Run: e.m, Reason: d.Reason}
		r.codec = e.codec
		r.st = e.m.CodeChange(st)
	}
	return r, nil
}

// settle moves a session that finished its flows on an older version to
// the engine's version at its idle point, after its turn; it returns
// whether it moved.
func (e *Engine) settle(r *resolved, st *vm.State) bool {
	if r.d.Path != versions.Finish || len(st.Stack) != 0 || st.Pending != nil {
		return false
	}
	moved := st.Clone()
	moved.Revision, moved.Updated, moved.Created = st.Revision, st.Updated, st.Created
	if err := e.m.Resume(moved); err != nil {
		return false
	}
	*st = *moved
	r.codec = e.codec
	return true
}

// SessionPlan is what the engine's program will do with one stored
// session on its next turn ([Engine.CheckDeploy]).
type SessionPlan struct {
	Session string `json:"session"`
	// Version is the version the session was saved with.
	Version string `json:"version"`
	// Path is the decision: same, move, finish, stay or code_change.
	Path versions.Path `json:"path"`
	// Reason says why it cannot move at once.
	Reason string `json:"reason,omitempty"`
	// Stack lists its running flows, bottom first.
	Stack []string `json:"stack"`
}

// DeployReport is [Engine.CheckDeploy]'s answer.
type DeployReport struct {
	// Version is the engine's program version.
	Version string `json:"version"`
	// Policy is its version_policy.
	Policy   versions.Policy `json:"policy"`
	Sessions []SessionPlan   `json:"sessions"`
	// Paths counts the sessions per path.
	Paths map[versions.Path]int `json:"paths"`
	// Unreadable lists sessions whose checkpoint does not parse.
	Unreadable []string `json:"unreadable,omitempty"`
}

// Versions counts the sessions per program version they were saved with
// (the metric soni_sessions_by_version).
func (r *DeployReport) Versions() map[string]int {
	out := map[string]int{}
	for _, s := range r.Sessions {
		out[s.Version]++
	}
	return out
}

// CodeChanges is how many sessions would run pattern_code_change.
func (r *DeployReport) CodeChanges() int { return r.Paths[versions.CodeChange] }

// CheckDeploy reads every session of the store and says what the
// engine's program would do with each on its next turn, without changing
// anything: the engine's version counts as the newest (it is the one
// about to be deployed).
func (e *Engine) CheckDeploy(ctx context.Context) (*DeployReport, error) {
	rep := &DeployReport{Version: e.Version(), Policy: e.ver.policy, Sessions: []SessionPlan{}, Paths: map[versions.Path]int{}}
	after := ""
	for {
		infos, err := e.store.List(ctx, after, 500)
		if err != nil {
			return nil, err
		}
		if len(infos) == 0 {
			break
		}
		for _, in := range infos {
			after = in.ID
			b, _, err := e.store.Load(ctx, in.ID)
			if errors.Is(err, checkpoints.ErrNotFound) {
				continue
			}
			if err != nil {
				var ce *checkpoints.CorruptError
				if errors.As(err, &ce) {
					rep.Unreadable = append(rep.Unreadable, in.ID)
					continue
				}
				return nil, err
			}
			st, err := e.codec.DecodeOwnedUnchecked(b)
			if err != nil {
				rep.Unreadable = append(rep.Unreadable, in.ID)
				continue
			}
			plan := SessionPlan{Session: in.ID, Version: st.Fingerprint, Stack: []string{}}
			for _, f := range st.Stack {
				plan.Stack = append(plan.Stack, f.Flow)
			}
			r, err := e.resolve(ctx, in.ID, b)
			if err != nil {
				var re *ResumeError
				if errors.As(err, &re) {
					rep.Unreadable = append(rep.Unreadable, in.ID)
					continue
				}
				return nil, err
			}
			plan.Path, plan.Reason = r.d.Path, r.d.Reason
			rep.Sessions = append(rep.Sessions, plan)
			rep.Paths[plan.Path]++
		}
	}
	return rep, nil
}

// PruneVersions deletes the program versions of the store that no stored
// session uses and that were last used before the given time, never the
// engine's own (which it marks used first). It returns the versions it
// deleted, sorted. soni sessions prune runs it after pruning sessions.
func PruneVersions(ctx context.Context, store checkpoints.Store, before time.Time, keep ...string) ([]string, error) {
	used := map[string]bool{}
	for _, v := range keep {
		used[v] = true
	}
	after := ""
	for {
		infos, err := store.List(ctx, after, 500)
		if err != nil {
			return nil, err
		}
		if len(infos) == 0 {
			break
		}
		for _, in := range infos {
			after = in.ID
			b, _, err := store.Load(ctx, in.ID)
			if err != nil {
				continue // gone, or unreadable: it uses no version we can name
			}
			var head struct {
				Fingerprint string `json:"fingerprint"`
			}
			if json.Unmarshal(b, &head) == nil {
				used[head.Fingerprint] = true
			}
		}
	}
	ps, err := store.Programs(ctx)
	if err != nil {
		return nil, err
	}
	var deleted []string
	for _, p := range ps {
		if used[p.Version] || !p.Used.Before(before) {
			continue
		}
		if err := store.DeleteProgram(ctx, p.Version); err != nil {
			return deleted, err
		}
		deleted = append(deleted, p.Version)
	}
	sort.Strings(deleted)
	return deleted, nil
}
