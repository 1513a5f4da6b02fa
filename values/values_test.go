package values

import (
	"encoding/json"
	"errors"
	"math"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/ir"
)

func ptr(f float64) *float64 { return &f }

// clock is a fixed "now" for relative dates: Wednesday 2027-03-10.
func clock() time.Time { return time.Date(2027, 3, 10, 15, 4, 5, 0, time.UTC) }

var (
	anySlot  = &ir.Slot{Name: "note", Type: ir.TypeAny}
	textSlot = &ir.Slot{Name: "name", Type: ir.TypeText}
	codeSlot = &ir.Slot{Name: "code", Type: ir.TypeText, Pattern: `[A-Z]{3}`}
	ageSlot  = &ir.Slot{Name: "age", Type: ir.TypeInteger, Min: ptr(0), Max: ptr(130)}
	intSlot  = &ir.Slot{Name: "count", Type: ir.TypeInteger}
	amtSlot  = &ir.Slot{Name: "amount", Type: ir.TypeNumber, Min: ptr(1), Max: ptr(10000)}
	numSlot  = &ir.Slot{Name: "x", Type: ir.TypeNumber}
	boolSlot = &ir.Slot{Name: "agree", Type: ir.TypeBoolean}
	dateSlot = &ir.Slot{Name: "when", Type: ir.TypeDate}
	colSlot  = &ir.Slot{Name: "color", Type: ir.TypeCategorical, Values: []ir.Value{
		{Value: "red"}, {Value: "green"}, {Value: "blue"},
	}}
	classSlot = &ir.Slot{Name: "class", Type: ir.TypeCategorical, Values: []ir.Value{
		{Value: "economy", Synonyms: []string{"turista", "coach"}},
		{Value: "premium_economy", Synonyms: []string{"premium economy", "premium"}},
		{Value: "business", Synonyms: []string{"negocios", "business class", "ejecutiva"}},
	}}
	dupSlot = &ir.Slot{Name: "dup", Type: ir.TypeCategorical, Values: []ir.Value{
		{Value: "a", Synonyms: []string{"same"}}, {Value: "b", Synonyms: []string{"same"}},
	}}
	unknownTypeSlot = &ir.Slot{Name: "city", Type: "city"}
	badPatternSlot  = &ir.Slot{Name: "bad", Type: ir.TypeText, Pattern: `[a-`}
)

type convCase struct {
	name string
	slot *ir.Slot
	raw  any
	want any
	// err is a substring of the error message; sentinel the wrapped error.
	err      string
	sentinel error
}

func runConv(t *testing.T, cases []convCase) {
	t.Helper()
	c := Converter{Now: clock}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := c.Convert(tc.slot, tc.raw)
			if tc.err != "" || tc.sentinel != nil {
				require.Error(t, err)
				assert.Nil(t, got)
				if tc.err != "" {
					assert.Equal(t, tc.err, err.Error())
				}
				if tc.sentinel != nil {
					assert.ErrorIs(t, err, tc.sentinel)
				}
				var ve *Error
				assert.True(t, errors.As(err, &ve), "error is a *values.Error")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestConvertAnyAndText(t *testing.T) {
	runConv(t, []convCase{
		{name: "nil slot trims", slot: nil, raw: "  hi  ", want: "hi"},
		{name: "any trims strings", slot: anySlot, raw: "\t hola \n", want: "hola"},
		{name: "any keeps numbers", slot: anySlot, raw: 12.5, want: 12.5},
		{name: "any keeps maps", slot: anySlot, raw: map[string]any{"a": 1}, want: map[string]any{"a": 1}},
		{name: "text trims", slot: textSlot, raw: "  Ana María ", want: "Ana María"},
		{name: "text formats numbers", slot: textSlot, raw: 1200.0, want: "1200"},
		{name: "text formats bools", slot: textSlot, raw: true, want: "true"},
		{name: "text nil", slot: textSlot, raw: nil, err: "no value was given", sentinel: ErrNoValue},
		{name: "pattern full match", slot: codeSlot, raw: " MAD ", want: "MAD"},
		{name: "pattern partial is not enough", slot: codeSlot, raw: "MADRID", err: `"MADRID" is not in the expected format`, sentinel: ErrInvalid},
		{name: "pattern case is normalised", slot: codeSlot, raw: "mad", want: "MAD"},
		{name: "pattern mismatch", slot: codeSlot, raw: "madrid", err: `"madrid" is not in the expected format`, sentinel: ErrInvalid},
		{name: "pattern word inside text", slot: codeSlot, raw: "from MAD, please", want: "MAD"},
		{name: "pattern same word twice", slot: codeSlot, raw: "MAD or MAD", want: "MAD"},
		{name: "pattern two words is ambiguous", slot: codeSlot, raw: "MAD or BCN", err: `"MAD or BCN" is not in the expected format`, sentinel: ErrInvalid},
		{name: "bad pattern", slot: badPatternSlot, raw: "x", err: `the pattern "[a-" of slot "bad" is not a valid regular expression`, sentinel: ErrInvalid},
		{name: "unknown type is text", slot: unknownTypeSlot, raw: " Paris ", want: "Paris"},
	})
}

func TestConvertInteger(t *testing.T) {
	runConv(t, []convCase{
		{name: "plain", slot: ageSlot, raw: "25", want: int64(25)},
		{name: "in text", slot: ageSlot, raw: "I am 25 years old", want: int64(25)},
		{name: "in spanish text", slot: ageSlot, raw: "tengo 25 años", want: int64(25)},
		{name: "same number twice", slot: ageSlot, raw: "25, I said 25", want: int64(25)},
		{name: "thousands", slot: intSlot, raw: "1,200", want: int64(1200)},
		{name: "thousands groups", slot: intSlot, raw: "1,200,000 people", want: int64(1200000)},
		{name: "european thousands", slot: intSlot, raw: "1.200.000", want: int64(1200000)},
		{name: "negative", slot: intSlot, raw: "-3", want: int64(-3)},
		{name: "hyphen is not a sign", slot: intSlot, raw: "covid-19", want: int64(19)},
		{name: "whole decimal", slot: intSlot, raw: "3.0", want: int64(3)},
		{name: "ordinal", slot: intSlot, raw: "the 3rd one", want: int64(3)},
		// language.md §11: numbers are whole tokens only.
		{name: "digits inside a word", slot: intSlot, raw: "abc123", sentinel: ErrNoValue},
		{name: "an IBAN is no number", slot: intSlot, raw: "ES9121000418450200051332", sentinel: ErrNoValue},
		{name: "digits then letters", slot: intSlot, raw: "room 12b", sentinel: ErrNoValue},
		{name: "a number beside an IBAN", slot: intSlot, raw: "send 50 to ES9121000418450200051332", want: int64(50)},
		{name: "currency signs are no letters", slot: intSlot, raw: "15€", want: int64(15)},
		{name: "int", slot: intSlot, raw: 7, want: int64(7)},
		{name: "int64", slot: intSlot, raw: int64(math.MaxInt64), want: int64(math.MaxInt64)},
		{name: "big digits keep precision", slot: intSlot, raw: "9007199254740993", want: int64(9007199254740993)},
		{name: "uint64", slot: intSlot, raw: uint64(42), want: int64(42)},
		{name: "uint64 too large", slot: intSlot, raw: uint64(math.MaxUint64), err: "18446744073709551615 is too large", sentinel: ErrInvalid},
		{name: "whole float", slot: intSlot, raw: 4.0, want: int64(4)},
		{name: "float too large", slot: intSlot, raw: 1e19, err: "10000000000000000000 is too large", sentinel: ErrInvalid},
		{name: "json number", slot: intSlot, raw: json.Number("12"), want: int64(12)},
		{name: "json number exponent", slot: intSlot, raw: json.Number("1e3"), want: int64(1000)},
		{name: "json number bad", slot: intSlot, raw: json.Number("x"), err: `"x" is not a number`, sentinel: ErrNoValue},
		{name: "not whole text", slot: intSlot, raw: "2.5", err: "2.5 is not a whole number", sentinel: ErrInvalid},
		{name: "not whole float", slot: intSlot, raw: 2.5, err: "2.5 is not a whole number", sentinel: ErrInvalid},
		{name: "nan", slot: intSlot, raw: math.NaN(), sentinel: ErrNoValue},
		{name: "no digits", slot: ageSlot, raw: "abc", err: `"abc" is not a number`, sentinel: ErrNoValue},
		{name: "empty", slot: ageSlot, raw: "", err: `"" is not a number`, sentinel: ErrNoValue},
		{name: "bool", slot: ageSlot, raw: true, err: `"true" is not a number`, sentinel: ErrNoValue},
		{name: "nil", slot: ageSlot, raw: nil, err: "no value was given", sentinel: ErrNoValue},
		{name: "two numbers", slot: ageSlot, raw: "between 3 and 5", err: `"between 3 and 5" contains more than one number`, sentinel: ErrAmbiguous},
		{name: "range", slot: ageSlot, raw: "3-5", sentinel: ErrAmbiguous},
		{name: "above max", slot: ageSlot, raw: "150", err: "150 is above the maximum of 130", sentinel: ErrInvalid},
		{name: "below min", slot: ageSlot, raw: "-1", err: "-1 is below the minimum of 0", sentinel: ErrInvalid},
		{name: "max inclusive", slot: ageSlot, raw: 130, want: int64(130)},
		{name: "bad grouping", slot: intSlot, raw: "1,20,0", err: `"1,20,0" is not a number`, sentinel: ErrNoValue},
		{name: "long text quoted short", slot: intSlot, raw: strings.Repeat("a", 100), err: `"` + strings.Repeat("a", 60) + `..." is not a number`},
	})
}

// Small numbers written as words, as users type them ("two adults", "tres
// noches"), are read when the text holds no digits.
func TestConvertNumberWords(t *testing.T) {
	runConv(t, []convCase{
		{name: "english word", slot: intSlot, raw: "two adults", want: int64(2)},
		{name: "capitalised", slot: intSlot, raw: "Three", want: int64(3)},
		{name: "spanish word", slot: intSlot, raw: "tres noches", want: int64(3)},
		{name: "spanish accent", slot: intSlot, raw: "DIECISÉIS", want: int64(16)},
		{name: "twenty", slot: intSlot, raw: "twenty people", want: int64(20)},
		{name: "zero", slot: intSlot, raw: "zero", want: int64(0)},
		{name: "number slot", slot: numSlot, raw: "five euros", want: 5.0},
		{name: "same word twice", slot: intSlot, raw: "two, I said two", want: int64(2)},
		{name: "digits win", slot: intSlot, raw: "the one ending in 2468", want: int64(2468)},
		{name: "two words", slot: intSlot, raw: "two or three", err: `"two or three" contains more than one number`, sentinel: ErrAmbiguous},
		{name: "word inside a word", slot: intSlot, raw: "someone", err: `"someone" is not a number`, sentinel: ErrNoValue},
		{name: "once is english", slot: intSlot, raw: "once", err: `"once" is not a number`, sentinel: ErrNoValue},
		{name: "articles are not numbers", slot: intSlot, raw: "un billete", err: `"un billete" is not a number`, sentinel: ErrNoValue},
		{name: "max applies", slot: amtSlot, raw: "zero", err: "0 is below the minimum of 1", sentinel: ErrInvalid},
		{name: "a hundred and twenty", slot: numSlot, raw: "a hundred and twenty", want: 120.0},
		{name: "tens", slot: intSlot, raw: "forty", want: int64(40)},
		{name: "seventy five", slot: numSlot, raw: "seventy five please", want: 75.0},
		{name: "hyphenated", slot: numSlot, raw: "seventy-five", want: 75.0},
		{name: "two hundred and ten euros", slot: numSlot, raw: "two hundred and ten euros", want: 210.0},
		{name: "fifty euros", slot: amtSlot, raw: "fifty euros", want: 50.0},
		{name: "thousands", slot: numSlot, raw: "three thousand four hundred and fifty", want: 3450.0},
		{name: "millions", slot: numSlot, raw: "two million five hundred thousand", want: 2500000.0},
		{name: "a thousand", slot: numSlot, raw: "a thousand dollars", want: 1000.0},
		{name: "twenty five hundred", slot: numSlot, raw: "twenty five hundred", want: 2500.0},
		{name: "a dozen", slot: intSlot, raw: "a dozen", want: int64(12)},
		{name: "spanish compounds", slot: intSlot, raw: "veintidós", want: int64(22)},
		{name: "cincuenta", slot: numSlot, raw: "cincuenta", want: 50.0},
		{name: "treinta y cinco", slot: numSlot, raw: "treinta y cinco euros", want: 35.0},
		{name: "ciento veinte", slot: numSlot, raw: "ciento veinte", want: 120.0},
		{name: "mil", slot: numSlot, raw: "dos mil quinientos", want: 2500.0},
		{name: "mil alone", slot: numSlot, raw: "mil euros", want: 1000.0},
		{name: "un millon", slot: numSlot, raw: "un millón", want: 1000000.0},
		{name: "dos millones", slot: numSlot, raw: "dos millones trescientos mil", want: 2300000.0},
		{name: "one moment is no number", slot: numSlot, raw: "one moment", err: `"one moment" is not a number`, sentinel: ErrNoValue},
		{name: "one sec is no number", slot: numSlot, raw: "one sec please", sentinel: ErrNoValue},
		{name: "un momento is no number", slot: numSlot, raw: "un momento", sentinel: ErrNoValue},
		{name: "hang on is no number", slot: numSlot, raw: "hang on", sentinel: ErrNoValue},
		{name: "words that read as no one number", slot: numSlot, raw: "five twenty", sentinel: ErrAmbiguous},
		{name: "digits and million", slot: numSlot, raw: "2 million", want: 2000000.0},
		{name: "digits and thousand", slot: numSlot, raw: "1.5 thousand euros", want: 1500.0},
		{name: "digits and k", slot: numSlot, raw: "5k", want: 5000.0},
		{name: "digits and mil", slot: numSlot, raw: "3 mil euros", want: 3000.0},
		{name: "two numbers in words", slot: numSlot, raw: "fifty or sixty", sentinel: ErrAmbiguous},
	})
}

func TestConvertNumber(t *testing.T) {
	runConv(t, []convCase{
		{name: "plain", slot: numSlot, raw: "12.5", want: 12.5},
		{name: "english grouping", slot: numSlot, raw: "1,200.50", want: 1200.5},
		{name: "european grouping", slot: numSlot, raw: "1.200,50", want: 1200.5},
		{name: "decimal comma", slot: numSlot, raw: "2,5", want: 2.5},
		{name: "single dot is decimal", slot: numSlot, raw: "1.200", want: 1.2},
		{name: "dollar", slot: numSlot, raw: "$15", want: 15.0},
		{name: "euro after", slot: numSlot, raw: "15€", want: 15.0},
		{name: "negative dollar", slot: numSlot, raw: "$-15", want: -15.0},
		{name: "leading point", slot: numSlot, raw: "about .5 liters", want: 0.5},
		{name: "sentence end dot", slot: numSlot, raw: "It is 40.", want: 40.0},
		{name: "spanish", slot: numSlot, raw: "unos 300 euros", want: 300.0},
		{name: "int", slot: numSlot, raw: 3, want: 3.0},
		{name: "int64", slot: numSlot, raw: int64(-7), want: -7.0},
		{name: "uint64", slot: numSlot, raw: uint64(8), want: 8.0},
		{name: "float32", slot: numSlot, raw: float32(0.5), want: 0.5},
		{name: "json number", slot: numSlot, raw: json.Number("2.25"), want: 2.25},
		{name: "inf", slot: numSlot, raw: math.Inf(1), sentinel: ErrNoValue},
		{name: "two numbers", slot: numSlot, raw: "1.5 or 2.5", sentinel: ErrAmbiguous},
		{name: "none", slot: numSlot, raw: "lots", err: `"lots" is not a number`, sentinel: ErrNoValue},
		{name: "max", slot: amtSlot, raw: "50000", err: "50000 is above the maximum of 10000", sentinel: ErrInvalid},
		{name: "min", slot: amtSlot, raw: "0.5", err: "0.5 is below the minimum of 1", sentinel: ErrInvalid},
		{name: "in range", slot: amtSlot, raw: "send $1,200.50 please", want: 1200.5},
	})
}

func TestConvertBoolean(t *testing.T) {
	yes := []string{"yes", "Yes!", "y", "yeah", "yep", "sure", "ok", "okay", "OK.", "true", "confirm", "correct",
		"sí", "si", "Sí, claro", "SÍ", "claro", "vale", "yes please", "well, yes", "of course", "de acuerdo", "si\u0301"}
	no := []string{"no", "No.", "n", "nope", "false", "cancel", "nah", "no thanks", "not really", "NO, gracias", "cancelar"}
	var cases []convCase
	for _, s := range yes {
		cases = append(cases, convCase{name: "yes " + s, slot: boolSlot, raw: s, want: true})
	}
	for _, s := range no {
		cases = append(cases, convCase{name: "no " + s, slot: boolSlot, raw: s, want: false})
	}
	cases = append(cases,
		convCase{name: "bool", slot: boolSlot, raw: false, want: false},
		convCase{name: "maybe", slot: boolSlot, raw: "maybe", err: `"maybe" is not a yes or a no`, sentinel: ErrNoValue},
		convCase{name: "y inside", slot: boolSlot, raw: "y luego", sentinel: ErrNoValue},
		convCase{name: "not sure", slot: boolSlot, raw: "not sure", sentinel: ErrNoValue},
		convCase{name: "number", slot: boolSlot, raw: 1, sentinel: ErrNoValue},
		convCase{name: "nil", slot: boolSlot, raw: nil, sentinel: ErrNoValue},
	)
	runConv(t, cases)
}

func TestConvertCategorical(t *testing.T) {
	runConv(t, []convCase{
		{name: "exact", slot: colSlot, raw: "red", want: "red"},
		{name: "case", slot: colSlot, raw: "GREEN", want: "green"},
		{name: "in sentence", slot: colSlot, raw: "I'd like blue, please", want: "blue"},
		{name: "not a word inside a word", slot: colSlot, raw: "reddish", err: `"reddish" is not one of red, green, blue`, sentinel: ErrNoValue},
		{name: "unknown", slot: colSlot, raw: "purple", err: `"purple" is not one of red, green, blue`, sentinel: ErrNoValue},
		{name: "two values", slot: colSlot, raw: "red or blue", err: `"red or blue" could be red or blue`, sentinel: ErrAmbiguous},
		{name: "same value twice", slot: colSlot, raw: "red, red!", want: "red"},
		{name: "synonym", slot: classSlot, raw: "negocios", want: "business"},
		{name: "synonym capitalised", slot: classSlot, raw: "Negocios", want: "business"},
		{name: "synonym upper", slot: classSlot, raw: "NEGOCIOS", want: "business"},
		{name: "synonym accented", slot: classSlot, raw: "negócios", want: "business"},
		{name: "phrase in sentence", slot: classSlot, raw: "I'd like business class please", want: "business"},
		{name: "spanish sentence", slot: classSlot, raw: "quiero clase turista, por favor", want: "economy"},
		{name: "longer phrase wins", slot: classSlot, raw: "premium economy please", want: "premium_economy"},
		{name: "canonical with underscore", slot: classSlot, raw: "premium_economy", want: "premium_economy"},
		{name: "two values with synonyms", slot: classSlot, raw: "coach or ejecutiva", err: `"coach or ejecutiva" could be economy or business`, sentinel: ErrAmbiguous},
		{name: "same synonym for two values", slot: dupSlot, raw: "the same", sentinel: ErrAmbiguous},
		{name: "same synonym whole message", slot: dupSlot, raw: "same", want: "a"},
		{name: "number formatted", slot: &ir.Slot{Type: ir.TypeCategorical, Values: []ir.Value{{Value: "1"}, {Value: "2"}}}, raw: 2, want: "2"},
		{name: "no values", slot: &ir.Slot{Type: ir.TypeCategorical}, raw: "x", err: `"x" is not an allowed value`, sentinel: ErrNoValue},
		{name: "nil", slot: colSlot, raw: nil, sentinel: ErrNoValue},
		{name: "empty", slot: colSlot, raw: "  ", err: `"" is not one of red, green, blue`, sentinel: ErrNoValue},
		{name: "hyphenated in the message", slot: netSlot, raw: "I'm on my home Wi-Fi", want: "home_wifi"},
		{name: "hyphenated in the value", slot: netSlot, raw: "by email please", want: "mail"},
		{name: "a hyphen between words stays", slot: netSlot, raw: "home - fi", sentinel: ErrNoValue, err: `"home - fi" is not one of home_wifi, other, mail`},
	})
}

// netSlot's values are written with and without a hyphen.
var netSlot = &ir.Slot{Type: ir.TypeCategorical, Values: []ir.Value{{Value: "home_wifi"}, {Value: "other"}, {Value: "mail", Synonyms: []string{"e-mail"}}}}

func TestConvertDate(t *testing.T) {
	runConv(t, []convCase{
		{name: "iso", slot: dateSlot, raw: "2027-03-05", want: "2027-03-05"},
		{name: "iso in text", slot: dateSlot, raw: "on 2027-3-5 please", want: "2027-03-05"},
		{name: "iso slashes", slot: dateSlot, raw: "2027/03/05", want: "2027-03-05"},
		{name: "day first or month first", slot: dateSlot, raw: "05/03/2027", err: `"05/03/2027" could be day/month/year or month/day/year: please write the month in words, such as 5 March 2027`, sentinel: ErrAmbiguous},
		{name: "day first or month first dashes", slot: dateSlot, raw: "5-3-2027", sentinel: ErrAmbiguous},
		{name: "dmy when mdy impossible", slot: dateSlot, raw: "25/03/2027", want: "2027-03-25"},
		{name: "same day and month", slot: dateSlot, raw: "04/04/2027", want: "2027-04-04"},
		{name: "mdy when dmy impossible", slot: dateSlot, raw: "03/25/2027", want: "2027-03-25"},
		{name: "english month day year", slot: dateSlot, raw: "March 5, 2027", want: "2027-03-05"},
		{name: "english day month year", slot: dateSlot, raw: "5 March 2027", want: "2027-03-05"},
		{name: "ordinal of", slot: dateSlot, raw: "the 5th of march 2027", want: "2027-03-05"},
		{name: "abbreviation", slot: dateSlot, raw: "Dec 24th, 2027", want: "2027-12-24"},
		{name: "spanish", slot: dateSlot, raw: "5 de marzo de 2027", want: "2027-03-05"},
		{name: "spanish accents and case", slot: dateSlot, raw: "El 1 de Septiembre de 2028", want: "2028-09-01"},
		{name: "no year upcoming", slot: dateSlot, raw: "March 20", want: "2027-03-20"},
		{name: "no year today", slot: dateSlot, raw: "10 march", want: "2027-03-10"},
		{name: "no year past means next year", slot: dateSlot, raw: "5 de marzo", want: "2028-03-05"},
		{name: "no year feb 29", slot: dateSlot, raw: "February 29", want: "2028-02-29"},
		{name: "today", slot: dateSlot, raw: "today", want: "2027-03-10"},
		{name: "hoy", slot: dateSlot, raw: "Hoy", want: "2027-03-10"},
		{name: "tomorrow", slot: dateSlot, raw: "tomorrow please", want: "2027-03-11"},
		{name: "mañana", slot: dateSlot, raw: "mañana", want: "2027-03-11"},
		{name: "manana unaccented", slot: dateSlot, raw: "MANANA", want: "2027-03-11"},
		{name: "pasado mañana", slot: dateSlot, raw: "pasado mañana", want: "2027-03-12"},
		{name: "day after tomorrow", slot: dateSlot, raw: "the day after tomorrow", want: "2027-03-12"},
		{name: "yesterday", slot: dateSlot, raw: "ayer", want: "2027-03-09"},
		{name: "same date twice", slot: dateSlot, raw: "2027-03-05, that is March 5, 2027", want: "2027-03-05"},
		{name: "time value", slot: dateSlot, raw: time.Date(2030, 1, 2, 23, 0, 0, 0, time.UTC), want: "2030-01-02"},
		{name: "feb 30", slot: dateSlot, raw: "2027-02-30", err: `"2027-02-30" is not a valid date`, sentinel: ErrInvalid},
		{name: "feb 29 non leap", slot: dateSlot, raw: "29/02/2027", err: `"29/02/2027" is not a valid date`, sentinel: ErrInvalid},
		{name: "feb 29 leap", slot: dateSlot, raw: "29/02/2028", want: "2028-02-29"},
		{name: "month 13", slot: dateSlot, raw: "2027-13-01", sentinel: ErrInvalid},
		{name: "april 31", slot: dateSlot, raw: "April 31, 2027", err: `"april 31 2027" is not a valid date`, sentinel: ErrInvalid},
		{name: "april 31 no year", slot: dateSlot, raw: "31 de abril", sentinel: ErrInvalid},
		{name: "two dates", slot: dateSlot, raw: "today or tomorrow", err: `"today or tomorrow" contains more than one date`, sentinel: ErrAmbiguous},
		{name: "not a date", slot: dateSlot, raw: "some day", err: `"some day" is not a date`, sentinel: ErrNoValue},
		{name: "month without day", slot: dateSlot, raw: "march 2027", sentinel: ErrNoValue},
		{name: "nil", slot: dateSlot, raw: nil, sentinel: ErrNoValue},
		// "Mar" next to a day is March; alone it is the Spanish "sea".
		{name: "mar abbreviation", slot: dateSlot, raw: "Mar 5", want: "2028-03-05"},
		{name: "mar abbreviation with year", slot: dateSlot, raw: "mar 5, 2027", want: "2027-03-05"},
		{name: "day mar", slot: dateSlot, raw: "20 Mar 2027", want: "2027-03-20"},
		{name: "mar as sea", slot: dateSlot, raw: "voy al mar el 5 de mayo de 2027", want: "2027-05-05"},
		{name: "spanish ordinal", slot: dateSlot, raw: "el 1º de mayo de 2027", want: "2027-05-01"},
		{name: "spanish ordinal feminine", slot: dateSlot, raw: "1ª de junio", want: "2027-06-01"},
	})
}

func TestConvertUsesPackageClock(t *testing.T) {
	old := Now
	Now = clock
	t.Cleanup(func() { Now = old })
	got, err := Convert(dateSlot, "tomorrow")
	require.NoError(t, err)
	assert.Equal(t, "2027-03-11", got)
}

func TestNormalize(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", ""},
		{"  Hello,   World!  ", "hello world"},
		{"¿Olvídalo?", "olvidalo"},
		{"NEGÓCIOS", "negocios"},
		{"Mañana", "manana"},
		{"I'd like it", "id like it"},
		{"don’t", "dont"},
		{"Straße", "strasse"},
		{"Ça va, Œuvre", "ca va oeuvre"},
		{"1,200.50", "1 200 50"},
		{"si\u0301", "si"},
		{"Привет мир", "привет мир"},
		{"a\tb\nc", "a b c"},
		{"$$$", ""},
		{"already normal 42", "already normal 42"},
		{" leading", "leading"},
		{"trailing ", "trailing"},
		{"two  spaces", "two spaces"},
		{"x", "x"},
		{" ", ""},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			assert.Equal(t, tc.want, Normalize(tc.in))
		})
	}
}

// FuzzNormalize checks the shortcut for text that is already normalized
// against the full normalization, and that normalizing is idempotent.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"", "a b", " a", "a ", "a  b", "Ab", "a\tb", "señor", "don't"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := normalize(s)
		if normalized(s) {
			require.Equal(t, s, n, "the shortcut differs from the full normalization")
		}
		if isASCII(n) {
			require.True(t, normalized(n), "ASCII output the shortcut does not recognise: %q → %q", s, n)
		}
		require.Equal(t, n, Normalize(n), "not idempotent: %q → %q", s, n)
	})
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func TestYesNo(t *testing.T) {
	cases := []struct {
		in      string
		yes, ok bool
	}{
		{"yes", true, true},
		{"Sí", true, true},
		{"claro que sí", true, true},
		{"okay then", true, true},
		{"hmm, no", false, true},
		{"nope", false, true},
		{"no way", false, true},
		{"N", false, true},
		{"that works", true, true},
		{"go ahead", true, true},
		{"sounds good!", true, true},
		{"nah", false, true},
		{"not really", false, true},
		{"👍", true, true},
		{"👍🏽", true, true},
		{"👍 👍", true, true},
		{"👎", false, true},
		{"👍👎", false, false},
		{"🙂", false, false},
		{"no thanks", false, true},
		{"mejor no", false, true},
		{"", false, false},
		{"I don't know", false, false},
		{"blue", false, false},
		{"well", false, false},
		// A yes word negated right after it is a no.
		{"of course not", false, true},
		{"Absolutely not!", false, true},
		{"definitely not, thanks", false, true},
		{"certainly not", false, true},
		{"Claro que no", false, true},
		{"por supuesto que no", false, true},
		{"sure, why not", true, true},
		{"why not", true, true},
		{"of course", true, true},
		{"por supuesto que sí", true, true},
		// Longer phrases.
		{"not at all", false, true},
		{"I don't think so", false, true},
		{"that's right", true, true},
		{"that is correct, go ahead", true, true},
		{"not now", false, true},
		{"nunca", false, true},
		{"not sure", false, false},
		// An appraisal lead, then a whole yes or no word.
		{"sounds right", true, true},
		{"hmm, seems fine", true, true},
		{"looks wrong", false, true},
		{"looks like rain", false, false},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			yes, ok := YesNo(tc.in)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.yes, yes)
		})
	}
}

func TestPatternCacheConcurrent(t *testing.T) {
	slot := &ir.Slot{Name: "zip", Type: ir.TypeText, Pattern: `[0-9]{5}`}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				_, err := Convert(slot, "28001")
				assert.NoError(t, err)
				_, err = Convert(slot, "2800")
				assert.Error(t, err)
			}
		}()
	}
	wg.Wait()
}

// TestLargeInputs converts inputs of about 1 MiB. Their speed is
// measured by BenchmarkLargeInputs, not here; this test holds the results,
// and a budget on the bytes allocated, which does not depend on the machine:
// a conversion that went quadratic would allocate far beyond it.
func TestLargeInputs(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	convertLargeInputs(t)
	runtime.ReadMemStats(&after)
	const budget = 256 << 20 // about 60x the 4.5 MiB of input
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(budget), "bytes allocated")
}

func BenchmarkLargeInputs(b *testing.B) {
	for b.Loop() {
		convertLargeInputs(b)
	}
}

func convertLargeInputs(t testing.TB) {
	big := strings.Repeat("business ", 1<<17) // about 1 MiB
	got, err := Convert(classSlot, big+"economy")
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrAmbiguous)
	assert.Nil(t, got)
	got, err = Convert(classSlot, big)
	require.NoError(t, err)
	assert.Equal(t, "business", got)
	_, err = Convert(numSlot, strings.Repeat("7 ", 1<<19))
	require.NoError(t, err)
	_, err = Converter{Now: clock}.Convert(dateSlot, strings.Repeat("march ", 1<<17))
	require.ErrorIs(t, err, ErrNoValue)
}

func FuzzConvert(f *testing.F) {
	for _, s := range []string{"1,200.50", "between 3 and 5", "5 de marzo", "sí", "negocios", "-.5", "1.2.3"} {
		f.Add(s)
	}
	slots := []*ir.Slot{anySlot, textSlot, codeSlot, ageSlot, amtSlot, boolSlot, dateSlot, colSlot, classSlot}
	f.Fuzz(func(t *testing.T, s string) {
		for _, slot := range slots {
			v, err := Converter{Now: clock}.Convert(slot, s)
			if err != nil {
				continue
			}
			// A converted value converts to itself.
			again, err := Converter{Now: clock}.Convert(slot, v)
			if assert.NoError(t, err, "slot %s value %#v", slot.Name, v) {
				assert.Equal(t, v, again)
			}
		}
	})
}

// TestNumbersAreNeverRounded: a number with more significant digits than a
// number slot holds exactly is an invalid answer, never rounded
// (language.md §11).
func TestNumbersAreNeverRounded(t *testing.T) {
	runConv(t, []convCase{
		{name: "too many digits", slot: numSlot, raw: "1.23456789012345678901", err: "1.23456789012345678901 has more digits than a number holds exactly (15)", sentinel: ErrInvalid},
		{name: "20 digits", slot: numSlot, raw: "99999999999999999999", sentinel: ErrInvalid},
		{name: "15 digits are fine", slot: numSlot, raw: "1234567.89012345", want: 1234567.89012345},
		{name: "trailing zeros do not count", slot: numSlot, raw: "3.000000000000000000", want: 3.0},
	})
}

// The clock is Wednesday 2027-03-10.
func TestConvertSpokenDates(t *testing.T) {
	runConv(t, []convCase{
		{name: "weekday", slot: dateSlot, raw: "Friday", want: "2027-03-12"},
		{name: "this weekday", slot: dateSlot, raw: "this friday please", want: "2027-03-12"},
		{name: "on weekday", slot: dateSlot, raw: "on Monday", want: "2027-03-15"},
		{name: "weekday is today", slot: dateSlot, raw: "wednesday", want: "2027-03-10"},
		{name: "next weekday is next week's", slot: dateSlot, raw: "next Friday", want: "2027-03-19"},
		{name: "next monday", slot: dateSlot, raw: "next monday", want: "2027-03-15"},
		{name: "last weekday", slot: dateSlot, raw: "last friday", want: "2027-03-05"},
		{name: "el viernes", slot: dateSlot, raw: "el viernes", want: "2027-03-12"},
		{name: "el proximo viernes", slot: dateSlot, raw: "el próximo viernes", want: "2027-03-12"},
		{name: "el miercoles que viene", slot: dateSlot, raw: "el miércoles que viene", want: "2027-03-17"},
		{name: "in 3 days", slot: dateSlot, raw: "in 3 days", want: "2027-03-13"},
		{name: "in three days", slot: dateSlot, raw: "in three days", want: "2027-03-13"},
		{name: "in a week", slot: dateSlot, raw: "in a week", want: "2027-03-17"},
		{name: "in a couple of days", slot: dateSlot, raw: "in a couple of days", want: "2027-03-12"},
		{name: "dentro de dos semanas", slot: dateSlot, raw: "dentro de dos semanas", want: "2027-03-24"},
		{name: "en 5 dias", slot: dateSlot, raw: "en 5 días", want: "2027-03-15"},
		{name: "next week", slot: dateSlot, raw: "next week", want: "2027-03-17"},
		{name: "la semana que viene", slot: dateSlot, raw: "la semana que viene", want: "2027-03-17"},
		{name: "this weekend", slot: dateSlot, raw: "this weekend", want: "2027-03-13"},
		{name: "the 5th", slot: dateSlot, raw: "the 5th", want: "2027-04-05"},
		{name: "on the 22nd", slot: dateSlot, raw: "on the 22nd", want: "2027-03-22"},
		{name: "el dia 5", slot: dateSlot, raw: "el día 5", want: "2027-04-05"},
		{name: "the 5th of march", slot: dateSlot, raw: "the 5th of March", want: "2028-03-05"},
		{name: "march the 5th", slot: dateSlot, raw: "March the 5th", want: "2028-03-05"},
		{name: "typo tomorrow", slot: dateSlot, raw: "tomorow", want: "2027-03-11"},
		{name: "manana por la manana", slot: dateSlot, raw: "mañana por la mañana", want: "2027-03-11"},
		{name: "hoy por la manana", slot: dateSlot, raw: "hoy por la mañana", want: "2027-03-10"},
		{name: "friday and a date", slot: dateSlot, raw: "friday or saturday", sentinel: ErrAmbiguous},
		// A weekday beside a date that falls on it is that date (a model
		// writes "Friday, March 19, 2027"); beside another, two dates.
		{name: "weekday of the date", slot: dateSlot, raw: "Friday, March 19, 2027", want: "2027-03-19"},
		{name: "weekday of the date after it", slot: dateSlot, raw: "19 March 2027, a Friday", want: "2027-03-19"},
		{name: "monday the 15th", slot: dateSlot, raw: "monday the 15th", want: "2027-03-15"},
		{name: "weekday of another date", slot: dateSlot, raw: "Thursday, March 19, 2027", sentinel: ErrAmbiguous},
	})
}

func TestConvertDateOrder(t *testing.T) {
	for _, tc := range []struct {
		order DateOrder
		raw   string
		want  any
	}{
		{DateDMY, "12/04/2026", "2026-04-12"},
		{DateMDY, "12/04/2026", "2026-12-04"},
		{DateMDY, "25/04/2026", "2026-04-25"},
		{DateDMY, "04/25/2026", "2026-04-25"},
		{DateAsk, "12/04/2026", nil},
	} {
		t.Run(string(tc.order)+" "+tc.raw, func(t *testing.T) {
			got, err := Converter{Now: clock, DateOrder: tc.order}.Convert(dateSlot, tc.raw)
			if tc.want == nil {
				assert.ErrorIs(t, err, ErrAmbiguous)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestConvertPatternNormalised(t *testing.T) {
	ticket := &ir.Slot{Name: "ticket", Type: ir.TypeText, Pattern: `T-[0-9]{5}`}
	code := &ir.Slot{Name: "code", Type: ir.TypeText, Pattern: `[0-9]{6}`}
	either := &ir.Slot{Name: "either", Type: ir.TypeText, Pattern: `[a-z]+[0-9]+|[A-Z]+[0-9]+`}
	runConv(t, []convCase{
		{name: "letter and digits", slot: ticket, raw: "t 44556", want: "T-44556"},
		{name: "lower case dash", slot: ticket, raw: "t-44556", want: "T-44556"},
		{name: "no dash", slot: ticket, raw: "T44556", want: "T-44556"},
		{name: "digits in groups", slot: code, raw: "482 913", want: "482913"},
		{name: "digits with dashes", slot: code, raw: "482-913", want: "482913"},
		{name: "two forms fit", slot: either, raw: "ab 12", sentinel: ErrInvalid},
		{name: "a sentence is no code", slot: code, raw: "it is 482 913 I think", sentinel: ErrInvalid},
		{name: "a word naming the code before it", slot: ticket, raw: "number t12345", want: "T-12345"},
		{name: "a word and the code in parts", slot: ticket, raw: "ref T 12345", want: "T-12345"},
		{name: "nothing is added", slot: ticket, raw: "ticket 12345", sentinel: ErrInvalid},
		{name: "a word and the code", slot: ticket, raw: "ticket #T12345", want: "T-12345"},
		{name: "two codes stay ambiguous", slot: &ir.Slot{Name: "x", Type: ir.TypeText, Pattern: `[A-Z]{3}`}, raw: "MAD or BCN", sentinel: ErrInvalid},
		{name: "digits that do not fit", slot: ticket, raw: "ticket 1234", sentinel: ErrInvalid},
	})
}
