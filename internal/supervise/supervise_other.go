//go:build !linux

package supervise

// Init does nothing where supervisors are not available.
func Init() {}

// Supervise does nothing where supervisors are not available.
func Supervise() {}

// Enabled reports whether commands can be run under a supervisor: never,
// on this system.
func Enabled() bool { return false }
