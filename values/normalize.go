package values

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/soni-dev/soni/lexicon"
)

// fold maps lower-case accented Latin letters to their plain form. It is
// deliberately small and hand-written: it covers the Latin-1 and Latin
// Extended-A letters used by English, Spanish, Portuguese, French, German
// and Italian.
var fold = map[rune]string{}

func init() {
	pairs := []struct{ from, to string }{
		{"àáâãäåāăą", "a"},
		{"çćĉċč", "c"},
		{"ďđ", "d"},
		{"èéêëēĕėęě", "e"},
		{"ĝğġģ", "g"},
		{"ĥħ", "h"},
		{"ìíîïĩīĭįı", "i"},
		{"ĵ", "j"},
		{"ķ", "k"},
		{"ĺļľŀł", "l"},
		{"ñńņňŉ", "n"},
		{"òóôõöøōŏő", "o"},
		{"ŕŗř", "r"},
		{"śŝşš", "s"},
		{"ţťŧ", "t"},
		{"ùúûüũūŭůűų", "u"},
		{"ŵ", "w"},
		{"ýÿŷ", "y"},
		{"źżž", "z"},
		{"ß", "ss"},
		{"æ", "ae"},
		{"œ", "oe"},
		{"þ", "th"},
		{"ð", "d"},
	}
	for _, p := range pairs {
		for _, r := range p.from {
			fold[r] = p.to
		}
	}
}

// Normalize prepares a text for matching: it lower-cases it, strips the
// accents of Latin letters (á → a, ñ → n, ü → u), drops apostrophes
// ("don't" → "dont"), turns every other punctuation mark or symbol into a
// space and collapses runs of spaces into one, with none at either end.
// Letters of other scripts and digits are kept as they are.
func Normalize(s string) string {
	if normalized(s) {
		return s // most words a turn compares already are: no copy
	}
	return normalize(s)
}

// normalize is Normalize without the check for text that is already
// normalized.
func normalize(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	emit := func(str string, r rune) {
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		if str != "" {
			b.WriteString(str)
		} else {
			b.WriteRune(r)
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
				if space && b.Len() > 0 {
					b.WriteByte(' ')
				}
				space = false
				b.WriteByte(c)
			case c >= 'A' && c <= 'Z':
				if space && b.Len() > 0 {
					b.WriteByte(' ')
				}
				space = false
				b.WriteByte(c + 'a' - 'A')
			case c == '\'' || c == '`':
				// dropped: "don't" → "dont"
			default:
				space = true
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		r = unicode.ToLower(r)
		if rep, ok := fold[r]; ok {
			emit(rep, 0)
			continue
		}
		switch {
		case r == '\u2019' || r == '\u2018' || r == '\u00b4':
			// typographic apostrophes and the acute accent used as one
		case unicode.Is(unicode.Mn, r):
			// a combining mark (a decomposed accent): dropped
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			emit("", r)
		default:
			space = true
		}
	}
	return b.String()
}

// normalized reports whether Normalize would return s unchanged: lower
// case ASCII letters and digits in words separated by single spaces.
func normalized(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			continue
		}
		if c != ' ' || i == 0 || i == len(s)-1 || s[i-1] == ' ' {
			return false
		}
	}
	return true
}

// The yes and no words and phrases, normalized: the lexicon's yes, no,
// yes_alone, no_alone, yes_negated and fillers.
var (
	yesWords = lexicon.Get("yes")
	noWords  = lexicon.Get("no")
	// soloYes and soloNo answer only as the whole message: "y" and "n"
	// are too short to be recognised at the start of a longer one ("y
	// luego..." is Spanish for "and then...").
	soloYes = lexicon.Get("yes_alone")
	soloNo  = lexicon.Get("no_alone")
	// yesNegated after a yes word make it a no: "of course not", "claro
	// que no".
	yesNegated = lexicon.Phrases("yes_negated")
	// fillers may come before the yes or no word: "well, yes".
	fillers = lexicon.Set("fillers")
	// appraisalLeads say how something seems before a whole yes or no
	// word: "sounds right", "looks wrong", "seems fine".
	appraisalLeads = lexicon.Set("appraisal_leads")
)

// appraised reads a normalized message that is an appraisal lead, then
// only a yes or no word or phrase: "sounds right" is "right".
func appraised(n string) (yes bool, ok bool) {
	w, tail := firstWord(n)
	if !appraisalLeads[w] || tail == "" {
		return false, false
	}
	v, found := yesNoPhrases[tail]
	return v, found
}

var yesNoPhrases = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range yesWords {
		m[w] = true
	}
	for _, w := range noWords {
		m[w] = false
	}
	return m
}()

// YesNo reads a yes or a no in a message. The message is normalized; the
// answer is the whole message if it is a yes or no word or phrase, or else
// its first word or two-word phrase (after fillers such as "well"), so
// "yes please", "no thanks" and "sí, claro" are understood. ok is false
// when the message is neither.
func YesNo(s string) (yes bool, ok bool) {
	if yes, ok := yesNoEmoji(s); ok {
		return yes, true
	}
	return yesNoNormalized(Normalize(s))
}

// YesNoExact reads a message that is only a yes or no word or phrase
// (after fillers such as "well"), or only yes or no emoji: "yes",
// "sounds good", "👍", but not "yes but on Friday".
func YesNoExact(s string) (yes bool, ok bool) {
	if yes, ok := yesNoEmoji(s); ok {
		return yes, true
	}
	n := Normalize(s)
	for {
		w, tail := firstWord(n)
		if !fillers[w] || tail == "" {
			break
		}
		n = tail
	}
	if v, found := appraised(n); found {
		return v, true
	}
	return wholeYesNo(n)
}

// wholeYesNo reads a normalized message that is only a yes or no word or
// phrase, "y" and "n" included.
func wholeYesNo(n string) (yes bool, ok bool) {
	for _, w := range soloYes {
		if n == w {
			return true, true
		}
	}
	for _, w := range soloNo {
		if n == w {
			return false, true
		}
	}
	v, found := yesNoPhrases[n]
	return v, found
}

// The emoji that say yes or no on their own: a message of one or more
// of them (skin tones and variation selectors aside) answers.
var (
	yesEmoji = map[rune]bool{'👍': true, '👌': true, '✅': true, '✔': true, '🆗': true, '🙆': true}
	noEmoji  = map[rune]bool{'👎': true, '❌': true, '✖': true, '🚫': true, '🙅': true}
)

// yesNoEmoji reads a message made only of yes or only of no emoji.
func yesNoEmoji(s string) (yes bool, ok bool) {
	nYes, nNo := 0, 0
	for _, r := range s {
		switch {
		case yesEmoji[r]:
			nYes++
		case noEmoji[r]:
			nNo++
		case unicode.IsSpace(r), r == '\ufe0f', r == '\u200d', r >= 0x1F3FB && r <= 0x1F3FF, r == '!', r == '.':
		default:
			return false, false
		}
	}
	switch {
	case nYes > 0 && nNo == 0:
		return true, true
	case nNo > 0 && nYes == 0:
		return false, true
	}
	return false, false
}

func yesNoNormalized(n string) (yes bool, ok bool) {
	if n == "" {
		return false, false
	}
	if v, found := wholeYesNo(n); found {
		return v, true
	}
	rest := n
	for {
		w, tail := firstWord(rest)
		if !fillers[w] || tail == "" {
			break
		}
		rest = tail
	}
	if v, found := yesNoPhrases[rest]; found {
		return v, true
	}
	if v, found := appraised(rest); found {
		return v, true
	}
	// The longest phrase of up to four words at the start.
	// words holds the first maxPhraseWords+2 words, then the remainder.
	// strings.SplitN(rest, " ", len(buf)), in this frame's memory.
	var buf [maxPhraseWords + 3]string
	words, tail := buf[:0], rest
	for len(words) < len(buf)-1 {
		i := strings.IndexByte(tail, ' ')
		if i < 0 {
			break
		}
		words, tail = append(words, tail[:i]), tail[i+1:]
	}
	words = append(words, tail)
	for k := min(len(words), maxPhraseWords); k >= 1; k-- {
		v, found := yesNoPhrases[strings.Join(words[:k], " ")]
		if !found {
			continue
		}
		// A yes word negated right after it is a no: "of course not",
		// "absolutely not", "claro que no".
		if v && negatedAt(words, k) {
			return false, true
		}
		return v, true
	}
	return false, false
}

// negatedAt reports whether words[k:] starts with a yesNegated phrase.
// words[len(words)-1] is the rest of the message, not one word.
func negatedAt(words []string, k int) bool {
	for _, neg := range yesNegated {
		if len(words) < k+len(neg) {
			continue
		}
		match := true
		for i, w := range neg {
			if words[k+i] != w {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// maxPhraseWords is the length of the longest yes or no phrase
// (TestYesNoPhrasesFit).
const maxPhraseWords = 4

// firstWord splits a normalized text at its first space.
func firstWord(n string) (word, rest string) {
	if i := strings.IndexByte(n, ' '); i >= 0 {
		return n[:i], n[i+1:]
	}
	return n, ""
}
