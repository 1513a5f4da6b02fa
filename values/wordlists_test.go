package values

import (
	"testing"

	"github.com/soni-dev/soni/lexicon/wordlists"
)

// TestNoWordLists fails when a Go file of this package lists or compares
// words of a language (wordlists.Check): they belong in the lexicon's
// language files (lexicon/en.yaml, lexicon/es.yaml).
func TestNoWordLists(t *testing.T) { wordlists.Check(t, "values") }
