//go:build unix

package understand_test

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user and system) the process has used so
// far, and true; BenchmarkRead reports it per message, which the other
// processes on a loaded machine do not stretch as they do wall time.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
