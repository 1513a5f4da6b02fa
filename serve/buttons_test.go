package serve

import (
	"testing"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestButtonsShowLabels: a categorical question's buttons show each
// value's label, and send the value.
func TestButtonsShowLabels(t *testing.T) {
	r := compiler.CompileSource("cabin.yaml", []byte(`version: "1.0"
flows:
  fly:
    trigger: {intents: ["fly"]}
    slots:
      - name: cabin
        type: categorical
        values:
          economy: [coach]
          premium_economy: {label: "premium economy", synonyms: [premium]}
    steps:
      - {step: ask, type: collect, slot: cabin, message: "Which class?"}
`), compiler.Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	got := buttons(r.Program, &vm.Pending{Kind: vm.PendingCollect, Flow: "fly", Step: "ask", Slot: "cabin"})
	assert.Equal(t, []rasaButton{{Title: "economy", Payload: "economy"}, {Title: "premium economy", Payload: "premium_economy"}}, got)
}
