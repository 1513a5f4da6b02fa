package lexicon

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLanguages loads every embedded language file: a file that does not
// parse, an entry that is not normalized, a section whose kind differs
// between languages or a word that means two things fails here, not at
// run time.
func TestLanguages(t *testing.T) {
	langs, merged, err := LoadAll()
	require.NoError(t, err)
	var names []string
	for _, l := range langs {
		names = append(names, l.Name)
		for name, sec := range l.Sections {
			assert.NotZero(t, sec.Kind, "%s: %s", l.Name, name)
		}
	}
	assert.Equal(t, []string{"en", "es"}, names)
	assert.Equal(t, names, Languages())
	assert.NotEmpty(t, merged["yes"].List)
}

func TestParseRefuses(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"bool", "yes:\n  - true\n", `section "yes": entry true is not a string (quote it)`},
		{"upper", "yes:\n  - Yes\n", `entry "Yes" is not lower case`},
		{"spaces", "yes:\n  - \"of  course\"\n", `entry "of  course" is not lower case with single spaces`},
		{"twice", "yes:\n  - sure\n  - sure\n", `entry "sure" appears twice`},
		{"empty", "yes: []\n", `section "yes": is empty`},
		{"scalar", "yes: sure\n", `section "yes": is sure: want a list or a mapping`},
		{"mixed", "months:\n  may: 5\n  june: six\n", `the value of "june" is not a mapping of words to numbers`},
		{"float", "months:\n  may: 5.5\n", `the value of "may" is 5.5: want a word or a whole number`},
		{"syntax", "yes: [\n", `lexicon "xx"`},
		{"bad pattern", "x_patterns:\n  - \"(a\"\n", `section "x_patterns": entry "(a": error parsing regexp`},
		{"section twice", "yes:\n  - sure\nyes:\n  - ok\n", `lexicon "xx"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("xx", []byte(tc.src))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestMergeKeepsOrderAndRefusesConflicts(t *testing.T) {
	en, err := Parse("en", []byte("yes:\n  - sure\n  - ok\nmonths:\n  may: 5\n"))
	require.NoError(t, err)
	es, err := Parse("es", []byte("yes:\n  - si\n  - ok\nmonths:\n  mayo: 5\n"))
	require.NoError(t, err)
	m := map[string]*Section{}
	require.NoError(t, merge(m, en))
	require.NoError(t, merge(m, es))
	assert.Equal(t, []string{"sure", "ok", "si"}, m["yes"].List)
	assert.Equal(t, map[string]int64{"may": 5, "mayo": 5}, m["months"].Numbers)

	bad, err := Parse("xx", []byte("months:\n  may: 6\n"))
	require.NoError(t, err)
	assert.ErrorContains(t, merge(m, bad), `"may" is 6 here and 5 in another language`)
	kind, err := Parse("xx", []byte("yes:\n  sure: ok\n"))
	require.NoError(t, err)
	assert.ErrorContains(t, merge(m, kind), `section "yes" is a mapping of words to words, but a list in another language`)
}

func TestLookups(t *testing.T) {
	assert.Contains(t, Get("yes"), "yes")
	assert.Contains(t, Get("yes"), "si", "Spanish merged after English")
	assert.True(t, Set("no")["nope"])
	assert.Contains(t, Phrases("span_leads"), []string{"dentro", "de"})
	assert.Equal(t, int64(5), Number("months")["mayo"])
	assert.Equal(t, "after", Map("weekday_trails")["que viene"])
	assert.True(t, Pattern("handoff_patterns").MatchString("can i talk to a real person"))
	assert.True(t, Pattern("handoff_patterns").MatchString("pasame con un agente"), "Spanish merged after English")
	assert.Panics(t, func() { Pattern("yes") })
	assert.PanicsWithValue(t, `lexicon: no language has a section "nonsense"`, func() { Get("nonsense") })
	assert.PanicsWithValue(t, `lexicon: section "months" is a mapping of words to numbers, not a list`, func() { Get("months") })
}

// TestPlainEntriesPassTheFullCheck: isPlainEntry, checkEntry's shortcut,
// accepts only what the full rule (single spaces, lower case) accepts.
func TestPlainEntriesPassTheFullCheck(t *testing.T) {
	full := func(s string) bool {
		return s != "" && s == strings.Join(strings.Fields(s), " ") && s == strings.ToLower(s)
	}
	for _, s := range []string{"sure", "of course", "o'clock", "1st", "a-b", "sí", "está bien", "SÍ", "Yes", "of  course", " sure", "sure ", "of\tcourse", "", " ", "of\u00a0course", "x\x00y", "~"} {
		if isPlainEntry(s) {
			assert.True(t, full(s), "%q", s)
		}
		assert.Equal(t, full(s), checkEntry(s) == nil, "%q", s)
	}
}

// BenchmarkLoadAll parses and merges the embedded languages, as every
// process that reads messages does once at start-up:
//
//	go test -run '^$' -bench LoadAll ./lexicon
func BenchmarkLoadAll(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := LoadAll(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestInAndWording: a section of one language, by its tag, falling back
// to English; lists joined with that language's words.
func TestInAndWording(t *testing.T) {
	assert.Equal(t, []string{"o"}, In("es", "list_or"))
	assert.Equal(t, []string{"y"}, In("es-ES", "list_and"))
	assert.Equal(t, []string{"or"}, In("en_GB", "list_or"))
	assert.Equal(t, []string{"or"}, In("", "list_or"))
	assert.Equal(t, []string{"or"}, In("fr", "list_or"), "no file: the first language's")
	assert.Equal(t, []string{"the"}, In("es", "month_day_articles"), "no such section in es: the first language's")
	assert.Panics(t, func() { In("en", "nonsense") })

	w := Wording{}
	assert.Equal(t, "", w.List("en", nil, false))
	assert.Equal(t, "a", w.List("en", []string{"a"}, false))
	assert.Equal(t, "a or b", w.List("en", []string{"a", "b"}, false))
	assert.Equal(t, "a, b and c", w.List("", []string{"a", "b", "c"}, true))
	assert.Equal(t, "a, b o c", w.List("es", []string{"a", "b", "c"}, false))
	assert.Equal(t, "a y b", w.List("es-MX", []string{"a", "b"}, true))
}
