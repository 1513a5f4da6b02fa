package rasaimport

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestJinja pins the translation of Rasa's Jinja responses into soni
// templates, and that each construct it cannot translate is reported.
func TestJinja(t *testing.T) {
	tests := []struct {
		src, want string
		reported  int
	}{
		{"Hello {{ slots.name }}!", "Hello {name}!", 0},
		{"Hello {{name}}, {{ slots.city }}", "Hello {name}, {city}", 0},
		{"Update the {{ context.corrected_slots.keys()|join(', ') }}?", "Update the {context.corrected_slot_labels}?", 0},
		{`To {{ context.corrected_slots.values()|join(", ") }}`, "To {new_slot_values}", 0},
		{"Cancelled {{ context.canceled_name }}.", "Cancelled {canceled_name}.", 0},
		{"{# note #}Hi {{ slots.name }} {x}", "Hi {name} {{x}}", 0},
		{"Hi {{ slots.name|upper }}", "Hi {{{{ slots.name|upper }}}}", 1},
		{"{% if slots.vip %}Welcome back{% endif %}.", "{{% if slots.vip %}}Welcome back{{% endif %}}.", 2},
		{"{{ slots.nobody }} and {{ context.flow_name }}", "{{{{ slots.nobody }}}} and {{{{ context.flow_name }}}}", 2},
		{"{{ slots.name.title() }}", "{{{{ slots.name.title() }}}}", 1},
		{"{{ slots.tags|join('-') }}", "{{{{ slots.tags|join('-') }}}}", 1},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			im := &importer{slots: map[string]*slotInfo{"name": {}, "city": {}, "vip": {}, "tags": {}}}
			got := im.template(tt.src, "", "utter_x", loc{File: "domain.yml", Line: 3}, "domain.yaml")
			assert.Equal(t, tt.want, got)
			assert.Len(t, im.rep.items, tt.reported)
			for _, it := range im.rep.items {
				assert.Equal(t, StatusManual, it.Status)
				assert.Contains(t, it.Message, `response "utter_x": the Jinja`)
			}
		})
	}
}
