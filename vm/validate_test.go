package vm

import (
	"testing"

	"github.com/soni-dev/soni/ir"
	"github.com/stretchr/testify/assert"
)

// TestBuiltinValidators: each built-in accepts and normalises what it
// should, finds its value inside a longer answer when there is exactly
// one, and refuses the rest.
func TestBuiltinValidators(t *testing.T) {
	tests := []struct {
		validator string
		in        any
		want      any
		ok        bool
	}{
		{"positive", "25", "25", true},
		{"positive", "30 years", "30 years", true},
		{"positive", "-3", "-3", false},
		{"positive", "none", "none", false},
		{"positive", int64(2), int64(2), true},
		{"positive", 0.0, 0.0, false},
		{"not_empty", " ", " ", false},
		{"not_empty", []any{}, []any{}, false},
		{"not_empty", "x", "x", true},
		{"email", " ana@example.com ", "ana@example.com", true},
		{"email", "my email is ana@example.com.", "ana@example.com", true},
		{"email", "ana@example.com or bob@example.com", "ana@example.com or bob@example.com", false},
		{"email", int64(5), int64(5), false},
		{"iban", "ES9121000418450200051332", "ES9121000418450200051332", true},
		{"iban", "es91 2100 0418 4502 0005 1332", "ES9121000418450200051332", true},
		{"iban", "GB82-WEST-1234-5698-7654-32", "GB82WEST12345698765432", true},
		{"iban", "my IBAN is DE89 3704 0044 0532 0130 00, thanks", "DE89370400440532013000", true},
		{"iban", "ES9121000418450200051333", "ES9121000418450200051333", false}, // check digits wrong
		{"iban", "ES91", "ES91", false},
		{"iban", "hello", "hello", false},
		{"iban", int64(12), int64(12), false},
		{"phone", "+34 600 123 456", "+34600123456", true},
		{"phone", "(555) 123-4567", "5551234567", true},
		{"phone", "call me at 612.345.678 after six", "612345678", true},
		{"phone", "12345", "12345", false},
		{"phone", "+1 2345 6789 0123 4567", "+1 2345 6789 0123 4567", false}, // 17 digits
		{"phone", "abc", "abc", false},
	}
	for _, tt := range tests {
		got, ok := builtinValidators[tt.validator](tt.in)
		assert.Equal(t, tt.ok, ok, "%s(%v)", tt.validator, tt.in)
		assert.Equal(t, tt.want, got, "%s(%v)", tt.validator, tt.in)
	}
}

// TestDefaultInvalidMessage: the default invalid message never shows a
// slot's internal name; it uses the label, the type and limits, or the
// description.
func TestDefaultInvalidMessage(t *testing.T) {
	one, ten := 1.0, 10.0
	tests := []struct {
		name string
		slot ir.Slot
		want string
	}{
		{"number with limits", ir.Slot{Name: "guests", Type: ir.TypeNumber, Min: &one, Max: &ten}, "Please give a number between 1 and 10."},
		{"label and type", ir.Slot{Name: "departure_date", Type: ir.TypeDate, Label: "departure date"}, "That is not a valid departure date. Please give a date, for example 2026-03-15."},
		{"label on text", ir.Slot{Name: "card_no", Type: ir.TypeText, Label: "card number", Description: "The card's number"}, "That is not a valid card number."},
		{"description on text", ir.Slot{Name: "card_no", Type: ir.TypeText, Description: "The last four digits of the card."}, "Sorry, I couldn't use that. I need: The last four digits of the card."},
		{"nothing", ir.Slot{Name: "x_1", Type: ir.TypeAny}, "Sorry, I couldn't use that answer."},
		{"categorical", ir.Slot{Name: "acct", Type: ir.TypeCategorical, Values: []ir.Value{{Value: "checking"}, {Value: "savings"}}}, "Please choose one of: checking, savings."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := defaultInvalid(&tt.slot)
			assert.Equal(t, tt.want, got)
			assert.NotContains(t, got, tt.slot.Name)
		})
	}
}
