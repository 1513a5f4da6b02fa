package convtest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const tripFlow = `flows:
  trip:
    description: Plan a trip
    trigger:
      intents: ["plan a trip"]
    slots:
      - name: day
        type: date
    steps:
      - step: ask
        type: collect
        slot: day
        message: "When?"
      - step: done
        type: say
        message: "Going on {day}."
`

// TestNowKeyFixesTheClock: a test file's now: is when its messages are
// sent, so "next friday" is the same day on every run; a now: that is no
// date is an error that says what to write.
func TestNowKeyFixesTheClock(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "trip.yaml", tripFlow)
	test := writeFile(t, dir, "tests/trip.yaml", `flows: ../trip.yaml
now: 2027-03-10
test_cases:
  - test_case: next_friday
    steps:
      - user: plan a trip
      - bot: When?
      - user: next friday
        commands: [{set_slot: {day: next friday}}]
      - bot: Going on 2027-03-19.
`)
	_, rep := run(t, []string{test}, Options{})
	require.Equal(t, 1, rep.Passed, textOf(t, rep))

	bad := writeFile(t, dir, "tests/bad.yaml", "flows: ../trip.yaml\nnow: someday\ntest_cases:\n  - test_case: x\n    steps:\n      - user: hi\n")
	s := Load([]string{bad}, Options{Now: fixedNow})
	require.True(t, s.Diags.HasErrors())
	assert.Contains(t, s.Diags.Err().Error(), `now: "someday" is not a date or a time: write 2027-03-10 or 2027-03-10T09:30:00Z`)
}
