//go:build unix

package checkpoints

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests here re-execute the test binary as child processes running
// TestHelperProcess, told what to do by these environment variables.
const (
	helperEnv    = "SONI_CHECKPOINTS_HELPER" // the mode: "race", "rounds" or "kill"
	helperDir    = "SONI_CHECKPOINTS_DIR"
	helperID     = "SONI_CHECKPOINTS_ID"
	helperWriter = "SONI_CHECKPOINTS_WRITER"
	helperTarget = "SONI_CHECKPOINTS_TARGET"
)

// TestHelperProcess is the child side of the cross-process tests. It does
// nothing unless started by one of them.
func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		t.Skip("runs only as a child process of the cross-process tests")
	}
	var err error
	switch mode {
	case "race":
		err = helperRace()
	case "rounds":
		err = helperRounds()
	case "kill":
		err = helperKill()
	default:
		err = fmt.Errorf("unknown helper mode %q", mode)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(3)
	}
	os.Exit(0)
}

// helperRace increments the session in transactions until it reaches the
// target revision, racing another process doing the same. It prints the
// revisions it won and the number of conflicts it met (none: the lock
// serialises the transactions).
func helperRace() error {
	s, err := NewFileStore(os.Getenv(helperDir))
	if err != nil {
		return err
	}
	id, writer := os.Getenv(helperID), os.Getenv(helperWriter)
	target, err := strconv.ParseUint(os.Getenv(helperTarget), 10, 64)
	if err != nil {
		return err
	}
	// Start together: say we are ready, then wait for the go.
	fmt.Println("ready")
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		return err
	}
	ctx := context.Background()
	var won []string
	conflicts := 0
	for {
		tx, err := s.Begin(ctx, id)
		if err != nil {
			return err
		}
		_, rev := tx.Checkpoint()
		if rev >= target {
			tx.Close()
			break
		}
		err = tx.Commit(ctx, Record{Revision: rev + 1, Data: []byte(`{}`)}, doc(rev+1, writer))
		tx.Close()
		var ce *ConflictError
		switch {
		case err == nil:
			won = append(won, strconv.FormatUint(rev+1, 10))
		case errors.As(err, &ce):
			conflicts++ // the lock should make this impossible: the test fails
		default:
			return fmt.Errorf("commit over revision %d: %w", rev, err)
		}
	}
	fmt.Println("won", strings.Join(won, " "))
	fmt.Println("conflicts", conflicts)
	return nil
}

// TestCrossProcessIncrements runs two processes that increment one session
// in transactions, free-running. Every revision must be won by exactly one
// of them: the revisions they won are disjoint and together make
// 1..target, so no increment was lost, and no commit met a conflict.
func TestCrossProcessIncrements(t *testing.T) {
	target := 300
	if testing.Short() {
		target = 60
	}
	dir := filepath.Join(t.TempDir(), "cp")
	children := startChildren(t, "race", dir, helperTarget+"="+strconv.Itoa(target))
	for _, c := range children {
		_, err := io.WriteString(c.stdin, "go\n")
		require.NoError(t, err)
	}

	owner := map[uint64]int{}
	totalConflicts := 0
	for i, c := range children {
		out, err := io.ReadAll(c.stdout)
		require.NoError(t, err)
		require.NoError(t, c.cmd.Wait(), "child %d failed; its output: %s", i, out)
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		require.Len(t, lines, 2, "child %d output: %s", i, out)
		for _, f := range strings.Fields(strings.TrimPrefix(lines[0], "won")) {
			rev, err := strconv.ParseUint(f, 10, 64)
			require.NoError(t, err)
			prev, taken := owner[rev]
			require.False(t, taken, "revision %d won by both child %d and child %d", rev, prev, i)
			owner[rev] = i
		}
		n, err := strconv.Atoi(strings.TrimPrefix(lines[1], "conflicts "))
		require.NoError(t, err)
		totalConflicts += n
	}
	require.Len(t, owner, target, "every revision has exactly one winner")
	for rev := uint64(1); rev <= uint64(target); rev++ {
		require.Contains(t, owner, rev)
	}
	assert.Zero(t, totalConflicts, "the lock serialises the transactions")
	t.Logf("%d revisions; child 0 won %d, child 1 won %d",
		target, countOwner(owner, 0), countOwner(owner, 1))

	s, err := NewFileStore(dir)
	require.NoError(t, err)
	data, rev, err := s.Load(context.Background(), "shared")
	require.NoError(t, err)
	assert.Equal(t, uint64(target), rev)
	log, err := s.Log(context.Background(), "shared", 0, 0)
	require.NoError(t, err)
	assert.Len(t, log, target, "one record per revision")
	assert.Equal(t, doc(uint64(target), writers[owner[uint64(target)]]), data, "the last winner's bytes are stored")
}

// helperRounds commits over the revision the parent names on each input
// line, racing another process told the same, and answers "won", or
// "lost" when its transaction finds the other's commit.
func helperRounds() error {
	s, err := NewFileStore(os.Getenv(helperDir))
	if err != nil {
		return err
	}
	id, writer := os.Getenv(helperID), os.Getenv(helperWriter)
	fmt.Println("ready")
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		expected, err := strconv.ParseUint(in.Text(), 10, 64)
		if err != nil {
			return err
		}
		ctx := context.Background()
		tx, err := s.Begin(ctx, id)
		if err != nil {
			return err
		}
		switch _, rev := tx.Checkpoint(); rev {
		case expected:
			err = tx.Commit(ctx, Record{Revision: expected + 1, Data: []byte(`{}`)}, doc(expected+1, writer))
			if err == nil {
				fmt.Println("won")
			}
		case expected + 1:
			fmt.Println("lost")
		default:
			err = fmt.Errorf("round %d found revision %d", expected, rev)
		}
		tx.Close()
		if err != nil {
			return err
		}
	}
	return in.Err()
}

// TestCrossProcessRounds runs two processes racing on one session in
// rounds: in round k the parent tells both at once to commit over revision
// k. Exactly one must win each round; the other's transaction must find
// the session at k+1.
func TestCrossProcessRounds(t *testing.T) {
	rounds := 300
	if testing.Short() {
		rounds = 50
	}
	dir := filepath.Join(t.TempDir(), "cp")
	children := startChildren(t, "rounds", dir)
	wins := make([]int, len(children))
	for k := range rounds {
		// Alternate who is told first, so neither gets a head start.
		order := []int{k % 2, 1 - k%2}
		for _, i := range order {
			_, err := fmt.Fprintln(children[i].stdin, k)
			require.NoError(t, err)
		}
		winner := -1
		for i, c := range children {
			line, err := c.stdout.ReadString('\n')
			require.NoError(t, err, "round %d: child %d died", k, i)
			switch line {
			case "won\n":
				require.Equal(t, -1, winner, "round %d: both children won", k)
				winner = i
			case "lost\n":
			default:
				t.Fatalf("round %d: child %d said %q", k, i, line)
			}
		}
		require.NotEqual(t, -1, winner, "round %d: nobody won", k)
		wins[winner]++
	}
	for i, c := range children {
		require.NoError(t, c.stdin.Close())
		rest, _ := io.ReadAll(c.stdout)
		require.NoError(t, c.cmd.Wait(), "child %d: %s", i, rest)
	}
	t.Logf("%d rounds: child 0 won %d, child 1 won %d", rounds, wins[0], wins[1])

	s, err := NewFileStore(dir)
	require.NoError(t, err)
	_, rev, err := s.Load(context.Background(), "shared")
	require.NoError(t, err)
	assert.Equal(t, uint64(rounds), rev)
}

// writers names the children started by startChildren.
var writers = []string{"A", "B"}

// child is a running helper process.
type child struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
}

// startChildren starts two helpers in mode on session "shared" and waits
// until both say they are ready.
func startChildren(t *testing.T, mode, dir string, env ...string) []child {
	t.Helper()
	var children []child
	for _, w := range writers {
		cmd := helperCommand(t, mode, dir, "shared", append([]string{helperWriter + "=" + w}, env...)...)
		cmd.Stderr = os.Stderr
		stdin, err := cmd.StdinPipe()
		require.NoError(t, err)
		stdout, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		children = append(children, child{cmd, stdin, bufio.NewReader(stdout)})
	}
	for i, c := range children {
		line, err := c.stdout.ReadString('\n')
		require.NoError(t, err, "child %d died before it was ready", i)
		require.Equal(t, "ready\n", line)
	}
	return children
}

func countOwner(owner map[uint64]int, who int) int {
	n := 0
	for _, o := range owner {
		if o == who {
			n++
		}
	}
	return n
}

// killPayloadSize is the size of the blob in each payload of the kill loop:
// large enough that a write takes a while and kills land in the middle.
const killPayloadSize = 64 << 10

// killPayload is the one payload the kill-loop child writes for a revision.
// It carries its revision and a checksum of its blob.
func killPayload(rev uint64) []byte {
	blob := strings.Repeat(fmt.Sprintf("%016x", rev*0x9E3779B97F4A7C15), killPayloadSize/16)
	sum := sha256.Sum256([]byte(blob))
	return fmt.Appendf(nil, `{"revision":%d,"blob":%q,"sum":%q}`, rev, blob, hex.EncodeToString(sum[:]))
}

// checkKillPayload checks that data is exactly the payload of its revision
// and returns that revision.
func checkKillPayload(data []byte) (uint64, error) {
	var p struct {
		Revision uint64 `json:"revision"`
		Blob     string `json:"blob"`
		Sum      string `json:"sum"`
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return 0, fmt.Errorf("not JSON (%d bytes): %w", len(data), err)
	}
	sum := sha256.Sum256([]byte(p.Blob))
	if hex.EncodeToString(sum[:]) != p.Sum {
		return 0, fmt.Errorf("revision %d: checksum mismatch", p.Revision)
	}
	if want := killPayload(p.Revision); string(want) != string(data) {
		return 0, fmt.Errorf("revision %d: not the payload of that revision", p.Revision)
	}
	return p.Revision, nil
}

// helperKill saves revision after revision of the session until killed,
// printing "saved" after each save.
func helperKill() error {
	s, err := NewFileStore(os.Getenv(helperDir))
	if err != nil {
		return err
	}
	id := os.Getenv(helperID)
	ctx := context.Background()
	fmt.Println("ready")
	for {
		tx, err := s.Begin(ctx, id)
		if err != nil {
			return err
		}
		_, rev := tx.Checkpoint()
		if err := tx.Commit(ctx, Record{Revision: rev + 1, Data: []byte(`{}`)}, killPayload(rev+1)); err != nil {
			return err
		}
		tx.Close()
		fmt.Println("saved")
	}
}

// TestKillLoop SIGKILLs a process that commits checkpoints in a tight loop,
// many times at random moments. After every kill the checkpoint on disk
// must be exactly one of the payloads the child wrote, not a torn one, and
// the lock must be free for the next save.
//
// To kill at moments that matter whatever the speed of the machine (the
// race detector slows saves down tenfold), each child is let complete 0 to
// 2 saves and is then killed at a random point of the next one, using the
// save time measured so far.
func TestKillLoop(t *testing.T) {
	kills := 200
	if testing.Short() {
		kills = 20
	}
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv("SONI_KILL_SEED"); v != "" {
		var err error
		seed, err = strconv.ParseUint(v, 10, 64)
		require.NoError(t, err)
	}
	t.Logf("seed %d (set SONI_KILL_SEED to repeat)", seed)
	rng := rand.New(rand.NewPCG(seed, seed))

	dir := filepath.Join(t.TempDir(), "cp")
	s, err := NewFileStore(dir)
	require.NoError(t, err)
	var rev uint64
	childRevs := 0
	saveTime := 5 * time.Millisecond // running estimate of one child save
	start := time.Now()
	for i := range kills {
		cmd := helperCommand(t, "kill", dir, "victim")
		stdout, err := cmd.StdoutPipe()
		require.NoError(t, err)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		require.NoError(t, cmd.Start())
		lines := make(chan string, 64)
		go func() {
			defer close(lines)
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				lines <- sc.Text()
			}
		}()
		next := func(what string) time.Time {
			t.Helper()
			line, ok := <-lines
			require.True(t, ok, "kill %d: the child died waiting for %s: %s", i, what, stderr.String())
			require.Equal(t, what, line)
			return time.Now()
		}
		last := next("ready")
		for range rng.IntN(3) {
			now := next("saved")
			saveTime = (3*saveTime + now.Sub(last)) / 4
			last = now
		}
		time.Sleep(time.Duration(rng.Int64N(int64(saveTime) * 3 / 2)))
		require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
		for range lines { // drain, so that Wait can finish
		}
		err = cmd.Wait()
		var exitErr *exec.ExitError
		require.ErrorAs(t, err, &exitErr, "kill %d: %s", i, stderr.String())
		ws, ok := exitErr.Sys().(syscall.WaitStatus)
		require.True(t, ok)
		require.True(t, ws.Signaled(), "kill %d: the child exited by itself (%v): %s", i, err, stderr.String())

		data, _, err := s.Load(context.Background(), "victim")
		if rev == 0 && errors.Is(err, ErrNotFound) {
			// Killed before its first save finished: nothing on disk yet.
		} else {
			require.NoError(t, err, "kill %d", i)
			got, err := checkKillPayload(data)
			require.NoError(t, err, "kill %d: torn checkpoint", i)
			require.GreaterOrEqual(t, got, rev, "kill %d: the checkpoint went back", i)
			childRevs += int(got - rev)
			rev = got
		}

		// The dead child's lock is gone: the next turn goes through at once.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		tx, err := s.Begin(ctx, "victim")
		require.NoError(t, err, "kill %d: begin after the kill", i)
		_, loaded := tx.Checkpoint()
		require.Equal(t, rev, loaded, "kill %d", i)
		err = tx.Commit(ctx, Record{Revision: rev + 1, Data: []byte(`{}`)}, killPayload(rev+1))
		tx.Close()
		cancel()
		require.NoError(t, err, "kill %d: commit after the kill", i)
		rev++
	}
	var temps []string
	for _, name := range dirNames(t, dir) {
		if name == ".victim"+tempSuffix {
			temps = append(temps, name)
		}
	}
	t.Logf("%d kills in %v; the children saved %d revisions (%v each); %d kills left a temporary file (killed mid-save)",
		kills, time.Since(start).Round(time.Millisecond), childRevs, saveTime.Round(10*time.Microsecond), len(temps))
	assert.Positive(t, childRevs, "the children never saved: the test proved nothing")
	assert.LessOrEqual(t, len(temps), 1, "temporary files of killed saves pile up: %v", temps)

	infos, err := s.List(context.Background(), "", 0)
	require.NoError(t, err)
	assert.Equal(t, []string{"victim"}, idsOf(infos), "temporary, log and lock files are not sessions")
	log, err := s.Log(context.Background(), "victim", 0, 0)
	require.NoError(t, err)
	assert.Len(t, log, int(rev), "one record per revision, lines of killed commits left out")
	require.NoError(t, s.Delete(context.Background(), "victim"))
	assert.Empty(t, dirNames(t, dir), "Delete cleans up after crashed saves")
}

// helperCommand returns a command that runs TestHelperProcess in mode on
// session id in dir, with extra environment variables. The child is killed
// when the test ends.
func helperCommand(t *testing.T, mode, dir, id string, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, helperDir+"="+dir, helperID+"="+id)
	cmd.Env = append(cmd.Env, env...)
	return cmd
}
