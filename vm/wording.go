package vm

import "strings"

// Wording gives the words of a language that the machine puts into what
// it says itself. vm knows no language: the front end supplies them
// (Options.Wording; the root package passes the lexicon's).
type Wording interface {
	// List joins two or more items as one phrase of the language lang (a
	// language tag such as "es" or "en-GB", or "" for the default): as
	// alternatives ("a, b or c"), or as a whole ("a, b and c") when all
	// is true.
	List(lang string, items []string, all bool) string
}

// list joins items through the machine's Wording: one item is itself,
// and with no Wording the items are joined with commas alone.
func (m *Machine) list(lang string, items []string, all bool) string {
	if len(items) < 2 || m.opts.Wording == nil {
		return strings.Join(items, ", ")
	}
	return m.opts.Wording.List(lang, items, all)
}
