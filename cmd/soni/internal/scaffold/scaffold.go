// Package scaffold writes the starting project of `soni init`: a flow with
// a collect, a confirmation and an action run by a Go program, a
// conversation test, an eval file, a .gitignore for .soni/, a GitHub
// Actions workflow and a short README. The project passes `soni validate
// --strict` and `soni test` as written.
//
// The files are in template/, embedded. The project files (flows/*.yaml)
// are written through the syntax package's model: decoded and encoded,
// so that what init writes is the canonical form every soni writer uses
// (the templates are kept in that form, which a test checks). Some are stored under other
// names so that the Go tool leaves them alone in this repository:
// go.mod.tmpl (a go.mod would make template/ a module of its own),
// main.go.tmpl (the action program would be built with soni) and
// gitignore (git would read a .gitignore).
package scaffold

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/soni-dev/soni/syntax"
)

//go:embed all:template
var template embed.FS

// renames maps a template file to the name it is written as.
var renames = map[string]string{
	"go.mod.tmpl":                     "go.mod",
	"flows/actions/cafe/main.go.tmpl": "flows/actions/cafe/main.go",
	"gitignore":                       ".gitignore",
}

// Create writes the starting project into dir, which must not exist or be
// empty: nothing is ever overwritten. name, the project's name, is used
// in its README and, cleaned up, as its Go module path. It returns the
// files written, slash-separated and relative to dir, in order.
func Create(dir, name string) ([]string, error) {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return nil, fmt.Errorf("%q is not empty: soni init writes a new project into a new or empty directory", dir)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("cannot use %q: %v", dir, err)
	}
	var files []string
	err := fs.WalkDir(template, "template", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, strings.TrimPrefix(p, "template/"))
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	var written []string
	for _, f := range files {
		src, err := template.ReadFile(path.Join("template", f))
		if err != nil {
			return written, err
		}
		out := f
		if r, ok := renames[f]; ok {
			out = r
		}
		if isProjectFile(f) {
			if src, err = canonical(f, src); err != nil {
				return written, err
			}
		}
		text := strings.NewReplacer("__NAME__", name, "__MODULE__", modulePath(name)).Replace(string(src))
		target := filepath.Join(dir, filepath.FromSlash(out))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return written, fmt.Errorf("cannot create %q: %v", filepath.Dir(target), unwrap(err))
		}
		// O_EXCL: a file that appeared meanwhile is never overwritten.
		fh, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return written, fmt.Errorf("cannot write %q: %v", target, unwrap(err))
		}
		_, err = fh.WriteString(text)
		if cerr := fh.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return written, fmt.Errorf("cannot write %q: %v", target, unwrap(err))
		}
		written = append(written, out)
	}
	sort.Strings(written)
	return written, nil
}

// isProjectFile reports whether a template file is a project file (flows,
// slots, actions, responses, settings), not a conversation test.
func isProjectFile(name string) bool {
	return strings.HasPrefix(name, "flows/") && !strings.HasPrefix(name, "flows/tests/") && strings.HasSuffix(name, ".yaml")
}

// canonical decodes a template project file and encodes it again.
func canonical(name string, src []byte) ([]byte, error) {
	f, err := syntax.DecodeFlows(name, src)
	if err != nil {
		return nil, fmt.Errorf("template %s: %v", name, err)
	}
	return syntax.Encode(f)
}

// modulePath makes a Go module path of a project name: lower case
// letters, digits, '-', '_' and '.', or "bot" when nothing is left.
func modulePath(name string) string {
	m := regexp.MustCompile(`[^a-z0-9._-]+`).ReplaceAllString(strings.ToLower(name), "-")
	m = strings.Trim(m, "-._")
	if m == "" {
		return "bot"
	}
	return m
}

func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
