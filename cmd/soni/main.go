// Command soni compiles, checks, draws, runs and tests declarative YAML
// dialogue flows. See docs/cli.md.
package main

import (
	"os"

	"github.com/soni-dev/soni/actions"
	// A copy of soni started to supervise an exec action does that and
	// exits while the packages are initialized, before main.
	_ "github.com/soni-dev/soni/cmd/soni/internal/supervisor"
)

func main() {
	// First: exec actions run under a supervisor (a copy of soni that
	// did not exit earlier does so here).
	actions.EnableSupervisor()
	os.Exit(run(signalContext(), os.Args, os.Stdin, os.Stdout, os.Stderr))
}
