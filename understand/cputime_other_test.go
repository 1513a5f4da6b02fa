//go:build !unix

package understand_test

import "time"

// processCPU is not measured here: BenchmarkRead reports no CPU time.
func processCPU() (time.Duration, bool) { return 0, false }
