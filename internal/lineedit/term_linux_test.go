//go:build linux

package lineedit

import (
	"io"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// openPTY opens a pseudo-terminal pair, or skips the test when the system
// has none.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	var unlock int32
	var n uint32
	err = fileControl(master, func(fd uintptr) error {
		if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); errno != 0 {
			return errno
		}
		if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); errno != 0 {
			return errno
		}
		return nil
	})
	if err != nil {
		t.Skipf("pseudo-terminal setup: %v", err)
	}
	slave, err = os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { slave.Close() })
	// Drain what the editor draws so its writes never block.
	go func() { _, _ = io.Copy(io.Discard, master) }()
	return master, slave
}

func termios(t *testing.T, f *os.File) syscall.Termios {
	t.Helper()
	var tio syscall.Termios
	require.NoError(t, fileControl(f, func(fd uintptr) error {
		return ioctlTermios(fd, syscall.TCGETS, &tio)
	}))
	return tio
}

// readLineWhenRaw runs e.ReadLine and, once it has switched the terminal to
// raw mode (input typed earlier would be cooked by the line discipline),
// types input on the master side. It fails the test after five seconds.
func readLineWhenRaw(t *testing.T, e *Editor, master, slave *os.File, input string) (string, error) {
	t.Helper()
	type result struct {
		line string
		err  error
		pan  any
	}
	done := make(chan result, 1)
	go func() {
		var res result
		defer func() {
			res.pan = recover()
			done <- res
		}()
		res.line, res.err = e.ReadLine()
	}()
	deadline := time.Now().Add(5 * time.Second)
	for termios(t, slave).Lflag&syscall.ICANON != 0 {
		require.True(t, time.Now().Before(deadline), "ReadLine never switched to raw mode")
		time.Sleep(time.Millisecond)
	}
	_, err := master.WriteString(input)
	require.NoError(t, err)
	select {
	case res := <-done:
		if res.pan != nil {
			panic(res.pan)
		}
		return res.line, res.err
	case <-time.After(5 * time.Second):
		t.Fatal("ReadLine did not return")
		return "", nil
	}
}

// panicWriter accepts the first write (the prompt) and panics on the next.
type panicWriter struct{ writes int }

func (w *panicWriter) Write(p []byte) (int, error) {
	w.writes++
	if w.writes > 1 {
		panic("writer exploded")
	}
	return len(p), nil
}

func TestTerminalModeRestored(t *testing.T) {
	master, slave := openPTY(t)
	require.True(t, IsTerminal(slave))
	before := termios(t, slave)
	require.NotZero(t, before.Lflag&syscall.ICANON, "a fresh terminal is in canonical mode")

	tests := []struct {
		name  string
		input string
		line  string
		err   error
	}{
		{"line", "héllo\x1b[D\x1b[DX\r", "hélXlo", nil},
		{"interrupt", "abc\x03", "", ErrInterrupted},
		{"end of input", "\x04", "", io.EOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := New(slave, io.Discard, Options{Prompt: "> "})
			require.NoError(t, err)
			line, err := readLineWhenRaw(t, e, master, slave, tt.input)
			assert.Equal(t, tt.line, line)
			assert.Equal(t, tt.err, err)
			assert.Equal(t, before, termios(t, slave), "terminal mode restored")
			require.NoError(t, e.Close())
		})
	}

	t.Run("panic", func(t *testing.T) {
		e, err := New(slave, &panicWriter{}, Options{})
		require.NoError(t, err)
		assert.PanicsWithValue(t, "writer exploded", func() {
			_, _ = readLineWhenRaw(t, e, master, slave, "x\r")
		})
		assert.Equal(t, before, termios(t, slave), "terminal mode restored after a panic")
	})
}

func TestIsTerminalFalse(t *testing.T) {
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	defer w.Close()
	assert.False(t, IsTerminal(r))
	_, err = New(r, io.Discard, Options{})
	assert.ErrorIs(t, err, ErrNotTerminal)
}
