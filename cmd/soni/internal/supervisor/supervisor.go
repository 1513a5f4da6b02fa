// Package supervisor makes a copy of soni started to supervise an exec
// action (package internal/supervise) do that, and exit, while soni's
// packages are initialized: it depends on little, so its init runs before
// most of them, and a supervisor does not wait for the rest (the JSON
// Schema library's alone takes about 20 ms). Only soni's command imports
// it; a program that embeds soni never runs this init.
package supervisor

import "github.com/soni-dev/soni/internal/supervise"

func init() { supervise.Supervise() }
