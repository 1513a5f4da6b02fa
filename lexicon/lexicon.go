// Package lexicon is soni's knowledge of natural language, kept as data:
// one embedded YAML file per language (en.yaml, es.yaml) whose named
// sections list the words and phrases the understanding layer (package
// understand) and the value readers (package values) need: cancel words,
// yes and no words, number words, month names, small talk and the like.
// No Go file in understand, understand/llm, values or vm holds a word of
// a language, in a list or in a comparison: each of those packages has a
// test, TestNoWordLists, that asks package wordlists to find one (soni's
// own protocol names, such as the model grammar's keywords, are listed
// in wordlists.Protocol). The files hold no domain's words either: a
// project's vocabulary comes from the project. Wording joins the lists
// the machine says in a language's words, and In reads one language's
// section.
//
// A section is a list of words or phrases, a mapping of words to words
// (a spelling to the word it stands for) or a mapping of words to whole
// numbers (a number word to its value). Adding a language is adding a
// file NAME.yaml here with the sections it has words for: every lookup
// merges the sections of all the languages, in the order of their file
// names, keeping the first of duplicates. The files are parsed once, on
// first use; TestLanguages loads each one, so a malformed file cannot
// reach a build that passed its tests.
package lexicon

import (
	"embed"
	"fmt"
	"path"
	"regexp"
	"regexp/syntax"
	"sort"
	"strings"
	"sync"

	"github.com/goccy/go-yaml"
)

//go:embed *.yaml
var files embed.FS

// Kind is the shape of a section.
type Kind int

// The kinds of section.
const (
	List    Kind = iota + 1 // a sequence of words or phrases
	Words                   // a mapping of words to words
	Numbers                 // a mapping of words to whole numbers
)

// String names the kind as the errors say it.
func (k Kind) String() string {
	switch k {
	case List:
		return "a list"
	case Words:
		return "a mapping of words to words"
	case Numbers:
		return "a mapping of words to numbers"
	}
	return "nothing"
}

// Section is one named section of one or more languages.
type Section struct {
	Kind    Kind
	List    []string
	Words   map[string]string
	Numbers map[string]int64
}

// Language is the parsed lexicon file of one language.
type Language struct {
	// Name is the file's name without .yaml: "en", "es".
	Name     string
	Sections map[string]*Section
}

// Parse reads one language's file. Each top-level key names a section
// whose value is a non-empty list of strings, or a non-empty mapping of
// strings to strings or of strings to whole numbers; entries are lower
// case with single spaces between words (as values.Normalize leaves a
// message), and a list holds no entry twice. A section whose name ends
// in _patterns is a list of regular expressions (Go's syntax) instead,
// for phrases with parts that vary ("talk to a real person").
func Parse(name string, data []byte) (*Language, error) {
	var raw yaml.MapSlice
	if err := yaml.UnmarshalWithOptions(data, &raw, yaml.UseOrderedMap()); err != nil {
		return nil, fmt.Errorf("lexicon %q: %v", name, err)
	}
	lang := &Language{Name: name, Sections: map[string]*Section{}}
	for _, item := range raw {
		key, ok := item.Key.(string)
		if !ok {
			return nil, fmt.Errorf("lexicon %q: section name %v is not a string", name, item.Key)
		}
		if lang.Sections[key] != nil {
			return nil, fmt.Errorf("lexicon %q: section %q appears twice", name, key)
		}
		sec, err := parseSection(item.Value, strings.HasSuffix(key, "_patterns"))
		if err != nil {
			return nil, fmt.Errorf("lexicon %q: section %q: %v", name, key, err)
		}
		lang.Sections[key] = sec
	}
	return lang, nil
}

func parseSection(v any, patterns bool) (*Section, error) {
	switch v := v.(type) {
	case []any:
		if len(v) == 0 {
			return nil, fmt.Errorf("is empty")
		}
		sec := &Section{Kind: List}
		seen := map[string]bool{}
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("entry %v is not a string (quote it)", e)
			}
			if patterns {
				// Parsed, not compiled: Pattern compiles the sections
				// used, and the error is regexp.Compile's.
				if _, err := syntax.Parse(s, syntax.Perl); err != nil {
					return nil, fmt.Errorf("entry %q: %v", s, err)
				}
			} else if err := checkEntry(s); err != nil {
				return nil, err
			}
			if seen[s] {
				return nil, fmt.Errorf("entry %q appears twice", s)
			}
			seen[s] = true
			sec.List = append(sec.List, s)
		}
		return sec, nil
	case yaml.MapSlice:
		if len(v) == 0 {
			return nil, fmt.Errorf("is empty")
		}
		var sec *Section
		for _, item := range v {
			k, ok := item.Key.(string)
			if !ok {
				return nil, fmt.Errorf("key %v is not a string (quote it)", item.Key)
			}
			if err := checkEntry(k); err != nil {
				return nil, err
			}
			kind, word, num := Words, "", int64(0)
			switch x := item.Value.(type) {
			case string:
				if err := checkEntry(x); err != nil {
					return nil, err
				}
				word = x
			case uint64:
				kind, num = Numbers, int64(x)
			case int64:
				kind, num = Numbers, x
			default:
				return nil, fmt.Errorf("the value of %q is %v: want a word or a whole number", k, item.Value)
			}
			if sec == nil {
				sec = &Section{Kind: kind, Words: map[string]string{}, Numbers: map[string]int64{}}
			}
			if sec.Kind != kind {
				return nil, fmt.Errorf("the value of %q is not %s like the first entry's", k, sec.Kind)
			}
			if _, dup := sec.Words[k]; dup {
				return nil, fmt.Errorf("key %q appears twice", k)
			}
			if _, dup := sec.Numbers[k]; dup {
				return nil, fmt.Errorf("key %q appears twice", k)
			}
			if kind == Words {
				sec.Words[k] = word
			} else {
				sec.Numbers[k] = num
			}
		}
		return sec, nil
	}
	return nil, fmt.Errorf("is %v: want a list or a mapping", v)
}

// checkEntry refuses an entry a normalized message could never hold.
func checkEntry(s string) error {
	if isPlainEntry(s) {
		return nil
	}
	if s == "" || s != strings.Join(strings.Fields(s), " ") || s != strings.ToLower(s) {
		return fmt.Errorf("entry %q is not lower case with single spaces between words", s)
	}
	return nil
}

// isPlainEntry reports, without allocating, that s is lower-case ASCII
// letters, digits and punctuation with single spaces between words:
// most entries, which checkEntry then need not split and lower.
func isPlainEntry(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ':
			if s[i-1] == ' ' {
				return false
			}
		case c <= ' ' || c >= 0x7f || ('A' <= c && c <= 'Z'):
			return false
		}
	}
	return true
}

// merge adds lang's sections to into, keeping the first of duplicates.
func merge(into map[string]*Section, lang *Language) error {
	for name, sec := range lang.Sections {
		have := into[name]
		if have == nil {
			cp := &Section{Kind: sec.Kind, List: append([]string(nil), sec.List...), Words: map[string]string{}, Numbers: map[string]int64{}}
			for k, v := range sec.Words {
				cp.Words[k] = v
			}
			for k, v := range sec.Numbers {
				cp.Numbers[k] = v
			}
			into[name] = cp
			continue
		}
		if have.Kind != sec.Kind {
			return fmt.Errorf("lexicon %q: section %q is %s, but %s in another language", lang.Name, name, sec.Kind, have.Kind)
		}
		for _, s := range sec.List {
			if !contains(have.List, s) {
				have.List = append(have.List, s)
			}
		}
		for k, v := range sec.Words {
			if w, ok := have.Words[k]; ok && w != v {
				return fmt.Errorf("lexicon %q: section %q: %q means %q here and %q in another language", lang.Name, name, k, v, w)
			}
			have.Words[k] = v
		}
		for k, v := range sec.Numbers {
			if n, ok := have.Numbers[k]; ok && n != v {
				return fmt.Errorf("lexicon %q: section %q: %q is %d here and %d in another language", lang.Name, name, k, v, n)
			}
			have.Numbers[k] = v
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// LoadAll parses every embedded language file and merges them.
func LoadAll() ([]*Language, map[string]*Section, error) {
	names, err := files.ReadDir(".")
	if err != nil {
		return nil, nil, err
	}
	sort.Slice(names, func(i, j int) bool { return names[i].Name() < names[j].Name() })
	// Each file is parsed on its own goroutine (every process that
	// understands messages waits for them at start-up); they merge in
	// order, and the first file's error is the one returned, as if
	// they were parsed in turn.
	langs := make([]*Language, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, e := range names {
		wg.Go(func() {
			data, err := files.ReadFile(e.Name())
			if err != nil {
				errs[i] = err
				return
			}
			langs[i], errs[i] = Parse(strings.TrimSuffix(e.Name(), path.Ext(e.Name())), data)
		})
	}
	wg.Wait()
	merged := map[string]*Section{}
	for i, lang := range langs {
		if errs[i] != nil {
			return nil, nil, errs[i]
		}
		if err := merge(merged, lang); err != nil {
			return nil, nil, err
		}
	}
	return langs, merged, nil
}

var (
	once     sync.Once
	loaded   map[string]*Section
	langList []string
	// byLang are the languages' own sections, by file name.
	byLang map[string]*Language
)

// section returns a merged section. The embedded files cannot change
// after the build, and TestLanguages parses them, so a load error or an
// unknown section is a programming error that every test of the package
// asking for it reports: it panics, as regexp.MustCompile does.
func section(name string, kind Kind) *Section {
	once.Do(func() {
		langs, merged, err := LoadAll()
		if err != nil {
			panic(err)
		}
		loaded = merged
		byLang = map[string]*Language{}
		for _, l := range langs {
			langList = append(langList, l.Name)
			byLang[l.Name] = l
		}
	})
	sec := loaded[name]
	if sec == nil {
		panic(fmt.Sprintf("lexicon: no language has a section %q", name))
	}
	if sec.Kind != kind {
		panic(fmt.Sprintf("lexicon: section %q is %s, not %s", name, sec.Kind, kind))
	}
	return sec
}

// Languages names the embedded languages, in the order they are merged.
func Languages() []string {
	section("yes", List)
	return append([]string(nil), langList...)
}

// Get returns the entries of a list section, every language's, in order.
// The slice is the caller's.
func Get(name string) []string {
	return append([]string(nil), section(name, List).List...)
}

// Set returns the entries of a list section as a set.
func Set(name string) map[string]bool {
	m := map[string]bool{}
	for _, s := range section(name, List).List {
		m[s] = true
	}
	return m
}

// Phrases returns the entries of a list section split into words.
func Phrases(name string) [][]string {
	list := section(name, List).List
	out := make([][]string, len(list))
	for i, s := range list {
		out[i] = strings.Fields(s)
	}
	return out
}

// Map returns a mapping section of words to words.
func Map(name string) map[string]string {
	m := map[string]string{}
	for k, v := range section(name, Words).Words {
		m[k] = v
	}
	return m
}

// Pattern returns a list section of regular expressions (its name ends in
// _patterns) as one expression that matches where any of them does.
func Pattern(name string) *regexp.Regexp {
	if !strings.HasSuffix(name, "_patterns") {
		panic(fmt.Sprintf("lexicon: section %q holds no patterns (its name does not end in _patterns)", name))
	}
	list := section(name, List).List
	alts := make([]string, len(list))
	for i, p := range list {
		alts[i] = "(?:" + p + ")"
	}
	return regexp.MustCompile(strings.Join(alts, "|"))
}

// Number returns a mapping section of words to whole numbers.
func Number(name string) map[string]int64 {
	m := map[string]int64{}
	for k, v := range section(name, Numbers).Numbers {
		m[k] = v
	}
	return m
}
