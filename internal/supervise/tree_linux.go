//go:build linux

package supervise

import (
	"bytes"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// killTree kills every descendant of the process self. It freezes them
// first: it walks the process tree in /proc and stops (SIGSTOP) every
// descendant it finds, again and again until a walk finds no new one, so
// that none can fork once the last walk is done; then it kills them all.
// Each process is signalled through a pidfd opened before its parent is
// checked again, so a pid that was reused in between is never signalled.
func killTree(self int) {
	frozen := map[int]*target{}
	defer func() {
		for _, t := range frozen {
			t.close()
		}
	}()
	for {
		kids := childrenByParent()
		added := false
		queue := []int{self}
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			for _, c := range kids[p] {
				if _, ok := frozen[c]; !ok {
					t := pin(c, func(ppid int) bool { return ppid == self || frozen[ppid] != nil })
					if t == nil {
						continue
					}
					t.signal(syscall.SIGSTOP)
					frozen[c] = t
					added = true
				}
				queue = append(queue, c)
			}
		}
		if !added {
			break
		}
	}
	for _, t := range frozen {
		t.signal(syscall.SIGKILL)
	}
}

// target is a process to signal: through a pidfd where the kernel has
// them (Linux 5.3), else by its pid.
type target struct {
	pid, fd int
}

// pidfds is false once the kernel has said it has no pidfd_open.
var pidfds = true

// pin returns the process pid when its parent, read after the process was
// pinned, is one that ours accepts; nil when it is not, or is gone.
func pin(pid int, ours func(ppid int) bool) *target {
	t := &target{pid: pid, fd: -1}
	if pidfds {
		fd, err := unix.PidfdOpen(pid, 0)
		switch {
		case err == nil:
			t.fd = fd
		case err == syscall.ENOSYS:
			pidfds = false
		default:
			return nil
		}
	}
	if ppid, ok := parentOf(pid); !ok || !ours(ppid) {
		t.close()
		return nil
	}
	return t
}

func (t *target) signal(sig syscall.Signal) {
	if t.fd >= 0 {
		_ = unix.PidfdSendSignal(t.fd, sig, nil, 0)
		return
	}
	_ = syscall.Kill(t.pid, sig)
}

func (t *target) close() {
	if t.fd >= 0 {
		_ = syscall.Close(t.fd)
		t.fd = -1
	}
}

// childrenByParent reads every process's parent from /proc.
func childrenByParent() map[int][]int {
	kids := map[int][]int{}
	d, err := os.Open("/proc")
	if err != nil {
		return kids
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		if ppid, ok := parentOf(pid); ok {
			kids[ppid] = append(kids[ppid], pid)
		}
	}
	return kids
}

// parentOf returns the parent of process pid, from /proc/PID/stat.
func parentOf(pid int) (int, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// "pid (comm) state ppid ...": comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(string(f[1]))
	return ppid, err == nil
}
