package understand

import "testing"

// TestWrongBeforeTheName: "the wrong SLOT" after at most four words,
// then the value, corrects that slot; with no value after it, or a
// wrong adjective after five words, it corrects nothing.
func TestWrongBeforeTheName(t *testing.T) {
	t.Parallel()
	atPriority := []string{"open a ticket", "technical", "the export button does nothing"}
	runGeneral(t, "support", []gcase{
		{"the wrong slot, then its value", atPriority, "oh I picked the wrong category, it's account", "correct_slot category=account", false},
		{"at the start", atPriority, "wrong category, should be billing", "correct_slot category=billing", false},
	})
	confirm := []string{"send money", "Ana", "50", "checking"}
	runGeneral(t, "banking", []gcase{
		{"a number", confirm, "you have the wrong amount, it's 60", "correct_slot amount=60", false},
		{"no value after it", confirm, "wrong amount", "deny", true},
	})
}
