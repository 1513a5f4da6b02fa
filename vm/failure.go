package vm

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// taskWords is how a message to the user names the task of an action that
// failed ("Sorry, something went wrong while trying to {action}."): the
// first clause of the action's description, as a verb phrase ("Look up the
// balance of an account; fails when..." gives "look up the balance of an
// account"), or "do that" when it has none. An action's name is an
// identifier and never reaches the user this way.
func (m *Machine) taskWords(action string) string {
	d := m.prog.Action(action)
	if d == nil {
		return "do that"
	}
	s := strings.TrimSpace(d.Description)
	for _, sep := range []string{"; ", ". ", " — ", " - ", "\n"} {
		if i := strings.Index(s, sep); i > 0 {
			s = s[:i]
		}
	}
	s = strings.TrimSpace(strings.TrimRight(s, ".;:!"))
	if s == "" {
		return "do that"
	}
	// "Look up..." reads "look up..." inside a sentence; "OTP check..."
	// (an acronym) and "Ana's..." (a name, said as written) keep theirs.
	first, n := utf8.DecodeRuneInString(s)
	second, _ := utf8.DecodeRuneInString(s[n:])
	if unicode.IsUpper(first) && unicode.IsLower(second) && !isName(s) {
		s = string(unicode.ToLower(first)) + s[n:]
	}
	return s
}

// isName reports whether a phrase starts with a word that looks like a
// name: one followed by "'s".
func isName(s string) bool {
	w, _, _ := strings.Cut(s, " ")
	return strings.HasSuffix(w, "'s") || strings.HasSuffix(w, "’s")
}
