package understand

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestReadingMemosSurviveTheVerdict: the reading's memos of a conversion,
// of small talk and of a correction outlive sureAnswerText's verdict, which
// is kept in the same memo (it once overwrote them all, so that the answer
// "2027-03-05" was converted twice).
func TestReadingMemosSurviveTheVerdict(t *testing.T) {
	t.Parallel()
	r := New(testProgram())
	one := *r
	one.sure = new(sureMemo)
	v := askRecipient
	def := one.slotDef(v.Pending.Flow, v.Pending.Slot)
	_, _ = one.convert(v.Converter(), def, "Madrid")
	_, _ = one.smallTalk("madrid")
	_, _, _ = one.correction("Madrid")
	_ = one.sureAnswerText(v.Pending, "Madrid", "madrid", v)
	assert.True(t, one.sure.set, "the verdict is kept")
	assert.True(t, one.sure.conv.set && one.sure.conv.raw == "Madrid" && one.sure.conv.def == def, "the conversion is kept")
	assert.True(t, one.sure.talk.set && one.sure.talk.norm == "madrid", "the small talk reading is kept")
	assert.True(t, one.sure.corr.set && one.sure.corr.head == "Madrid", "the correction is kept")
	x, err := one.convert(v.Converter(), def, "Madrid")
	want, wantErr := v.Converter().Convert(def, "Madrid")
	assert.Equal(t, want, x)
	assert.Equal(t, wantErr, err)
}

// TestFieldsUnder counts fields as strings.Fields does.
func TestFieldsUnder(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", " ", "Madrid", " Madrid ", "New York", "a\tb", "a\u00a0b", "a\u2003b c", "¿qué?", "  x  y  z "} {
		for n := 0; n <= 4; n++ {
			assert.Equal(t, len(strings.Fields(s)) < n, fieldsUnder(s, n), "%q, %d", s, n)
		}
	}
}
