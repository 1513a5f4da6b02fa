// Command soni compiles, checks, draws, runs and tests declarative YAML
// dialogue flows. See docs/cli.md.
package main

import (
	"os"

	"github.com/soni-dev/soni/actions"
)

func main() {
	// First: a copy of soni started to supervise an exec action does
	// that and exits here.
	actions.EnableSupervisor()
	os.Exit(run(signalContext(), os.Args, os.Stdin, os.Stdout, os.Stderr))
}
