package understand

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/soni-dev/soni/ir"
	lexdata "github.com/soni-dev/soni/lexicon"
)

// TestRolesFromGeneralEnglish: a free-text slot named for the one a
// verb's action goes to ("payee", "addressee") is a target by English
// morphology and WordNet's derivations, with no such noun in the
// lexicon; a noun with the ending that WordNet derives from no verb
// ("coffee") is none.
func TestRolesFromGeneralEnglish(t *testing.T) {
	t.Parallel()
	targets := lexdata.Set("role_target_cues")
	for _, tc := range []struct {
		name, desc, question string
		want                 role
	}{
		{"payee", "the name of a person", "Who gets the money?", roleTarget},
		{"payees", "", "", roleTarget},
		{"addressee", "", "", roleTarget},
		{"grantee", "", "Please name them", roleTarget},
		{"coffee", "", "", roleNone},
		{"holder_name", "the name on the card", "Whose card is it?", rolePerson},
	} {
		assert.False(t, targets[tc.name], "%s is no lexicon word", tc.name)
		assert.Equal(t, tc.want, slotRole(tc.name, &ir.Slot{Description: tc.desc}, tc.question), tc.name)
	}
}

// TestProjectWordsInsteadOfDomainWords: the example projects keep their
// readings with no domain word in the lexicon. "send" before a carrier is
// the banking project's own word, a lead-in; the travel project's own
// lexicon makes "travel" a word of the trip, not a destination.
func TestProjectWordsInsteadOfDomainWords(t *testing.T) {
	t.Parallel()
	for _, w := range []string{"send", "travel", "fly", "book"} {
		assert.False(t, lexdata.Set("verbs")[w] || lexdata.Set("lead_ins")[w], "%s is no lexicon verb or lead-in", w)
	}
	runCasesWith(t, example(t, "banking"), []gcase{
		{"the flow's verb before the carrier", []string{"send money"}, "send it to my flatmate", "set_slot recipient=my flatmate", true},
	})
	runCasesWith(t, example(t, "travel"), []gcase{
		{"a word of the project's lexicon after to", nil, "i want to travel by plane", "start_flow book_flight", false},
	})
}
