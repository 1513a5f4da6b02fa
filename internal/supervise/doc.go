// Package supervise runs an action's command under a small supervisor
// process, so that nothing the command starts outlives the action or soni.
//
// On Linux, a program that calls Init first thing in main can start
// supervisors: copies of itself, re-executed through /proc/self/exe, in
// which Init (or Supervise, called earlier) supervises and exits. The
// package has no init: it never exits a program that did not ask for
// supervisors. A supervisor
//
//   - is a child subreaper (PR_SET_CHILD_SUBREAPER): every process the
//     command starts, and every process those start, stays its
//     descendant, even one that leaves the process group with setsid or
//     daemonizes with a double fork;
//   - starts the command in a process group of its own, with a
//     parent-death signal that kills the command if the supervisor dies;
//   - holds the read end of a control pipe whose write end only its parent
//     holds: the pipe reaches its end when the parent closes it (Stop: a
//     timeout, a cancelled turn, too much output) or dies, even by
//     SIGKILL, with no signal involved;
//   - when the command exits, or the control pipe ends, kills the
//     command's process group and then every descendant, found by walking
//     /proc and frozen with SIGSTOP first so that none can fork while the
//     walk runs, and exits only when all of them are reaped, reporting the
//     command's wait status on a status pipe.
//
// Elsewhere, and in a program that did not call Init, Enabled is false and
// callers keep their own, weaker handling (package procgroup).
package supervise
