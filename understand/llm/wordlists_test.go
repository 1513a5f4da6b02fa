package llm

import (
	"testing"

	"github.com/soni-dev/soni/lexicon/wordlists"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// notLanguage are this package's lists of lower-case strings that are
// names of soni's own protocols, not words of a language: the model
// grammar's command keywords and the JSON field names of the model's
// structured answer.
var notLanguage = map[string][]string{
	"parse.go": {
		"chitchat, affirm, deny, fallback, help",
		"affirm, deny, chitchat, fallback, help",
	},
	"structured.go": {"kind, flow, flows, slot, value"},
}

// TestNoWordLists fails when a Go file of this package declares a word
// list (wordlists.Find): its words belong in the lexicon's language
// files (lexicon/en.yaml, lexicon/es.yaml).
func TestNoWordLists(t *testing.T) {
	found, err := wordlists.Find(".", notLanguage)
	require.NoError(t, err)
	assert.Empty(t, found, "word lists in code: move them to lexicon/en.yaml and lexicon/es.yaml")
}
