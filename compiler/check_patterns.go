package compiler

import (
	"errors"
	"regexp"
	resyntax "regexp/syntax"
	"strings"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/syntax"
)

// check_patterns reports a slot pattern that is not a valid Go regular
// expression (E038), at the part of the pattern the parser rejects when
// the position can be mapped.
func checkPatterns(c *checker) {
	check := func(s *syntax.Slot) {
		if !s.Pattern.Set {
			return
		}
		_, err := regexp.Compile(s.Pattern.V)
		if err == nil {
			return
		}
		pos := s.Pattern.Pos
		var se *resyntax.Error
		if errors.As(err, &se) && se.Expr != "" {
			if i := strings.Index(s.Pattern.V, se.Expr); i >= 0 {
				line, col := runeLineCol(s.Pattern.V, len([]rune(s.Pattern.V[:i])))
				pos = s.Pattern.At(line, col)
			}
		}
		msg := strings.TrimPrefix(err.Error(), "error parsing regexp: ")
		c.ds.Add(pos, diag.CodeBadPattern, s.Pattern.Path,
			"invalid pattern %q of slot %q: %s; write a Go (RE2) regular expression", s.Pattern.V, s.Name.V, msg)
	}
	for _, s := range c.p.declaredSlots() {
		check(s)
	}
}
