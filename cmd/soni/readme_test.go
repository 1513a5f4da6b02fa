package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestREADMEConsoleBlocks runs every ```console block of the README, in
// order and in one working directory (so the second chat resumes the
// first), and compares what soni prints with what the block shows, so
// that the README cannot drift from the program ("62 passed" when 63
// pass).
//
// A block is a list of commands, each a "$ " line (a trailing "\" joins the
// next line) followed by its output. How each runs:
//
//   - soni ARGS: the soni binary, built for the test. stdout and stderr
//     are one stream, as on a terminal. For soni chat, the block's "> "
//     lines are what the user types; they are its stdin and are not
//     output.
//   - soni serve ... &: the server, in the background, on a free port
//     instead of 5005 (--addr 127.0.0.1:0); its output is not checked
//     (the README elides it with "...") and it is stopped at the end.
//   - curl: the request it describes (-H, -d, the URL, with localhost:5005
//     turned into the server's address), made with net/http; the output
//     is the answer's body.
//
// A line "..." in the output stands for any number of lines. Files the
// README's commands name but do not show are in testdata/readme
// (broken.yaml); flows/ is the repository's.
func TestREADMEConsoleBlocks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds soni and runs the banking actions with go run")
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	blocks := regexp.MustCompile("(?s)```console\n(.*?)```").FindAllSubmatch(readme, -1)
	require.NotEmpty(t, blocks, "the README has no console blocks")

	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	work := t.TempDir()
	bin := filepath.Join(t.TempDir(), "soni")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, ".")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	flows, err := filepath.Abs(filepath.Join("..", "..", "flows"))
	require.NoError(t, err)
	require.NoError(t, os.Symlink(flows, filepath.Join(work, "flows")))
	extra, err := os.ReadFile(filepath.Join("testdata", "readme", "broken.yaml"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(work, "broken.yaml"), extra, 0o644))

	r := &readmeRunner{t: t, ctx: ctx, bin: bin, work: work}
	defer r.stop()
	ran := map[string]bool{}
	for _, b := range blocks {
		for _, c := range parseConsole(string(b[1])) {
			got := r.run(c)
			if !c.background {
				assert.True(t, matchLines(c.output, got), "README: $ %s\n--- the README shows\n%s\n--- soni printed\n%s", c.line, strings.Join(c.output, "\n"), strings.Join(got, "\n"))
			}
			ran[strings.Fields(c.line)[0]+" "+strings.Fields(c.line)[1]] = true
		}
	}
	// The tour and the serve example are the blocks this test is for.
	for _, want := range []string{"soni validate", "soni chat", "soni test", "soni serve", "curl -s"} {
		assert.True(t, ran[want], "no README console block runs %q", want)
	}
}

// consoleCommand is one "$ " command of a console block.
type consoleCommand struct {
	line       string
	input      []string
	output     []string
	background bool
}

// parseConsole splits a console block into its commands.
func parseConsole(block string) []*consoleCommand {
	var out []*consoleCommand
	lines := strings.Split(strings.TrimSuffix(block, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if cmd, ok := strings.CutPrefix(l, "$ "); ok {
			for strings.HasSuffix(cmd, "\\") && i+1 < len(lines) {
				i++
				cmd = strings.TrimSuffix(cmd, "\\") + " " + strings.TrimSpace(lines[i])
			}
			c := &consoleCommand{line: cmd}
			if rest, ok := strings.CutSuffix(cmd, " &"); ok {
				c.line, c.background = rest, true
			}
			out = append(out, c)
			continue
		}
		if len(out) == 0 {
			continue
		}
		c := out[len(out)-1]
		if in, ok := strings.CutPrefix(l, "> "); ok && strings.HasPrefix(c.line, "soni chat") {
			c.input = append(c.input, in)
			continue
		}
		c.output = append(c.output, l)
	}
	return out
}

// matchLines reports whether got matches want, where a want line "..."
// matches any number of lines.
func matchLines(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if want[0] == "..." {
		for i := 0; i <= len(got); i++ {
			if matchLines(want[1:], got[i:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && want[0] == got[0] && matchLines(want[1:], got[1:])
}

// readmeRunner runs the README's commands in one working directory.
type readmeRunner struct {
	t         *testing.T
	ctx       context.Context
	bin, work string
	// server is the background soni serve, and addr its host:port.
	server *exec.Cmd
	addr   string
}

// run runs one command and returns its output lines.
func (r *readmeRunner) run(c *consoleCommand) []string {
	t := r.t
	args := shellWords(t, c.line)
	switch {
	case args[0] == "soni" && c.background:
		require.Equal(t, "serve", args[1], "only soni serve runs in the background")
		cmd := exec.CommandContext(r.ctx, r.bin, append(args[1:], "--addr", "127.0.0.1:0")...)
		cmd.Dir = r.work
		stderr, err := cmd.StderrPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		r.server = cmd
		// The start line names the address: "... on http://127.0.0.1:PORT ...".
		var seen bytes.Buffer
		buf := make([]byte, 1)
		for !regexp.MustCompile(`on http://[0-9.]+:\d+ `).Match(seen.Bytes()) {
			_, err := stderr.Read(buf)
			require.NoError(t, err, "soni serve printed no address: %s", seen.String())
			seen.Write(buf)
		}
		r.addr = strings.TrimPrefix(regexp.MustCompile(`http://[0-9.]+:\d+`).FindString(seen.String()), "http://")
		go func() { _, _ = io.Copy(io.Discard, stderr) }()
		return nil
	case args[0] == "soni":
		cmd := exec.CommandContext(r.ctx, r.bin, args[1:]...)
		cmd.Dir = r.work
		cmd.Env = append(os.Environ(), "NO_COLOR=1")
		cmd.Stdin = strings.NewReader(strings.Join(c.input, "\n") + "\n")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		_ = cmd.Run() // a failing command (validate broken.yaml) is part of the tour
		return strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	case args[0] == "curl":
		require.NotEmpty(t, r.addr, "curl before soni serve")
		var url, body string
		req := http.Header{}
		for i := 1; i < len(args); i++ {
			switch args[i] {
			case "-s":
			case "-H":
				i++
				k, v, _ := strings.Cut(args[i], ":")
				req.Set(k, strings.TrimSpace(v))
			case "-d":
				i++
				body = args[i]
			default:
				url = "http://" + strings.Replace(args[i], "localhost:5005", r.addr, 1)
			}
		}
		hreq, err := http.NewRequestWithContext(r.ctx, http.MethodPost, url, strings.NewReader(body))
		require.NoError(t, err)
		hreq.Header = req
		resp, err := http.DefaultClient.Do(hreq)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	}
	t.Fatalf("README runs %q, which this test cannot run", c.line)
	return nil
}

func (r *readmeRunner) stop() {
	if r.server != nil {
		_ = r.server.Process.Kill()
		_ = r.server.Wait()
	}
}

// shellWords splits a command line as a shell would, for the quoting the
// README uses: single and double quotes, no escapes or variables.
func shellWords(t *testing.T, line string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote rune
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	require.Zero(t, quote, "unclosed quote in %q", line)
	if inWord {
		words = append(words, cur.String())
	}
	return words
}
