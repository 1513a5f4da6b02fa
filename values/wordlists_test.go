package values

import (
	"testing"

	"github.com/soni-dev/soni/lexicon/wordlists"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNoWordLists fails when a Go file of this package declares a word
// list (wordlists.Find): its words belong in the lexicon's language
// files (lexicon/en.yaml, lexicon/es.yaml).
func TestNoWordLists(t *testing.T) {
	found, err := wordlists.Find(".", nil)
	require.NoError(t, err)
	assert.Empty(t, found, "word lists in code: move them to lexicon/en.yaml and lexicon/es.yaml")
}
