package soni

import (
	"fmt"
	"io"
	"os"
)

// maxProgramSize bounds the compiled programs Load reads.
const maxProgramSize = 256 << 20

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
