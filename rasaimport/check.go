package rasaimport

import (
	"cmp"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/diag"
)

// Check is what soni's compiler said of the project [Import] wrote: the
// same diagnostics `soni validate DIR` prints.
type Check struct {
	// Errors and Warnings count the diagnostics.
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	// Codes counts the diagnostics per code.
	Codes map[string]int `json:"codes,omitempty"`
	// Problems are the errors, FILE:LINE: message, in file order.
	Problems []string `json:"problems,omitempty"`
	// Result is the compiler's result, for a front end that prints the
	// diagnostics with their source lines.
	Result *compiler.Result `json:"-"`
}

// checkProject compiles the project in dir as `soni validate dir` does.
func checkProject(dir string) *Check {
	r := compiler.Compile(dir, compiler.Options{})
	r.Diags.Sort()
	c := &Check{Codes: map[string]int{}, Result: r}
	c.Errors, c.Warnings = r.Diags.Count()
	prefix := filepath.ToSlash(filepath.Clean(dir)) + "/"
	for _, d := range r.Diags {
		c.Codes[d.Code]++
		if d.Severity == diag.Error {
			// Named inside the project, as IMPORT.md names its files.
			d.Pos.File = strings.TrimPrefix(filepath.ToSlash(d.Pos.File), prefix)
			c.Problems = append(c.Problems, d.String())
		}
	}
	return c
}

// Line sums up the check in one line, as the CLI prints it and IMPORT.md
// says it: "soni validate: 0 errors, 14 warnings (W004 ×5, W018 ×4)".
func (c *Check) Line() string {
	codes := slices.Collect(maps.Keys(c.Codes))
	slices.SortFunc(codes, func(a, b string) int { return cmp.Or(cmp.Compare(c.Codes[b], c.Codes[a]), cmp.Compare(a, b)) })
	parts := make([]string, len(codes))
	for i, code := range codes {
		parts[i] = fmt.Sprintf("%s ×%d", code, c.Codes[code])
	}
	s := fmt.Sprintf("soni validate: %s, %s", plural(c.Errors, "error"), plural(c.Warnings, "warning"))
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	return s
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
