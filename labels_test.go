package soni_test

import (
	"context"
	"testing"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const cabinYAML = `version: "1.0"
slots:
  cabin:
    type: categorical
    values:
      economy: [coach]
      premium_economy: {label: "premium economy", synonyms: [premium]}
      business: {label: "business class"}
      first:
  note: {type: text}
flows:
  fly:
    trigger:
      intents: ["book a seat"]
    steps:
      - {step: ask, type: collect, slot: cabin, message: "Which class?"}  # soni:ignore W017
      - {step: keep, type: set, slots: {note: "{cabin}"}}  # soni:ignore W017
      - {step: sure, type: confirm, slot: cabin}
      - {step: done, type: say, message: "Booked {cabin} ({note})."}
`

// TestCategoricalLabels: a categorical value's label is what users see in
// replies, confirmations and the list of choices, and what they may type;
// slots, expressions and data keep the value.
func TestCategoricalLabels(t *testing.T) {
	r := compiler.CompileSource("cabin.yaml", []byte(cabinYAML), compiler.Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	for _, tc := range []struct {
		name    string
		msgs    []string
		replies []string
		cabin   any
	}{
		{
			name:    "label typed, shown everywhere",
			msgs:    []string{"book a seat", "premium economy", "yes"},
			replies: []string{"Which class?", "Please confirm cabin: premium economy.", "Booked premium economy (premium_economy)."},
			cabin:   "premium_economy",
		},
		{
			name:    "synonym typed",
			msgs:    []string{"book a seat", "premium please"},
			replies: []string{"Which class?", "Please confirm cabin: premium economy."},
			cabin:   "premium_economy",
		},
		{
			name:    "label only",
			msgs:    []string{"book a seat", "business class", "yes"},
			replies: []string{"Which class?", "Please confirm cabin: business class.", "Booked business class (business)."},
			cabin:   "business",
		},
		{
			name:    "no label: the value",
			msgs:    []string{"book a seat", "coach", "yes"},
			replies: []string{"Which class?", "Please confirm cabin: economy.", "Booked economy (economy)."},
			cabin:   "economy",
		},
		{
			name:    "the choices name the labels",
			msgs:    []string{"book a seat", "a hammock"},
			replies: []string{"Which class?", "Please choose one of: economy, premium economy, business class, first.", "Which class?"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := soni.New(r.Program, soni.Options{})
			require.NoError(t, err)
			var replies []string
			var rep *soni.Reply
			for _, m := range tc.msgs {
				rep, err = e.Handle(context.Background(), "s", vm.Input{Text: m})
				require.NoError(t, err, m)
				replies = append(replies, rep.Replies...)
			}
			assert.Equal(t, tc.replies, replies)
			if tc.cabin != nil {
				assert.Equal(t, tc.cabin, rep.Slots()["cabin"], "the slot holds the value, not the label")
			}
		})
	}
}
