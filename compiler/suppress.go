package compiler

import (
	"bytes"
	"regexp"
	"strings"
	"sync"

	"github.com/soni-dev/soni/diag"
)

// ignoreComment matches a suppression comment: "# soni:ignore W010 W006"
// at the end of a line silences those warnings on that line.
var ignoreComment = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`#\s*soni:ignore((?:[\s,]+W\d{3})+)`) })

// suppress drops the warnings that a "# soni:ignore CODE..." comment on
// their own line names. Errors are never suppressed: a project with an
// error cannot run, whatever a comment says.
func suppress(ds diag.List, files []*File) diag.List {
	ignored := map[string]map[int][]string{}
	for _, f := range files {
		if !bytes.Contains(f.Src, []byte("soni:ignore")) {
			continue
		}
		for i, line := range bytes.Split(f.Src, []byte("\n")) {
			m := ignoreComment().FindSubmatch(line)
			if m == nil {
				continue
			}
			if ignored[f.Path] == nil {
				ignored[f.Path] = map[int][]string{}
			}
			ignored[f.Path][i+1] = strings.FieldsFunc(string(m[1]), func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
		}
	}
	if len(ignored) == 0 {
		return ds
	}
	out := ds[:0]
	for _, d := range ds {
		if d.Severity == diag.Warning && contains(ignored[d.Pos.File][d.Pos.Line], d.Code) {
			continue
		}
		out = append(out, d)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
