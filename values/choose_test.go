package values

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestChoose(t *testing.T) {
	choices := []Choice{
		{Name: "check_balance", Phrases: []string{"check balance", "Check the balance of an account", "how much do I have"}},
		{Name: "transfer_money", Phrases: []string{"transfer money", "Send money to someone"}},
		{Name: "block_card", Phrases: []string{"block card", "Block a lost card"}},
	}
	for _, tc := range []struct {
		msg  string
		want string
	}{
		{"check_balance", "check_balance"},
		{"transfer money", "transfer_money"},
		{"the balance please", "check_balance"},
		{"the first one", "check_balance"},
		{"2", "transfer_money"},
		{"la segunda", "transfer_money"},
		{"the third", "block_card"},
		{"the last one", "block_card"},
		{"el último", "block_card"},
		{"lost", "block_card"},
		{"I want the one with money", "transfer_money"},
		{"", ""},
		{"pizza", ""},
		{"balance or money", ""},
		{"I would like that", ""},
	} {
		t.Run(tc.msg, func(t *testing.T) {
			got, ok := Choose(choices, tc.msg)
			assert.Equal(t, tc.want != "", ok)
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestYesNoPhrasesFit checks that the longest yes or no phrase of the
// lexicon fits in the words yesNoNormalized looks at.
func TestYesNoPhrasesFit(t *testing.T) {
	for _, p := range append(append([]string(nil), yesWords...), noWords...) {
		assert.LessOrEqual(t, len(strings.Fields(p)), maxPhraseWords, p)
	}
}
