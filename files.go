package soni

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// maxProgramSize bounds the compiled programs Load reads.
const maxProgramSize = 256 << 20

// programFormat is the "format" of a compiled program document.
const programFormat = "soni.program"

// sniffSize is how much of a file IsProgramFile reads to recognise a
// compiled program; soni compile writes "format" first.
const sniffSize = 4 << 10

func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxProgramSize+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxProgramSize {
		return nil, fmt.Errorf("%s: compiled program is larger than %d MiB", path, maxProgramSize>>20)
	}
	return b, nil
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
	f, err := os.Open(path)
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
