package actions

import "github.com/soni-dev/soni/internal/supervise"

// EnableSupervisor lets the runners of this program run exec commands
// under a supervisor, on Linux: a copy of the program, re-executed, that
// kills everything the command started (also processes that left its
// process group with setsid) when the call ends, and when the program
// dies, even by SIGKILL. Call it first thing in main, before anything
// else runs: in the copy started as a supervisor it supervises the
// command and exits, never returning. Elsewhere, and in a program that
// does not call it, each command runs in a process group of its own
// (docs/actions.md, "Processes").
func EnableSupervisor() { supervise.Init() }
