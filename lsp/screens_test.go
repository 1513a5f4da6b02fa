package lsp

import (
	"context"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/internal/browsertest"
)

// The screenshots of docs/editors.md, in the order the page shows them.
var screens = []string{"diagnostics", "completion", "hover", "code-actions", "definition", "references", "rename", "symbols", "format-before", "format-after"}

// greet is a flow file in need of formatting: a comment without its space,
// trailing white space (Neovim shows it as ~) and runs of blank lines.
const greet = "#A greeting, and the comments stay.\nversion: \"1.0\"   \n\n\n\nflows:\n  greet:   # said first\n    description: Say hello\n    trigger:\n      intents: [\"hello\", \"hi there\"]\n\n\n    steps:\n      - step: hello  \n        type: say\n        message: \"Hello!\"\n\n\n"

// TestNeovimScreenshots runs Neovim with its built-in LSP client on soni
// lsp in a tmux pane, does what docs/editors.md shows with each feature
// (testdata/nvim/screens.lua), and renders each screen to a PNG with
// headless Chromium: $SONI_ARTIFACTS/editors in CI; with SONI_UPDATE=1
// also docs/img/editors-NAME.png.
func TestNeovimScreenshots(t *testing.T) {
	nvim := needTool(t, "nvim")
	tmux := needTool(t, "tmux")
	browsertest.Chromium(t)
	bin := buildSoni(t)
	dir := copyProject(t, "trip")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "greet.yaml"), []byte(greet), 0o644))
	ansi := t.TempDir()
	sock := filepath.Join(t.TempDir(), "tmux.sock")
	script, err := filepath.Abs(filepath.Join("testdata", "nvim", "screens.lua"))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	env := []string{"SONI_BIN=" + bin, "SONI_ROOT=" + dir, "SONI_SHOTS=" + ansi, "SONI_TMUX=" + sock, "XDG_STATE_HOME=" + t.TempDir(), "XDG_DATA_HOME=" + t.TempDir()}
	args := []string{"-S", sock, "-f", "/dev/null", "new-session", "-d", "-s", "soni", "-x", "118", "-y", "30", "-c", dir}
	for _, e := range env {
		args = append(args, "-e", e)
	}
	args = append(args, nvim, "--clean", "-n", "-c", "luafile "+script)
	out, err := exec.CommandContext(ctx, tmux, args...).CombinedOutput()
	require.NoError(t, err, "tmux: %s", out)
	t.Cleanup(func() { _ = exec.Command(tmux, "-S", sock, "kill-server").Run() })
	// The script signals the channel when it has taken every screen.
	out, err = exec.CommandContext(ctx, tmux, "-S", sock, "wait-for", "soni-done").CombinedOutput()
	require.NoError(t, err, "tmux wait-for: %s", out)
	if b, err := os.ReadFile(filepath.Join(ansi, "error.txt")); err == nil {
		t.Fatalf("the Neovim script failed: %s", b)
	}

	shots := t.TempDir()
	if a := os.Getenv("SONI_ARTIFACTS"); a != "" {
		shots = filepath.Join(a, "editors")
	}
	require.NoError(t, os.MkdirAll(shots, 0o755))
	ctxB := browsertest.New(t)
	for _, name := range screens {
		b, err := os.ReadFile(filepath.Join(ansi, name+".ansi"))
		require.NoError(t, err, "screen %s", name)
		page := filepath.Join(t.TempDir(), name+".html")
		require.NoError(t, os.WriteFile(page, []byte(ansiPage(string(b))), 0o644))
		require.NoError(t, chromedp.Do(ctxB, chromedp.Navigate("file://"+page)))
		png, err := chromedp.Run(ctxB, chromedp.Screenshot(chromedp.CSS("pre")))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(shots, name+".png"), png, 0o644))
		if os.Getenv("SONI_UPDATE") != "" {
			require.NoError(t, os.WriteFile(filepath.Join("..", "docs", "img", "editors-"+name+".png"), png, 0o644))
		}
	}
}

// ansiPage renders a terminal screen captured with its SGR escapes
// (tmux capture-pane -e) as an HTML page, in the terminal's cell grid.
func ansiPage(screen string) string {
	var b strings.Builder
	b.WriteString(`<!doctype html><html><head><meta charset="utf-8"><style>
body { margin: 0; background: #1c1c1c; }
pre { margin: 0; padding: 12px 14px; display: inline-block; font: 15px/1.3 "DejaVu Sans Mono", "Liberation Mono", monospace; color: #d0d0d0; background: #1c1c1c; }
</style></head><body><pre>`)
	st := sgr{}
	open := false
	flush := func() {
		if open {
			b.WriteString("</span>")
			open = false
		}
		if css := st.css(); css != "" {
			b.WriteString(`<span style="` + css + `">`)
			open = true
		}
	}
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	for i, line := range lines {
		for j := 0; j < len(line); {
			if line[j] == 0x1b && j+1 < len(line) && line[j+1] == '[' {
				k := j + 2
				for k < len(line) && (line[k] < 0x40 || line[k] > 0x7e) {
					k++
				}
				if k < len(line) && line[k] == 'm' {
					st.apply(line[j+2 : k])
					flush()
				}
				j = k + 1
				continue
			}
			r := line[j]
			n := 1
			if r >= 0x80 {
				for n < 4 && j+n < len(line) && line[j+n]&0xc0 == 0x80 {
					n++
				}
			}
			b.WriteString(html.EscapeString(line[j : j+n]))
			j += n
		}
		if i < len(lines)-1 {
			b.WriteString("\n")
		}
	}
	if open {
		b.WriteString("</span>")
	}
	b.WriteString("</pre></body></html>\n")
	return b.String()
}

// sgr is the terminal's current graphic rendition.
type sgr struct {
	fg, bg                       string
	bold, italic, under, reverse bool
}

func (s *sgr) apply(params string) {
	if params == "" {
		*s = sgr{}
		return
	}
	ps := strings.Split(params, ";")
	for i := 0; i < len(ps); i++ {
		n, _ := strconv.Atoi(ps[i])
		switch {
		case n == 0:
			*s = sgr{}
		case n == 1:
			s.bold = true
		case n == 3:
			s.italic = true
		case n == 4:
			s.under = true
		case n == 7:
			s.reverse = true
		case n == 22:
			s.bold = false
		case n == 23:
			s.italic = false
		case n == 24:
			s.under = false
		case n == 27:
			s.reverse = false
		case n >= 30 && n <= 37:
			s.fg = palette(n - 30)
		case n >= 90 && n <= 97:
			s.fg = palette(n - 90 + 8)
		case n >= 40 && n <= 47:
			s.bg = palette(n - 40)
		case n >= 100 && n <= 107:
			s.bg = palette(n - 100 + 8)
		case n == 39:
			s.fg = ""
		case n == 49:
			s.bg = ""
		case (n == 38 || n == 48) && i+2 < len(ps) && ps[i+1] == "5":
			c, _ := strconv.Atoi(ps[i+2])
			if n == 38 {
				s.fg = palette(c)
			} else {
				s.bg = palette(c)
			}
			i += 2
		case (n == 38 || n == 48) && i+4 < len(ps) && ps[i+1] == "2":
			r, _ := strconv.Atoi(ps[i+2])
			g, _ := strconv.Atoi(ps[i+3])
			bl, _ := strconv.Atoi(ps[i+4])
			c := fmt.Sprintf("#%02x%02x%02x", r, g, bl)
			if n == 38 {
				s.fg = c
			} else {
				s.bg = c
			}
			i += 4
		}
	}
}

func (s sgr) css() string {
	fg, bg := s.fg, s.bg
	if s.reverse {
		if fg == "" {
			fg = "#d0d0d0"
		}
		if bg == "" {
			bg = "#1c1c1c"
		}
		fg, bg = bg, fg
	}
	var parts []string
	if fg != "" {
		parts = append(parts, "color:"+fg)
	}
	if bg != "" {
		parts = append(parts, "background:"+bg)
	}
	if s.bold {
		parts = append(parts, "font-weight:bold")
	}
	if s.italic {
		parts = append(parts, "font-style:italic")
	}
	if s.under {
		parts = append(parts, "text-decoration:underline")
	}
	return strings.Join(parts, ";")
}

// palette returns the colour of xterm's 256-colour palette entry n.
func palette(n int) string {
	base := []string{"#000000", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5",
		"#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#ffffff"}
	switch {
	case n < 0:
		return ""
	case n < 16:
		return base[n]
	case n < 232:
		n -= 16
		level := func(v int) int {
			if v == 0 {
				return 0
			}
			return 55 + 40*v
		}
		return fmt.Sprintf("#%02x%02x%02x", level(n/36), level(n/6%6), level(n%6))
	case n < 256:
		v := 8 + 10*(n-232)
		return fmt.Sprintf("#%02x%02x%02x", v, v, v)
	}
	return ""
}
