package vm

import (
	"strconv"
	"strings"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/values"
)

// commonWords are words of four letters or more that name no choice.
var commonWords = map[string]bool{
	"want": true, "with": true, "from": true, "your": true, "that": true, "this": true,
	"have": true, "make": true, "some": true, "would": true, "like": true, "please": true,
	"quiero": true, "para": true, "una": true, "about": true, "what": true, "need": true,
}

// ordinals name the choices of a clarify question by position.
var ordinals = [][]string{
	{"first", "the first", "the first one", "1", "1st", "primero", "la primera", "el primero"},
	{"second", "the second", "the second one", "2", "2nd", "segundo", "la segunda", "el segundo"},
	{"third", "the third", "the third one", "3", "3rd", "tercero", "la tercera", "el tercero"},
}

// clarified reads a message as the answer to a clarify question offering
// flows: a categorical question whose values are the flows, with each
// flow's name (its underscores as spaces), description and trigger
// phrases as synonyms, the words of four letters or more in them that no
// other choice has ("balance"), and the choices' positions ("the first",
// "2", "the last one"). A message that names none, or more than one, is
// no answer, and the understanding layer reads it afresh.
func (m *Machine) clarified(flows []string, text string) (string, bool) {
	def := &ir.Slot{Name: "clarify", Type: ir.TypeCategorical}
	phrases := make([][]string, len(flows))
	count := map[string]int{}
	for i, name := range flows {
		fr := m.flows[name]
		if fr == nil {
			return "", false
		}
		ph := []string{strings.ReplaceAll(name, "_", " ")}
		if d := strings.TrimSuffix(fr.f.Description, "."); d != "" {
			ph = append(ph, d)
		}
		ph = append(ph, fr.f.Triggers...)
		phrases[i] = ph
		seen := map[string]bool{}
		for _, w := range strings.Fields(values.Normalize(strings.Join(ph, " "))) {
			if len(w) >= 4 && !seen[w] {
				seen[w] = true
				count[w]++
			}
		}
	}
	for i, name := range flows {
		syn := phrases[i]
		seen := map[string]bool{}
		for _, w := range strings.Fields(values.Normalize(strings.Join(syn, " "))) {
			if len(w) >= 4 && count[w] == 1 && !seen[w] && !commonWords[w] {
				seen[w] = true
				syn = append(syn, w)
			}
		}
		if i < len(ordinals) {
			syn = append(syn, ordinals[i]...)
		} else {
			syn = append(syn, strconv.Itoa(i+1))
		}
		if i == len(flows)-1 {
			syn = append(syn, "last", "the last", "the last one", "el ultimo", "la ultima")
		}
		def.Values = append(def.Values, ir.Value{Value: name, Synonyms: syn})
	}
	v, err := values.Convert(def, text)
	if err != nil {
		return "", false
	}
	f, ok := v.(string)
	return f, ok
}
