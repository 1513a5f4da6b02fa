package actions

import (
	"os"
	"testing"
)

// TestMain lets the test binary run exec actions under a supervisor, as
// the soni binary does: a copy of it started as one supervises and exits.
func TestMain(m *testing.M) {
	EnableSupervisor()
	os.Exit(m.Run())
}
