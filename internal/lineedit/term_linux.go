//go:build linux

package lineedit

import (
	"os"
	"syscall"
	"unsafe"
)

// rawSupported reports that this platform can switch a terminal to raw mode.
const rawSupported = true

// fileControl runs fn with the descriptor of f without switching f to
// blocking mode (which f.Fd would do), and returns fn's error.
func fileControl(f *os.File, fn func(fd uintptr) error) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var fnErr error
	if err := rc.Control(func(fd uintptr) { fnErr = fn(fd) }); err != nil {
		return err
	}
	return fnErr
}

// ioctlTermios gets (TCGETS) or sets (TCSETS) the terminal attributes of fd.
func ioctlTermios(fd, req uintptr, t *syscall.Termios) error {
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, req, uintptr(unsafe.Pointer(t)))
	if errno != 0 {
		return errno
	}
	return nil
}

// isTerminal reports whether f is a terminal: TCGETS succeeds only on one.
func isTerminal(f *os.File) bool {
	if f == nil {
		return false
	}
	var t syscall.Termios
	return fileControl(f, func(fd uintptr) error {
		return ioctlTermios(fd, syscall.TCGETS, &t)
	}) == nil
}

// makeRaw switches the terminal f to raw mode (no echo, no line buffering,
// no signals from Ctrl-C/Ctrl-Z, no output processing, 8-bit input, reads
// return after one byte) and returns a function that restores the mode it
// had before.
func makeRaw(f *os.File) (restore func() error, err error) {
	var orig syscall.Termios
	if err := fileControl(f, func(fd uintptr) error {
		return ioctlTermios(fd, syscall.TCGETS, &orig)
	}); err != nil {
		return nil, err
	}
	raw := orig
	raw.Iflag &^= syscall.IGNBRK | syscall.BRKINT | syscall.PARMRK | syscall.ISTRIP |
		syscall.INLCR | syscall.IGNCR | syscall.ICRNL | syscall.IXON
	raw.Oflag &^= syscall.OPOST
	raw.Lflag &^= syscall.ECHO | syscall.ECHONL | syscall.ICANON | syscall.ISIG | syscall.IEXTEN
	raw.Cflag &^= syscall.CSIZE | syscall.PARENB
	raw.Cflag |= syscall.CS8
	raw.Cc[syscall.VMIN] = 1
	raw.Cc[syscall.VTIME] = 0
	if err := fileControl(f, func(fd uintptr) error {
		return ioctlTermios(fd, syscall.TCSETS, &raw)
	}); err != nil {
		return nil, err
	}
	return func() error {
		return fileControl(f, func(fd uintptr) error {
			return ioctlTermios(fd, syscall.TCSETS, &orig)
		})
	}, nil
}
