// Command soni compiles, checks, draws, runs and tests declarative YAML
// dialogue flows. See docs/cli.md.
package main

import "os"

func main() { os.Exit(run(signalContext(), os.Args, os.Stdin, os.Stdout, os.Stderr)) }
