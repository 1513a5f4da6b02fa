//go:build linux

package main

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
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
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); errno != 0 {
		t.Skipf("pseudo-terminal setup: %v", errno)
	}
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); errno != 0 {
		t.Skipf("pseudo-terminal setup: %v", errno)
	}
	slave, err = os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { slave.Close() })
	return master, slave
}

// screen reads what chat draws on the terminal; upTo blocks until the
// output holds want (the editor's prompt is drawn once the terminal is in
// raw mode, so keys typed after it are read as keys).
type screen struct {
	r   *bufio.Reader
	out bytes.Buffer
}

func (s *screen) upTo(t *testing.T, want string) string {
	t.Helper()
	start := s.out.Len()
	for !strings.Contains(s.out.String()[start:], want) {
		b, err := s.r.ReadByte()
		if err != nil {
			t.Fatalf("terminal closed before %q: %q", want, s.out.String())
		}
		s.out.WriteByte(b)
	}
	return s.out.String()[start:]
}

// TestChatOnATerminal drives soni chat through a pseudo-terminal with
// x/term's editor: Ctrl-A moves to the start of the line, Up recalls the
// history, Ctrl-U clears, Ctrl-D on an empty line leaves, and the history
// file keeps the line for the next run.
func TestChatOnATerminal(t *testing.T) {
	master, slave := openPTY(t)
	dir := writeProject(t, pizzaFlow)
	cps := filepath.Join(t.TempDir(), "cps")
	done := make(chan int, 1)
	var errOut bytes.Buffer
	go func() {
		done <- run(context.Background(), []string{"soni", "chat", "--checkpoints", cps, dir}, slave, slave, &errOut)
	}()
	s := &screen{r: bufio.NewReader(master)}
	s.upTo(t, "> ")
	_, err := master.WriteString("rder pizza\x01o\r")
	require.NoError(t, err)
	assert.Contains(t, s.upTo(t, "> "), "Your name?")
	_, err = master.WriteString("\x1b[A")
	require.NoError(t, err)
	assert.Contains(t, s.upTo(t, "order pizza"), "order pizza", "Up recalls the last line")
	_, err = master.WriteString("\x15\x04") // Ctrl-U, then Ctrl-D on the empty line
	require.NoError(t, err)
	code := <-done // a chat that never leaves fails by the test run's timeout
	assert.Equal(t, exitOK, code, errOut.String())
	hist, err := os.ReadFile(filepath.Join(cps, ".history"))
	require.NoError(t, err)
	assert.Equal(t, "order pizza\n", string(hist))
}
