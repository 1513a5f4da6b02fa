package understand

import "testing"

// TestNegatedWishInTheFlowsWords: a negated wish whose words are only
// words of the flow on top (its name, description or phrases) and
// pronouns cancels that flow, after a correction word too; words of no
// such flow do not; the reason after a cancel verb and its pronoun
// ("stop that, not needed anymore") names no flow.
func TestNegatedWishInTheFlowsWords(t *testing.T) {
	t.Parallel()
	runGeneral(t, "support", []gcase{
		{"the flow's verb alone", []string{"check my ticket"}, "I don't need to check anymore", "cancel_flow", false},
		{"after a correction word", []string{"check my ticket"}, "actually I don't want to check", "cancel_flow", false},
		{"a verb of no running flow", []string{"check my ticket"}, "I don't want to sleep", "set_slot ticket_id=I don't want to sleep", false},
	})
	runGeneral(t, "banking", []gcase{
		{"a reason after the pronoun", []string{"check my balance"}, "stop that, not needed anymore", "cancel_flow", false},
		{"an indefinite pronoun", []string{"send money"}, "I don't want to send anything", "cancel_flow", false},
	})
}
