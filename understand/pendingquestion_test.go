package understand

import "testing"

// TestQuestionsAndRequestsWhileAsked: at a categorical question, a
// question that holds a value's word is no answer; at a confirmation, a
// yes or no word that leads another flow's request is no answer, and the
// request starts that flow (unsure); a yes or no alone still answers.
func TestQuestionsAndRequestsWhileAsked(t *testing.T) {
	t.Parallel()
	runGeneral(t, "support", []gcase{
		{"a question with a category's word", []string{"open a ticket"}, "actually where is my other ticket at?", "fallback", false},
		{"a category in a sentence still answers", []string{"open a ticket"}, "it's something else", "set_slot category=other", true},
	})
	confirm := []string{"send money", "Ana", "50", "checking"}
	runGeneral(t, "banking", []gcase{
		{"a no leading another flow's request", confirm, "oh no, I just lost my card", "start_flow lost_card", false},
		{"a plain no", confirm, "oh no", "deny", true},
	})
}
