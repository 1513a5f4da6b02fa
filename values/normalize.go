package values

import (
	"strings"
	"unicode"
	"unicode/utf8"
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

// The yes and no words. Each entry is a normalized word or phrase.
var (
	yesWords = []string{
		"yes", "yeah", "yep", "yup", "sure", "ok", "okay", "true",
		"confirm", "confirmed", "correct", "right", "affirmative", "absolutely",
		"definitely", "of course", "sure thing", "go ahead", "do it", "please do",
		"perfect", "great", "sounds good", "exactly", "yes please",
		"certainly", "why not", "thats right", "thats correct", "that is right", "that is correct",
		"that works", "works for me", "sounds great", "sounds perfect", "looks good", "looks right",
		"all good", "alright", "all right", "fine", "fine by me", "yea", "go for it",
		"lets do it", "do that", "proceed", "confirmed thanks", "yes go ahead", "yes do it",
		"adelante", "venga", "hazlo", "okey", "oki",
		"si", "claro", "vale", "dale", "correcto", "exacto", "afirmativo",
		"confirmo", "confirmar", "de acuerdo", "por supuesto", "perfecto",
		"claro que si", "por supuesto que si",
	}
	noWords = []string{
		"no", "nope", "nah", "false", "cancel", "incorrect", "wrong",
		"negative", "not really", "no way", "dont", "do not", "nay", "not quite", "not yet",
		"no thanks", "no thank you", "better not", "lets not", "hold off", "no gracias",
		"mejor no", "ni hablar", "todavia no", "aun no", "de momento no",
		"not at all", "not now", "i dont think so", "thats wrong", "that is wrong",
		"cancelar", "cancela", "negativo", "incorrecto", "para nada",
		"de ninguna manera", "nunca", "claro que no", "por supuesto que no",
	}
	// soloWords answer only as the whole message: "y" and "n" are too
	// short to be recognised at the start of a longer one ("y luego..." is
	// Spanish for "and then...").
	soloYes = []string{"y", "k"}
	soloNo  = []string{"n"}
	// fillers may come before the yes or no word: "well, yes".
	fillers = map[string]bool{
		"well": true, "oh": true, "um": true, "uh": true, "hmm": true,
		"ah": true, "pues": true, "eh": true, "mm": true,
	}
)

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
		if v && len(words) > k && (words[k] == "not" || (words[k] == "que" && len(words) > k+1 && words[k+1] == "no")) {
			return false, true
		}
		return v, true
	}
	return false, false
}

// maxPhraseWords is the length of the longest yes or no phrase.
const maxPhraseWords = 4

// firstWord splits a normalized text at its first space.
func firstWord(n string) (word, rest string) {
	if i := strings.IndexByte(n, ' '); i >= 0 {
		return n[:i], n[i+1:]
	}
	return n, ""
}
