package compiler

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// SplitProjects returns the projects a path holds, for the commands that
// take several at once (soni validate). A file, or a directory that holds
// flow files of its own, is one project. A directory that holds none of its
// own, only subdirectories with flow files (flows/ holding banking/ and
// travel/), holds one project per subdirectory: the nearest directory
// below it that holds flow files, as soni test finds the project of a test
// file. When that split would leave a part that defines no flows (a
// project laid out as domain/ and flows/), or fewer than two parts, the
// whole directory is one project, as language.md §2 says. Conversation
// test files (top-level test_cases) and eval files (top-level eval_cases)
// are not flow files. Unreadable paths (and files over the size limit)
// are left for Compile to report.
func SplitProjects(path string, opts Options) []string {
	opts = opts.withDefaults()
	info, err := os.Stat(path)
	if err != nil || !info.IsDir() {
		return []string{path}
	}
	files, ds := ProjectFiles(path)
	if len(ds) > 0 {
		return []string{path}
	}
	var flowFiles []string
	for _, f := range files {
		if src, d := readFile(f, opts); d == nil && !otherFileRE().Match(src) {
			flowFiles = append(flowFiles, f)
		}
	}
	parts := splitDir(path, flowFiles, opts)
	if len(parts) < 2 {
		return []string{path}
	}
	for _, p := range parts {
		if !p.hasFlows {
			return []string{path}
		}
	}
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = p.dir
	}
	sort.Strings(out)
	return out
}

// projectPart is one project a directory splits into.
type projectPart struct {
	dir      string
	hasFlows bool
}

// splitDir splits the flow files below dir into projects: dir itself when
// it holds one of them directly, else the split of each subdirectory.
func splitDir(dir string, files []string, opts Options) []projectPart {
	if len(files) == 0 {
		return nil
	}
	byChild := map[string][]string{}
	for _, f := range files {
		rel, err := filepath.Rel(dir, f)
		if err != nil {
			return []projectPart{{dir: dir, hasFlows: anyDefinesFlows(files, opts)}}
		}
		child, _, nested := strings.Cut(filepath.ToSlash(rel), "/")
		if !nested {
			return []projectPart{{dir: dir, hasFlows: anyDefinesFlows(files, opts)}}
		}
		byChild[child] = append(byChild[child], f)
	}
	children := make([]string, 0, len(byChild))
	for c := range byChild {
		children = append(children, c)
	}
	sort.Strings(children)
	var out []projectPart
	for _, c := range children {
		out = append(out, splitDir(filepath.Join(dir, c), byChild[c], opts)...)
	}
	return out
}

var flowsKeyRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^flows\s*:`) })

// anyDefinesFlows reports whether one of the files has a top-level flows
// key.
func anyDefinesFlows(files []string, opts Options) bool {
	for _, f := range files {
		if src, d := readFile(f, opts); d == nil && flowsKeyRE().Match(src) {
			return true
		}
	}
	return false
}
