package main

// newTerminalReader returns a line editor when stdin and stdout are a
// terminal, or nil.
func newTerminalReader(e *env) lineReader { return nil }
