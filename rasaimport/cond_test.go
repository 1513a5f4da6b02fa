package rasaimport

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTranslateCond(t *testing.T) {
	types := map[string]string{"ok": "bool", "n": "float", "name": "text", "tier": "categorical", "list": "list", "other": "any"}
	w := func(value string) *condWriter {
		return &condWriter{value: value, slotType: func(s string) (string, bool) { t, ok := types[s]; return t, ok }}
	}
	tests := []struct {
		in, want, value string
		slots           []string
	}{
		{in: "slots.ok", want: "slots.ok == true", slots: []string{"ok"}},
		{in: "not slots.ok", want: "not (slots.ok == true)", slots: []string{"ok"}},
		{in: "slots.name", want: `lower(slots.name ?? "") not in ["", "false", "no", "0"]`},
		{in: "slots.n", want: "(slots.n ?? 0) != 0"},
		{in: "slots.other", want: `slots.other not in [nil, false, "", 0]`},
		{in: `slots.n > "3"`, want: "slots.n > 3"},
		{in: `"3" <= slots.n`, want: "3 <= slots.n"},
		{in: "slots.n >= 2.5", want: "slots.n >= 2.5"},
		{in: `slots.tier = 'gold'`, want: `slots.tier == "gold"`},
		{in: `slots.tier is "gold"`, want: `slots.tier == "gold"`},
		{in: `slots.tier is not null`, want: `slots.tier != nil`},
		{in: `slots.ok = "true"`, want: `slots.ok == true`},
		{in: `slots.name != None`, want: `slots.name != nil`},
		{in: `slots.ok and slots.n < 3 or not slots.name`, want: `((slots.ok == true) and (slots.n < 3)) or (not (lower(slots.name ?? "") not in ["", "false", "no", "0"]))`, slots: []string{"ok", "n", "name"}},
		{in: `slots.ok and (slots.n < 3 or slots.n > 9)`, want: `(slots.ok == true) and ((slots.n < 3) or (slots.n > 9))`},
		{in: `{"a" "b"} contains slots.tier`, want: `slots.tier in ["a", "b"]`},
		{in: `{"a", "b"} contains slots.tier`, want: `slots.tier in ["a", "b"]`},
		{in: `slots.name contains "x"`, want: `(slots.name ?? "") contains "x"`},
		{in: `slots.list contains "x"`, want: `"x" in (slots.list ?? [])`},
		{in: `slots.list`, want: `len(slots.list ?? []) > 0`},
		{in: `not slots.list`, want: `not (len(slots.list ?? []) > 0)`},
		{in: `slots.name matches "^A"`, want: `(slots.name ?? "") matches "^A"`},
		// A pattern's backslashes are the regular expression's: \d stays
		// a digit; only a backslash before the quote is the string's.
		{in: `slots.d matches "^\d{2}\/\d{4}$"`, want: `(slots.d ?? "") matches "^\\d{2}\\/\\d{4}$"`},
		{in: `slots.name == "say \"hi\""`, want: `slots.name == "say \"hi\""`},
		{in: `slots.n < 1`, value: "n", want: "value < 1"},
		{in: `slots.n < slots.other`, value: "n", want: "value < slots.other", slots: []string{"other"}},
		{in: `TRUE`, want: "true"},
		{in: `false`, want: "false"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			cw := w(tc.value)
			got, err := translateCond(tc.in, cw)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			if tc.slots != nil {
				assert.Equal(t, tc.slots, cw.slots)
			}
		})
	}
	for in, want := range map[string]string{
		"context.is_reset_only":    `"context.is_reset_only" reads Rasa's pattern context`,
		"consent = 'y'":            `"consent" is neither slots.NAME nor context.NAME`,
		"slots.a and":              "the condition ends too early",
		"(slots.a":                 "missing )",
		`slots.a = "x`:             "unclosed quote",
		"":                         "empty condition",
		"slots.a ! slots.b":        `unexpected "!"`,
		"slots.a b":                `unexpected "b"`,
		`{"a"} contains {"b"}`:     "a set literal",
		"slots.bad-name":           `slot "bad-name" is not a name soni accepts`,
		"slots.a @ 1":              `unexpected "@"`,
		"{\"a\" contains slots.x":  `unexpected "contains"`,
		"{\"a\"":                   "missing }",
		"slots.x and {\"a\"}":      "a set literal is not a condition",
		"slots.a = 1 = 2":          `unexpected "="`,
		"not":                      "the condition ends too early",
		"slots.a contains":         "the condition ends too early",
		"slots.a matches (slots.b": "missing )",
		"slots.a is not":           "the condition ends too early",
		"slots.a or or slots.b":    `unexpected "or"`,
		"slots.a = context.b":      "pattern context",
	} {
		_, err := translateCond(in, w(""))
		require.Error(t, err, in)
		assert.Contains(t, err.Error(), want, in)
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"abc": "abc", "utter_x": "utter_x", "a.b/c-d": "a.b/c-d", "yes": `"yes"`, "No": `"No"`, "null": `"null"`,
		"": `""`, "12": `"12"`, "a b": `"a b"`, "x: y": `"x: y"`, "#c": `"#c"`, "{x}": `"{x}"`, "a\nb": `"a\nb"`, "é": `"é"`,
		"-x": `"-x"`, "true": `"true"`,
	} {
		assert.Equal(t, want, quote(in), in)
	}
}

func TestScanPython(t *testing.T) {
	src := `import x

class A(Action):
    def name(self) -> Text:
        """The action's name."""
        return "action_a"

    def run(self, dispatcher, tracker, domain):
        v = tracker.get_slot("in_a")
        w = tracker.slots.get('in_b')
        dispatcher.utter_message(response="utter_done")
        return [SlotSet("out_a", v), SlotSet(key='out_b', value=w), SlotSet(name_var, 1)]

class Helper:
    pass

class ValidateForm(FormValidationAction):
    def name(self):
        return "validate_form"

    def validate_city(self, slot_value, dispatcher, tracker, domain):
        return {"city": slot_value}
`
	got := scanPython("actions/x.py", src)
	require.Len(t, got, 2)
	a := got[0]
	assert.Equal(t, "action_a", a.name)
	assert.Equal(t, loc{"actions/x.py", 3}, a.at)
	assert.Equal(t, []string{"out_a", "out_b"}, a.sets)
	assert.Equal(t, []string{"in_a", "in_b"}, a.reads)
	assert.True(t, a.dynamicSet)
	assert.True(t, a.messages)
	assert.Equal(t, []string{"utter_done"}, a.responses)
	assert.Equal(t, "validate_form", got[1].name)
	assert.Equal(t, []string{"city"}, got[1].sets)
	assert.False(t, got[1].messages)
}

func TestVerbPhrase(t *testing.T) {
	for in, want := range map[string]string{
		"send money to friends and family":        "send money",
		"the user needs to replace their card":    "replace their card",
		"user asks for a pizza":                   "a pizza",
		"check the user's account balance":        "",
		"Check the user's portfolio, including x": "Check the user's portfolio",
		"hello":                "",
		"book a table for two": "book a table",
	} {
		assert.Equal(t, want, verbPhrase(in), in)
	}
}
