package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// needTool returns the path of a program a test drives: the test skips
// without it on a laptop and fails without it in CI (.ci/run installs it).
func needTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not installed; .ci/run installs it (Debian's package)", name)
		}
		t.Skipf("%s is not installed", name)
	}
	return p
}

// buildSoni builds the soni command into a temporary directory.
func buildSoni(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "soni")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/soni-dev/soni/cmd/soni")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	return bin
}

type nvimDiag struct {
	Lnum     int    `json:"lnum"`
	Col      int    `json:"col"`
	EndCol   int    `json:"end_col"`
	Code     string `json:"code"`
	Message  string `json:"message"`
	Severity int    `json:"severity"`
}

// TestNeovim drives soni lsp through a real client: Neovim's built-in LSP
// client, headless (testdata/nvim/drive.lua). It opens a project, types a
// mistake, and reads back the diagnostics, a completion list, a definition
// and a rename.
func TestNeovim(t *testing.T) {
	nvim := needTool(t, "nvim")
	bin := buildSoni(t)
	dir := copyProject(t, "trip")
	out := filepath.Join(t.TempDir(), "out.json")
	script, err := filepath.Abs(filepath.Join("testdata", "nvim", "drive.lua"))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-n", "-c", "luafile "+script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "SONI_BIN="+bin, "SONI_ROOT="+dir, "SONI_OUT="+out, "XDG_STATE_HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir())
	log, err := cmd.CombinedOutput()
	require.NoError(t, err, "nvim: %s", log)
	b, err := os.ReadFile(out)
	require.NoError(t, err, "nvim wrote no result: %s", log)
	var res struct {
		Error      string     `json:"error"`
		Opened     []nvimDiag `json:"opened"`
		Typed      []nvimDiag `json:"typed"`
		Line       string     `json:"line"`
		Completion []string   `json:"completion"`
		Undone     []nvimDiag `json:"undone"`
		Definition []struct {
			URI   string `json:"uri"`
			Range struct {
				Start struct{ Line, Character int } `json:"start"`
			} `json:"range"`
		} `json:"definition"`
		Renamed     map[string]string `json:"renamed"`
		AfterRename []nvimDiag        `json:"after_rename"`
	}
	require.NoError(t, json.Unmarshal(b, &res), "%s", b)
	require.Empty(t, res.Error, "the Lua driver failed")

	// The diagnostics of soni validate, as Neovim shows them.
	require.Len(t, res.Opened, 2)
	assert.Equal(t, nvimDiag{Lnum: 17, Col: 14, EndCol: 18, Code: "W017", Severity: 2, Message: res.Opened[0].Message}, res.Opened[0])
	assert.Contains(t, res.Opened[0].Message, `conversation slot "city" keeps its value`)

	// The mistake typed, and its diagnostic with the suggestion.
	assert.Equal(t, `        message: "How many nights in {cty}?"`, res.Line)
	var e032 *nvimDiag
	for i := range res.Typed {
		if res.Typed[i].Code == "E032" {
			e032 = &res.Typed[i]
		}
	}
	require.NotNil(t, e032, "%v", res.Typed)
	assert.Equal(t, 22, e032.Lnum)
	assert.Equal(t, 38, e032.Col)
	assert.Equal(t, 1, e032.Severity)
	assert.Contains(t, e032.Message, `unknown slot "cty" in template`)
	assert.Contains(t, e032.Message, `did you mean "city"?`)

	assert.Equal(t, []string{"city", "nights", "reference"}, res.Completion)
	assert.Len(t, res.Undone, 2)

	require.Len(t, res.Definition, 1)
	assert.True(t, strings.HasSuffix(res.Definition[0].URI, "/domain.yaml"), res.Definition[0].URI)
	assert.Equal(t, 15, res.Definition[0].Range.Start.Line)
	assert.Equal(t, 2, res.Definition[0].Range.Start.Character)

	assert.Contains(t, res.Renamed["trip.yaml"], "        slot: town\n")
	assert.Contains(t, res.Renamed["trip.yaml"], "How many nights in {town}?")
	assert.Contains(t, res.Renamed["trip.yaml"], "evaluate: town == 'rome'")
	assert.Contains(t, res.Renamed["domain.yaml"], "  town:\n")
	assert.Contains(t, res.Renamed["domain.yaml"], "inputs: [town, nights]")
	assert.Contains(t, res.Renamed["tests/trip.yaml"], "- town: paris")
	// Names that only contain the slot's name are left alone.
	assert.Contains(t, res.Renamed["trip.yaml"], "step: ask_city")
	assert.Contains(t, res.Renamed["trip.yaml"], `"Which city?"`)
	require.Len(t, res.AfterRename, 2, "the renamed project has the same diagnostics: %v", res.AfterRename)
	assert.Contains(t, res.AfterRename[0].Message, `conversation slot "town"`)
}

// TestNeovimDocSnippet runs the Neovim configuration of docs/editors.md as
// it is written there, with soni on PATH, and checks that the project's
// diagnostics arrive in the buffer.
func TestNeovimDocSnippet(t *testing.T) {
	nvim := needTool(t, "nvim")
	doc, err := os.ReadFile(filepath.Join("..", "docs", "editors.md"))
	require.NoError(t, err)
	_, after, ok := strings.Cut(string(doc), "```lua\n-- soni lsp")
	require.True(t, ok, "docs/editors.md has no Neovim snippet")
	snippet, _, _ := strings.Cut("-- soni lsp"+after, "```")
	bin := buildSoni(t)
	dir := copyProject(t, "trip")
	init := filepath.Join(t.TempDir(), "init.lua")
	require.NoError(t, os.WriteFile(init, []byte("vim.cmd('filetype on')\n"+snippet), 0o644))
	out := filepath.Join(t.TempDir(), "out.txt")
	wait := fmt.Sprintf(`lua vim.wait(60000, function() return #vim.diagnostic.get(0) >= 2 end, 20); vim.fn.writefile({tostring(#vim.diagnostic.get(0)), vim.bo.omnifunc}, %q)`, out)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-n", "-u", init, "-i", "NONE", "trip.yaml", "-c", wait, "-c", "qa!")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"), "XDG_STATE_HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir())
	log, err := cmd.CombinedOutput()
	require.NoError(t, err, "nvim: %s", log)
	b, err := os.ReadFile(out)
	require.NoError(t, err, "nvim: %s", log)
	assert.Equal(t, "2\nv:lua.vim.lsp.omnifunc\n", string(b), "the two W017 warnings of trip.yaml")
}
