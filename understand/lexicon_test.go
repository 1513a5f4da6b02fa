package understand

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/vm"
)

// lexiconProgram has one flow per group of the built-in lexicon, each
// with one phrase that holds one word of its group, so that a message
// with another word of the group can start it only through the lexicon.
func lexiconProgram() *ir.Program {
	flow := func(name, phrase string) *ir.Flow {
		return &ir.Flow{Name: name, Triggers: []string{phrase}, Nodes: []*ir.Node{{ID: "s", Kind: ir.KindSay}}}
	}
	return &ir.Program{IRVersion: ir.Version, Settings: ir.DefaultSettings(), Flows: []*ir.Flow{
		flow("transfer", "send money"),
		flow("flight", "flight booking"),
		flow("hotel", "hotel booking"),
		flow("block", "block my card"),
		flow("balance", "balance"),
	}}
}

// TestLexiconGroups: each group of the built-in lexicon (issue 18 §2), in
// English and Spanish, starts the flow whose phrase has another word of
// the group; and a typo is read as the word one edit away (two for words
// of eight letters or more) in the middle of a word as at its ends.
func TestLexiconGroups(t *testing.T) {
	t.Parallel()
	r := New(lexiconProgram())
	for msg, want := range map[string]string{
		"transfer money":           "start_flow transfer",
		"can I move some cash":     "start_flow transfer",
		"I want to pay":            "start_flow transfer",
		"wire the funds please":    "start_flow transfer",
		"quiero transferir dinero": "start_flow transfer",
		"quiero pagar":             "start_flow transfer",
		"reserve a flight":         "start_flow flight",
		"I want to fly":            "start_flow flight",
		"a plane":                  "start_flow flight",
		"quiero volar":             "start_flow flight",
		"un vuelo":                 "start_flow flight",
		"reserve a room":           "start_flow hotel",
		"I need to stay":           "start_flow hotel",
		"necesito una habitación":  "start_flow hotel",
		"I lost my card":           "start_flow block",
		"my card was stolen":       "start_flow block",
		"freeze my card":           "start_flow block",
		"me han robado la tarjeta": "start_flow block",
		"bloquear la tarjeta":      "start_flow block",
		"how much do I have":       "start_flow balance",
		"cuánto tengo":             "start_flow balance",
		"mi saldo":                 "start_flow balance",
		"I want to book":           "clarify flight,hotel",
		"trasnfer money":           "start_flow transfer",
		"I need a flgiht":          "start_flow flight",
		"a hotle":                  "start_flow hotel",
		"tarnsfre money":           "start_flow transfer",
		"bloqeuar la tarjeta":      "start_flow block",
		"ransfe":                   "fallback",
		"monkey":                   "fallback",
		"can you order me a pizza": "fallback",
	} {
		rd, err := r.Read(context.Background(), msg, vm.View{})
		require.NoError(t, err)
		assert.Equal(t, want, describeCmds(rd.Commands), "%q: %s", msg, rd.Reason)
	}
}

// TestProjectLexiconFromYAML: settings.understanding.lexicon in a
// project's YAML extends the built-in lexicon, through the compiler.
func TestProjectLexiconFromYAML(t *testing.T) {
	t.Parallel()
	flows := `version: "1.0"
flows:
  refill:
    description: Refill a prescription
    trigger:
      intents: ["refill my prescription"]
    steps:
      - {step: done, type: say, message: "Done."}
`
	for _, tc := range []struct{ settings, want string }{
		{"", "fallback"},
		{"settings:\n  understanding:\n    lexicon:\n      refill: [renew, top up]\n      prescription: [meds, medicine]\n", "start_flow refill"},
	} {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, "flows.yaml"), []byte(flows+tc.settings), 0o600))
		res := compiler.Compile(dir, compiler.Options{})
		require.NotNil(t, res.Program, "%v", res.Diags)
		for _, msg := range []string{"renew my meds", "can you top up my medicine"} {
			rd, err := New(res.Program).Read(context.Background(), msg, vm.View{})
			require.NoError(t, err)
			assert.Equal(t, tc.want, describeCmds(rd.Commands), "%q with %q: %s", msg, tc.settings, rd.Reason)
		}
	}
}
