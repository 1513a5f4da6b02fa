package lexicon

import "strings"

// In returns the entries of a list section in one language only: lang
// is a language tag ("es", "es-ES", "en_GB"), whose primary subtag names
// the file. A language with no file, or no such section, falls back to
// the first language that has it, in the order of Languages (English
// first). The slice is the caller's.
func In(lang, name string) []string {
	sec := section(name, List) // loads the files, and checks the name
	primary, _, _ := strings.Cut(strings.ToLower(lang), "-")
	primary, _, _ = strings.Cut(primary, "_")
	if l := byLang[primary]; l != nil && l.Sections[name] != nil && l.Sections[name].Kind == List {
		return append([]string(nil), l.Sections[name].List...)
	}
	for _, n := range langList {
		if s := byLang[n].Sections[name]; s != nil {
			return append([]string(nil), s.List...)
		}
	}
	return append([]string(nil), sec.List...)
}

// Wording joins lists in the words of a language: it is the vm.Wording
// the root package gives the machine (package vm knows no language).
type Wording struct{}

// List joins two or more items with the first word of the language's
// list_or section ("a, b or c"), or of its list_and section when all is
// true ("a, b and c").
func (Wording) List(lang string, items []string, all bool) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	name := "list_or"
	if all {
		name = "list_and"
	}
	return strings.Join(items[:len(items)-1], ", ") + " " + In(lang, name)[0] + " " + items[len(items)-1]
}
