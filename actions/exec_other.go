//go:build !linux

package actions

import "os"

// start starts a command in a process group of its own: supervisors exist
// only on Linux.
func (r *Runner) start(s startSpec) (process, error) { return startGroup(s) }

// requestFile returns a temporary file that holds the request, read from
// its start.
func requestFile(body []byte) (*os.File, error) { return tempRequestFile(body) }
