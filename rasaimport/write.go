package rasaimport

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/soni-dev/soni/internal/safefile"
)

// ManifestFile lists, in the output directory, the files the importer
// wrote and what it wrote in each (their SHA-256), so that a new import
// overwrites only those, and not one a person edited since.
const ManifestFile = ".soni-import.json"

// manifest is the content of ManifestFile.
type manifest struct {
	Note   string            `json:"note"`
	Source string            `json:"source"`
	Files  map[string]string `json:"files"`
	// Items are the report's items, numbered as IMPORT.md lists them,
	// with what each concerns: soni test names those that touch a
	// failing turn (ImportedItems, Explain).
	Items []Item `json:"items,omitempty"`
}

// Options configure [Import].
type Options struct {
	// Force overwrites the files the last import wrote even when they
	// were edited since. Files the importer did not write are never
	// touched.
	Force bool
	// Tests are directories (or files) of Rasa e2e tests to import, as
	// `rasa test e2e PATH` would be given them, inside the project or
	// not. Empty: e2e_tests/, tests/ and e2e/ of the project.
	Tests []string
}

// Import translates the Rasa project in src into a soni project in dst,
// which it creates if needed. A file of dst is written only when the
// importer wrote it last time and nobody edited it since (or it does not
// exist); the report's Files say what happened to each.
//
// dst may not be src or a directory inside it: the soni files would sit
// among Rasa's, and the next validate would read both.
func Import(src, dst string, opts Options) (*Report, error) {
	if err := outsideSource(src, dst); err != nil {
		return nil, err
	}
	files, rep, err := translateWith(src, opts, available)
	if err != nil {
		return nil, err
	}
	// The report is written last: it says what the compiler made of the
	// other files, as they are on disk once written.
	changes, err := writeFiles(dst, src, files, opts, rep.Items, func() []byte {
		rep.Check = checkProject(dst)
		return rep.Markdown()
	})
	if err != nil {
		return nil, err
	}
	rep.Files = changes
	return rep, nil
}

// reportFile is the report the import writes into the output directory.
const reportFile = "IMPORT.md"

// outsideSource refuses an output directory that is the Rasa project or
// lies inside it.
func outsideSource(src, dst string) error {
	real := func(p string) string {
		abs, err := filepath.Abs(p)
		if err != nil {
			return filepath.Clean(p)
		}
		// The output may not exist yet: resolve its deepest existing
		// parent, so that a link to the project is seen through.
		rest := ""
		for {
			if r, err := filepath.EvalSymlinks(abs); err == nil {
				return filepath.Join(r, rest)
			}
			parent := filepath.Dir(abs)
			if parent == abs {
				return filepath.Join(abs, rest)
			}
			rest = filepath.Join(filepath.Base(abs), rest)
			abs = parent
		}
	}
	s, d := real(src), real(dst)
	if d == s {
		return fmt.Errorf("the output directory %q is the Rasa project itself: write the soni project to a new directory (soni import rasa %s -o %s-soni)", dst, src, strings.TrimSuffix(src, "/"))
	}
	if strings.HasPrefix(d, s+string(filepath.Separator)) {
		return fmt.Errorf("the output directory %q is inside the Rasa project %q: soni validate would read Rasa's files too; write the soni project outside it", dst, src)
	}
	return nil
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// writeFiles writes files into dst under the manifest's rules. The
// report file is placed last, with the bytes report returns once every
// other file is written and every stale one removed.
func writeFiles(dst, src string, files map[string][]byte, opts Options, items []Item, report func() []byte) ([]FileChange, error) {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return nil, &ReadError{fmt.Errorf("cannot create the output directory %q: %v", dst, errors.Unwrap(err))}
	}
	old := manifest{Files: map[string]string{}}
	mpath := filepath.Join(dst, ManifestFile)
	if b, err := safefile.ReadFile(mpath, 16<<20); err == nil {
		if err := json.Unmarshal(b, &old); err != nil || old.Files == nil {
			return nil, fmt.Errorf("%s is not the importer's manifest (%v): move it away, and the import writes only files that do not exist", mpath, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("cannot read %s: %v", mpath, err)
	}
	next := manifest{Note: "written by soni import rasa: the files it wrote and their SHA-256, and the items of IMPORT.md; do not edit", Source: src, Files: map[string]string{}, Items: items}
	var changes []FileChange
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	// put places one file and records it in the manifest.
	put := func(p string, data []byte) (FileChange, error) {
		if strings.HasPrefix(p, "/") || strings.Contains("/"+p+"/", "/../") {
			return FileChange{}, fmt.Errorf("internal error: output path %q leaves the output directory", p)
		}
		action, err := place(filepath.Join(dst, filepath.FromSlash(p)), data, old.Files[p], opts)
		if err != nil {
			return FileChange{}, err
		}
		switch action {
		case "written", "overwritten", "unchanged":
			next.Files[p] = sum(data)
		case "kept":
			next.Files[p] = old.Files[p]
		}
		return FileChange{Path: p, Action: action}, nil
	}
	reportAt := -1
	for _, p := range paths {
		if p == reportFile {
			reportAt = len(changes)
			continue
		}
		ch, err := put(p, files[p])
		if err != nil {
			return nil, err
		}
		changes = append(changes, ch)
	}
	// Files the last import wrote that this one does not: removed if
	// nobody edited them.
	var gone []string
	for p := range old.Files {
		if _, ok := files[p]; !ok {
			gone = append(gone, p)
		}
	}
	slices.Sort(gone)
	for _, p := range gone {
		if strings.HasPrefix(p, "/") || strings.Contains("/"+p+"/", "/../") {
			continue
		}
		full := filepath.Join(dst, filepath.FromSlash(p))
		cur, err := safefile.ReadFile(full, maxFileSize)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err == nil && (sum(cur) == old.Files[p] || opts.Force):
			if err := os.Remove(full); err != nil {
				return nil, fmt.Errorf("cannot remove %s: %v", full, errors.Unwrap(err))
			}
			changes = append(changes, FileChange{Path: p, Action: "removed"})
		default:
			next.Files[p] = old.Files[p]
			changes = append(changes, FileChange{Path: p, Action: "kept"})
		}
	}
	if reportAt >= 0 {
		data := files[reportFile]
		if report != nil {
			data = report()
		}
		ch, err := put(reportFile, data)
		if err != nil {
			return nil, err
		}
		changes = slices.Insert(changes, reportAt, ch)
	}
	b, _ := json.MarshalIndent(next, "", "  ")
	if err := writeAtomic(mpath, append(b, '\n')); err != nil {
		return nil, err
	}
	return changes, nil
}

// place writes data at full unless a person's file is there; it returns
// what it did. prev is the SHA-256 the last import wrote there ("" when
// it wrote nothing there).
func place(full string, data []byte, prev string, opts Options) (string, error) {
	st, err := os.Lstat(full)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return "", fmt.Errorf("cannot create %s: %v", filepath.Dir(full), errors.Unwrap(err))
		}
		return "written", writeAtomic(full, data)
	}
	if err != nil {
		return "", fmt.Errorf("cannot read %s: %v", full, errors.Unwrap(err))
	}
	if prev == "" || !st.Mode().IsRegular() {
		return "skipped", nil
	}
	cur, err := safefile.ReadFile(full, maxFileSize)
	if err != nil {
		return "", fmt.Errorf("cannot read %s: %v", full, err)
	}
	switch {
	case bytes.Equal(cur, data):
		return "unchanged", nil
	case sum(cur) != prev && !opts.Force:
		return "kept", nil
	}
	return "overwritten", writeAtomic(full, data)
}

// writeAtomic writes a file through a temporary file and a rename, so
// that a failed write never leaves half a file.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".soni-import-*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %v", path, errors.Unwrap(err))
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp.Name(), 0o644)
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("cannot write %s: %v", path, werr)
	}
	return nil
}
