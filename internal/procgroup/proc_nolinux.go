//go:build unix && !linux

package procgroup

import "syscall"

// setParentDeathSignal does nothing where the kernel has no parent-death
// signal: an action outlives a soni that is killed while it runs.
func setParentDeathSignal(*syscall.SysProcAttr) {}
