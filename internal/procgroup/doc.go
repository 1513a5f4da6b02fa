// Package procgroup starts commands in a process group of their own and
// kills the whole group, so that a command that starts others (a `go run`
// builds and starts a program) leaves nothing running: exec actions and
// the services of conversation tests use it.
package procgroup
