package convtest

import (
	"fmt"
	"strings"
)

// Rasa's end-to-end test format (Rasa Pro, "assertions") is read by
// package syntax into the same test file model, with the same meaning: a
// user step's assertions are checked against what its turn produced, and
// metadata is sent with the turns. What soni has no equivalent for is
// refused with T017, saying what to write instead.

// metadataOf is the metadata a turn sends: the case's, then the step's
// over it (nil when neither names any).
func metadataOf(f *File, c *Case, user *Step) map[string]any {
	if c.Metadata.Name == "" && user.Metadata.Name == "" {
		return nil
	}
	out := map[string]any{}
	for k, v := range f.Metadata[c.Metadata.Name] {
		out[k] = v
	}
	for k, v := range f.Metadata[user.Metadata.Name] {
		out[k] = v
	}
	return out
}

// describe names an assertion for a message.
func describe(st *Step) string {
	switch st.Kind {
	case StepSlotWasSet, StepSlotWasNotSet:
		return fmt.Sprintf("%s %s", st.Kind, slotNames(st.Slots))
	case StepClarification:
		return fmt.Sprintf("%s %s", st.Kind, strings.Join(st.Names, ", "))
	case StepBotUttered, StepBotDidNotUtter:
		var parts []string
		if st.Response != "" {
			parts = append(parts, st.Response)
		}
		if st.Regexp != nil {
			parts = append(parts, "/"+st.Text+"/")
		}
		if st.HasButtons {
			parts = append(parts, "with buttons "+buttonList(st.Buttons))
		}
		return string(st.Kind) + " " + strings.Join(parts, " ")
	}
	if st.FlowStepID != "" {
		return fmt.Sprintf("%s %s at step %s", st.Kind, st.Text, st.FlowStepID)
	}
	return fmt.Sprintf("%s %s", st.Kind, st.Text)
}

func slotNames(svs []SlotValue) string {
	s := ""
	for i, sv := range svs {
		if i > 0 {
			s += ", "
		}
		s += sv.Slot
	}
	return s
}
