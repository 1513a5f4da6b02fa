package vm

import (
	"strings"

	"github.com/soni-dev/soni/values"
)

// clarified reads a message as the answer to a clarify question offering
// flows: each flow is a choice named by its name (its underscores as
// spaces), its description and its trigger phrases, and by its position
// (values.Choose, which holds the language work). A message that names
// none, or more than one, is no answer, and the understanding layer reads
// it afresh.
func (m *Machine) clarified(flows []string, text string) (string, bool) {
	choices := make([]values.Choice, len(flows))
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
		choices[i] = values.Choice{Name: name, Phrases: ph}
	}
	return values.Choose(choices, text)
}
