package understand

import "testing"

// TestValueThenName: a value followed by its slot's name (or a word of
// its name or description) corrects that typed slot at a confirmation,
// and a slot given before at another question; a negation after the
// name, the slot's own value, or a slot not yet given is no correction.
func TestValueThenName(t *testing.T) {
	t.Parallel()
	confirm := []string{"book a flight", "Madrid", "Rome", "tomorrow", "economy", "2"}
	runGeneral(t, "travel", []gcase{
		{"a count and its name", confirm, "oh it's actually 3 passengers", "correct_slot passengers=3", false},
		{"a word of the description", confirm, "business class instead please", "correct_slot cabin=business", false},
		{"a negation after the name", confirm, "economy class is not what I want", "fallback", false},
		{"at another question", []string{"book a flight", "Madrid", "Rome", "tomorrow", "economy"}, "hmm, business class", "correct_slot cabin=business", false},
		{"a question", confirm, "is economy class cheaper?", "fallback", false},
		{"a slot not given yet", []string{"book a flight", "Madrid", "Rome", "tomorrow"}, "3 passengers", "set_slot cabin=3 passengers", false},
	})
	runGeneral(t, "support", []gcase{
		{"a category word at the confirmation", []string{"I have a problem", "technical", "the export button does nothing", "high"}, "hmm, low priority is enough", "correct_slot priority=low", false},
	})
}
