//go:build linux

package procgroup

import "syscall"

// setParentDeathSignal makes the kernel SIGKILL the command when the
// process that started it dies, even by SIGKILL, so that a soni killed
// during a hanging action leaves no action running. (The signal follows
// the thread that started the command; Go keeps its threads alive, and the
// runner does not lock the goroutine to its thread.) Processes the command
// started itself are not reached by it: see docs/actions.md.
func setParentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
