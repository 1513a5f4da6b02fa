package understand

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSmallTalkPhrasesMeanOneThing refuses a lexicon that lists one
// phrase under two kinds of small talk, or as small talk and as a
// request for help, a person, a repeat or a skip: the phrase would mean
// whichever list came first, which the lexicon's reader cannot see.
func TestSmallTalkPhrasesMeanOneThing(t *testing.T) {
	t.Parallel()
	seen := map[string]string{}
	for _, l := range smallTalkLists() {
		meaning := string(l.cmd.Kind) + "/" + l.cmd.SmallTalk
		for _, p := range l.phrases {
			if prev, ok := seen[p]; ok {
				assert.Equal(t, prev, meaning, "phrase %q is listed with two meanings", p)
			}
			seen[p] = meaning
			assert.Equal(t, l.cmd, smallTalk[p], "phrase %q", p)
		}
	}
}
