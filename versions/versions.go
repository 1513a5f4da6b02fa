// Package versions decides what a session saved with one version of a
// program does when another version runs (issue 29; docs/serve.md,
// "Deploying new flows"). A version is a program's fingerprint ([ir.Fingerprint]); every
// checkpoint carries the version it was saved with, and the stores keep
// every version a live session uses (see package checkpoints).
//
// The decision is [Decide]'s alone: the engine (package soni) asks it on
// every turn whose checkpoint is of another version, and soni deploy
// check asks it for every stored session before a deploy.
package versions

import (
	"fmt"

	"github.com/soni-dev/soni/vm"
)

// Policy is a project's version_policy setting.
type Policy string

// The policies.
const (
	// PolicyFinish moves a session at once when the change is compatible,
	// else lets it finish its running flows on its own version and moves
	// it at its next idle point (an empty stack). The default.
	PolicyFinish Policy = "finish"
	// PolicyUpgrade moves a session at once when the change is
	// compatible, else runs pattern_code_change.
	PolicyUpgrade Policy = "upgrade"
	// PolicyRestart runs pattern_code_change for every session with a
	// flow running on another version, compatible or not; an idle session
	// moves.
	PolicyRestart Policy = "restart"
)

// ParsePolicy reads a version_policy setting; "" is PolicyFinish.
func ParsePolicy(s string) (Policy, error) {
	switch Policy(s) {
	case "":
		return PolicyFinish, nil
	case PolicyFinish, PolicyUpgrade, PolicyRestart:
		return Policy(s), nil
	}
	return "", fmt.Errorf("version_policy %q is not one of finish, upgrade, restart", s)
}

// Path is what a session's next turn does about versions.
type Path string

// The paths.
const (
	// Same: the session was saved with the running version.
	Same Path = "same"
	// Move: the session moves to the running version at once.
	Move Path = "move"
	// Finish: the session runs on the version it was saved with until its
	// stack is empty, then moves.
	Finish Path = "finish"
	// Stay: the session was saved with a version newer than the running
	// one (a rolling deploy); it runs on its own version, never moved
	// back.
	Stay Path = "stay"
	// CodeChange: the running version cannot resume the session's flows
	// and its own version is gone (or the policy says so): its flows end,
	// its conversation slots stay, and pattern_code_change runs.
	CodeChange Path = "code_change"
)

// Decision is what a session's next turn does.
type Decision struct {
	Path Path
	// Run is the machine the turn runs on: the running version's for
	// Same, Move and CodeChange, the saved version's for Finish and Stay.
	Run *vm.Machine
	// Reason says why the session cannot move at once ("" when it can).
	Reason string
}

// Decide decides what a session whose state st was read from its
// checkpoint does on its next turn. running is the machine of the
// version this process runs; saved is the machine of the version st was
// saved with (st.Fingerprint), or nil when that version is unknown to the
// store; savedIsNewer says that the saved version was first saved after
// the running one (another replica runs a newer deploy).
func Decide(policy Policy, st *vm.State, running, saved *vm.Machine, savedIsNewer bool) Decision {
	if st.Fingerprint == running.Fingerprint() {
		return Decision{Path: Same, Run: running}
	}
	if saved != nil && savedIsNewer {
		return Decision{Path: Stay, Run: saved, Reason: "it was saved with a newer version, " + st.Fingerprint}
	}
	err := running.Compatible(st, saved)
	reason := ""
	if err != nil {
		reason = err.Error()
	}
	switch {
	case policy == PolicyRestart:
		if len(st.Stack) == 0 {
			return Decision{Path: Move, Run: running}
		}
		if reason == "" {
			reason = "version_policy is restart"
		}
		return Decision{Path: CodeChange, Run: running, Reason: reason}
	case err == nil:
		return Decision{Path: Move, Run: running}
	case policy != PolicyUpgrade && saved != nil:
		return Decision{Path: Finish, Run: saved, Reason: reason}
	case saved == nil:
		return Decision{Path: CodeChange, Run: running, Reason: reason + "; its version " + orUnknown(st.Fingerprint) + " is not in the store"}
	}
	return Decision{Path: CodeChange, Run: running, Reason: reason + "; version_policy is upgrade"}
}

func orUnknown(v string) string {
	if v == "" {
		return "(none)"
	}
	return v
}
