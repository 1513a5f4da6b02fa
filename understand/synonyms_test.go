package understand

import (
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCommonStemsAreTheRulesStems: the stems of the common words that the
// embedded data carries ("~" lines, written by scripts/wordnet-synonyms)
// are exactly the stems stem gives the data's common words, so that a
// word is a form of a common word by the same rule as every other stem
// the rules compare. It fails if the generator's rule and stem part.
func TestCommonStemsAreTheRulesStems(t *testing.T) {
	th := parseThesaurus(wordnetEN)
	want := map[string]bool{}
	for w := range th.common {
		want[stem(w)] = true
	}
	got := th.commonStems()
	require.NotEmpty(t, got)
	require.Equal(t, slices.Sorted(maps.Keys(want)), slices.Sorted(maps.Keys(got)))
	// A form no common word is, known by its stem only.
	require.False(t, th.common["abandoning"])
	require.True(t, th.isCommonWord("abandoning"))
	require.False(t, th.isCommonWord("abandonnning"))
}
