package soni

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

// maxProgramSize bounds the compiled programs Load reads.
const maxProgramSize = 256 << 20

// programFormat is the "format" of a compiled program document.
const programFormat = "soni.program"

// sniffSize is how much of a file IsProgramFile reads to recognise a
// compiled program; soni compile writes "format" first.
const sniffSize = 4 << 10

// readFile reads a compiled program through the guarded reader, within
// maxProgramSize.
func readFile(path string) ([]byte, error) {
	b, err := safefile.ReadFile(path, maxProgramSize)
	var tl *safefile.TooLargeError
	if errors.As(err, &tl) {
		return nil, fmt.Errorf("%s: compiled program is larger than %d MiB", path, maxProgramSize>>20)
	}
	return b, err
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
	want := []json.Token{json.Delim('{'), "format", programFormat}
	for _, w := range want {
		tok, err := dec.Token()
		if err != nil || tok != w {
			return false
		}
	}
	return true
}
