package understand

import "testing"

// TestOldValueNamed: a correction that ends with the value it replaces
// ("not 50", "not Paris") corrects the one slot of the flow that holds
// that value, with the value the words before say, whatever question
// is pending; an old value no slot holds, or a "not" before no value,
// is no such correction.
func TestOldValueNamed(t *testing.T) {
	t.Parallel()
	runGeneral(t, "banking", []gcase{
		{"a number at a category question", []string{"send money", "Ana", "50"}, "oh and make it 60 not 50", "correct_slot amount=60", false},
		{"a name in a sentence", []string{"send money", "Ana"}, "sorry, the money is for Bruno, not Ana", "correct_slot recipient=Bruno", false},
		{"at the confirmation", []string{"send money", "Ana", "50", "checking"}, "I meant Lisa not Ana", "correct_slot recipient=Lisa", false},
		{"an old value no slot holds", []string{"send money", "Ana"}, "60 not 70", "set_slot amount=60", true},
	})
	runGeneral(t, "travel", []gcase{
		{"a name at a date question", []string{"book a flight", "Madrid", "Paris"}, "oh wait, I meant Rome not Paris", "correct_slot destination=Rome", false},
		{"the pending question's own slot", []string{"book a flight", "Madrid", "Paris", "tomorrow", "economy", "2"}, "business class not economy please", "correct_slot cabin=business", false},
	})
	runGeneral(t, "support", []gcase{
		{"a category at the confirmation", []string{"I have a problem", "technical", "the export button does nothing", "high"}, "wait it's a billing issue not technical", "correct_slot category=billing", false},
		{"a negated answer is no old value", []string{"I have a problem", "technical", "the export button does nothing"}, "it's not urgent", "fallback", false},
	})
}
