// Package safefile reads the files soni is pointed at (flow files, test
// files, compiled programs) without ever blocking or running out of memory
// on what is not an ordinary file: a FIFO, a device such as /dev/zero (also
// behind a symbolic link), a socket or a directory is refused before it is
// opened in a way that could block, and no read goes past a size limit.
// Every command reads its inputs through this one reader, so none can hang
// where another refuses.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular means that a path names something other than a regular
// file, such as a FIFO, a device or a directory.
var ErrNotRegular = errors.New("not a regular file")

// TooLargeError reports a file over the size limit. Size is the file's size
// when it is known from its metadata, or -1 when it grew past the limit
// while being read.
type TooLargeError struct {
	Path        string
	Size, Limit int64
}

// Error gives the size and the limit; callers name the file, as they do
// for every read error.
func (e *TooLargeError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("it is over the size limit of %d bytes", e.Limit)
	}
	return fmt.Sprintf("it is %d bytes, over the size limit of %d bytes", e.Size, e.Limit)
}

// Open opens path for reading if and only if it is a regular file (after
// following symbolic links). It never blocks: the kind of file is checked
// before opening, the open is non-blocking, and the kind is checked again on
// the open file, so a file swapped for a FIFO in between is refused too. A
// refused path gives a *fs.PathError wrapping [ErrNotRegular] that names
// what the path is.
func Open(path string) (*os.File, fs.FileInfo, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, nil, notRegular(path, info)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	if info, err = f.Stat(); err != nil {
		_ = f.Close()
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		_ = f.Close()
		return nil, nil, notRegular(path, info)
	}
	return f, info, nil
}

// ReadFile reads a regular file of at most limit bytes (see [Open]). A
// larger file gives a *[TooLargeError], before anything is read when its
// size is known.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, info, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info.Size() > limit {
		return nil, &TooLargeError{Path: path, Size: info.Size(), Limit: limit}
	}
	b, err := readAll(io.LimitReader(f, limit+1), info.Size())
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, &TooLargeError{Path: path, Size: -1, Limit: limit}
	}
	return b, nil
}

// readAll is io.ReadAll into a buffer sized for the size the file had
// when it was opened, plus a little so that the end is seen without
// growing it: a large file is read into one allocation instead of a dozen
// doubling ones (reading a 600 KB test file allocated 1.5 MB). A file that
// grew meanwhile is still read whole.
func readAll(r io.Reader, size int64) ([]byte, error) {
	b := make([]byte, 0, max(size, 0)+512)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // grow
		}
	}
}

// notRegular is the error for a path that is not a regular file.
func notRegular(path string, info fs.FileInfo) error {
	return &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: it is %s", ErrNotRegular, kind(info.Mode()))}
}

// kind names the type of a file mode.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}
