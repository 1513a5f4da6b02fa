package ir

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/soni-dev/soni/internal/safefile"
)

// MaxProgramSize bounds the compiled programs ReadFile reads: 256 MiB.
const MaxProgramSize = 256 << 20

// sniffSize is how much of a file IsProgramFile reads to recognise a
// compiled program; soni compile writes "format" first.
const sniffSize = 4 << 10

// ReadFile reads and decodes a compiled program file (see [Decode]),
// through a reader that refuses what is not a regular file and anything
// over MaxProgramSize. Errors name the path.
func ReadFile(path string) (*Program, error) {
	b, err := safefile.ReadFile(path, MaxProgramSize)
	var tl *safefile.TooLargeError
	if errors.As(err, &tl) {
		return nil, fmt.Errorf("%s: compiled program is larger than %d MiB", path, MaxProgramSize>>20)
	}
	if err != nil {
		return nil, err
	}
	p, err := Decode(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// IsProgramFile reports whether path names a compiled program, as written
// by soni compile, rather than YAML flows: a file (not a directory) whose
// name ends in .json, or whose text is a JSON object that starts with
// "format": "soni.program", whatever its name ("soni compile P -o
// prog.out"). A path that cannot be read is not a program file; reading it
// as a project then reports why.
func IsProgramFile(path string) bool {
	info, err := os.Stat(path)
	switch {
	case err != nil:
		// Reading it as a program reports the error with the path.
		return strings.HasSuffix(path, ".json")
	case info.IsDir():
		return false
	case strings.HasSuffix(path, ".json"):
		return true
	}
	f, _, err := safefile.Open(path) // a FIFO or device is no program, and must not block
	if err != nil {
		return false
	}
	defer f.Close()
	dec := json.NewDecoder(bufio.NewReader(io.LimitReader(f, sniffSize)))
	want := []json.Token{json.Delim('{'), "format", Format}
	for _, w := range want {
		tok, err := dec.Token()
		if err != nil || tok != w {
			return false
		}
	}
	return true
}
