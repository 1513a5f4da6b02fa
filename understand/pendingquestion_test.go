package understand

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/compiler"
)

// TestQuestionsAndRequestsWhileAsked: at a categorical question, a
// question that holds a value's word is no answer; at a confirmation, a
// yes or no word that leads another flow's request is no answer, and the
// request starts that flow (unsure); a yes or no alone still answers.
func TestQuestionsAndRequestsWhileAsked(t *testing.T) {
	t.Parallel()
	runGeneral(t, "support", []gcase{
		{"a question with a category's word", []string{"open a ticket"}, "actually where is my other ticket at?", "fallback", false},
		{"a category in a sentence still answers", []string{"open a ticket"}, "it's something else", "set_slot category=other", true},
	})
	confirm := []string{"send money", "Ana", "50", "checking"}
	runGeneral(t, "banking", []gcase{
		{"a no leading another flow's request", confirm, "oh no, I just lost my card", "start_flow lost_card", false},
		{"a plain no", confirm, "oh no", "deny", true},
	})
}

// TestNegatedAnswerWithAWordOfAValue: at a categorical question, what is
// left of an answer once its negated part is dropped may name a value by
// a word of it only ("the portal" for company_portal).
func TestNegatedAnswerWithAWordOfAValue(t *testing.T) {
	t.Parallel()
	res := compiler.CompileSource("it.yaml", []byte(`version: "1.0"
flows:
  fix_access:
    description: fix access to a work system
    trigger: {intents: ["I can't connect"]}
    slots:
      - {name: system, type: categorical, values: [vpn, company_portal, other_work_tool]}
    steps:
      - {step: ask, type: collect, slot: system, message: "Is it the VPN, the company portal or another work tool?"}
`), compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	runCasesWith(t, reader(t, res.Program), []gcase{
		{"a word of one value, another negated", []string{"I can't connect"}, "it's the portal, not the vpn", "set_slot system=company_portal", true},
		{"only a negated value", []string{"I can't connect"}, "not the vpn", "fallback", false},
	})
}
