package understand

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/compiler"
)

// yesNoValuesYAML asks a yes/no question whose slot is categorical with
// the values yes and no, as imported projects declare it, and one whose
// two values are no yes and no.
const yesNoValuesYAML = `version: "1.0"
flows:
  fix_vpn:
    description: fix the vpn
    trigger: {intents: ["fix my vpn"]}
    slots:
      - {name: has_error, type: categorical, values: ["yes", "no"]}
      - {name: network, type: categorical, values: [home, office]}
    steps:
      - {step: ask_error, type: collect, slot: has_error, message: "Do you see an error message?"}
      - {step: ask_network, type: collect, slot: network, message: "Home or office?"}
`

// TestYesNoValues: a categorical slot whose values are a yes and a no
// takes the yes or no words a boolean slot takes, alone or leading a
// sentence; another categorical slot does not.
func TestYesNoValues(t *testing.T) {
	t.Parallel()
	res := compiler.CompileSource("yesno.yaml", []byte(yesNoValuesYAML), compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	runCasesWith(t, reader(t, res.Program), []gcase{
		{"a no word", []string{"fix my vpn"}, "nope", "set_slot has_error=no", true},
		{"a yes word", []string{"fix my vpn"}, "yep", "set_slot has_error=yes", true},
		{"the value itself", []string{"fix my vpn"}, "yes", "set_slot has_error=yes", true},
		{"a yes leading a sentence", []string{"fix my vpn"}, "yep, there's an error popping up", "set_slot has_error=yes", true},
		{"a no leading a sentence", []string{"fix my vpn"}, "nope, it just spins forever", "set_slot has_error=no", true},
		{"other values take no yes", []string{"fix my vpn", "no"}, "yep", "set_slot network=yep", false},
	})
}
