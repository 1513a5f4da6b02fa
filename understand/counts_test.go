package understand

import "testing"

// TestPeopleCounts: a count of people said as a list: the speaker, one
// person each, and a number of people, with a possessive before it too.
func TestPeopleCounts(t *testing.T) {
	t.Parallel()
	before := []string{"book a flight", "Madrid", "Paris", "tomorrow", "economy"}
	runGeneral(t, "travel", []gcase{
		{"a possessive, then a number", before, "me, my wife and our two kids", "set_slot passengers=4", true},
		{"a number with no possessive", before, "me and 2 kids", "set_slot passengers=3", true},
		{"a possessive with a number word", before, "me and my three friends", "set_slot passengers=4", true},
	})
}
