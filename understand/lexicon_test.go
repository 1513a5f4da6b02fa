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

// lexiconProgram has one flow per group of its project lexicon, each
// with one phrase that holds one word of its group, so that a message
// with another word of the group can start it only through the lexicon.
func lexiconProgram() *ir.Program {
	flow := func(name, phrase string) *ir.Flow {
		return &ir.Flow{Name: name, Triggers: []string{phrase}, Nodes: []*ir.Node{{ID: "s", Kind: ir.KindSay}}}
	}
	settings := ir.DefaultSettings()
	settings.Understanding = &ir.Understanding{Lexicon: map[string][]string{
		"send":    {"transfer", "move", "pay", "wire", "transferir", "pagar"},
		"money":   {"cash", "funds", "dinero"},
		"flight":  {"fly", "plane", "vuelo", "volar"},
		"hotel":   {"room", "stay", "habitacion"},
		"book":    {"reserve"},
		"block":   {"lost", "stolen", "freeze", "robado", "bloquear"},
		"card":    {"tarjeta"},
		"balance": {"how much do i have", "cuanto tengo", "saldo"},
	}}
	return &ir.Program{IRVersion: ir.Version, Settings: settings, Flows: []*ir.Flow{
		flow("transfer", "send money"),
		flow("flight", "flight booking"),
		flow("hotel", "hotel booking"),
		flow("block", "block my card"),
		flow("balance", "balance"),
	}}
}

// TestLexiconGroups: each group of a project's lexicon, in English and
// Spanish, starts the flow whose phrase has another word of the group;
// and a typo is read as the word one edit away (two for words of eight
// letters or more) in the middle of a word as at its ends.
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

// TestNoDomainWordsBuiltIn: the rules know no domain's words of their
// own (issue 27). Applied to a project whose text says nothing of
// banking, travel or support, the words of those domains are concepts of
// their own stem (or verb) only: none reads as another ("ticket" as "flight",
// "cash" as "money", "tarjeta" as "card"), and none starts a flow. The
// same words in a project's text or lexicon do.
func TestNoDomainWordsBuiltIn(t *testing.T) {
	t.Parallel()
	say := []*ir.Node{{ID: "s", Kind: ir.KindSay, Message: &ir.Template{Src: "ok"}}}
	garden := &ir.Program{IRVersion: ir.Version, Settings: ir.DefaultSettings(), Flows: []*ir.Flow{
		{Name: "water_plants", Description: "Water the plants of the garden", Triggers: []string{"water the plants"}, Nodes: say},
		{Name: "mow_lawn", Description: "Mow the lawn", Triggers: []string{"mow the lawn"}, Nodes: say},
	}}
	r := New(garden)
	domain := []string{
		"card", "tarjeta", "debit", "credit", "balance", "saldo", "money", "cash", "funds", "dinero",
		"flight", "plane", "vuelo", "ticket", "hotel", "room", "accommodation", "booking", "reserve",
		"refund", "charge", "invoice", "problem", "issue", "bug", "status", "update", "complaint",
		"stolen", "lost", "freeze", "transfer", "payment", "wire",
	}
	for _, w := range domain {
		own := stem(w)
		if base, ok := englishThesaurus().forms[w]; ok {
			own = stem(base) // "stolen" is a form of "steal": language, not domain
		}
		assert.Equal(t, own, r.mean.lex.concept(w), "%q has a concept of its own in a garden's project", w)
		assert.False(t, r.flowWord(r.mean.lex.concept(w)), "%q is no word of a garden's flows", w)
		rd, err := r.Read(context.Background(), "I need help with my "+w, vm.View{})
		require.NoError(t, err)
		assert.Equal(t, "fallback", describeCmds(rd.Commands), "%q: %s", w, rd.Reason)
	}
	// Pairs the old built-in lexicon read as one are two concepts.
	for _, pair := range [][2]string{
		{"ticket", "flight"}, {"ticket", "complaint"}, {"cash", "money"}, {"tarjeta", "card"},
		{"saldo", "balance"}, {"issue", "problem"}, {"refund", "charge"}, {"plane", "flight"},
		{"room", "hotel"}, {"stolen", "lost"}, {"status", "update"},
	} {
		assert.NotEqual(t, r.mean.lex.concept(pair[0]), r.mean.lex.concept(pair[1]), "%v", pair)
	}
}

// TestGeneralSynonyms: a message word the project never uses is read as
// the project's word it shares a common sense with in the embedded
// English data (WordNet): "automobile" and "auto" are a car,
// "reserve" is "book"; a word related in none of its common senses is
// not.
func TestGeneralSynonyms(t *testing.T) {
	t.Parallel()
	say := []*ir.Node{{ID: "s", Kind: ir.KindSay, Message: &ir.Template{Src: "ok"}}}
	p := &ir.Program{IRVersion: ir.Version, Settings: ir.DefaultSettings(), Flows: []*ir.Flow{
		{Name: "book_car", Description: "Book a car for a trip", Triggers: []string{"book a car"}, Nodes: say},
		{Name: "water_plants", Description: "Water the plants of the garden", Triggers: []string{"water the plants"}, Nodes: say},
	}}
	r := New(p)
	for msg, want := range map[string]string{
		"I need an automobile": "start_flow book_car",
		"reserve an auto":      "start_flow book_car",
		"reserve me a car":     "start_flow book_car",
		"I need a bicycle":     "fallback",
	} {
		rd, err := r.Read(context.Background(), msg, vm.View{})
		require.NoError(t, err)
		assert.Equal(t, want, describeCmds(rd.Commands), "%q: %s", msg, rd.Reason)
	}
	assert.Equal(t, "car", r.mean.lex.concept("automobile"))
	assert.Equal(t, stem("automobile"), New(&ir.Program{IRVersion: ir.Version, Settings: ir.DefaultSettings()}).mean.lex.concept("automobile"),
		"with no project word to be a synonym of, a word is its own stem")
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

// TestSynonymsAreTheSameEveryTime: the words read through WordNet, and
// whether each is a synonym or a form of a project word, are the same
// for the same project every time (determinism: no map order decides
// which word a stem stands for).
func TestSynonymsAreTheSameEveryTime(t *testing.T) {
	t.Parallel()
	res := compiler.Compile("../flows/travel", compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	first := New(res.Program).mean.lex
	for range 10 {
		l := New(res.Program).mean.lex
		require.Equal(t, first.words, l.words)
		require.Equal(t, first.synonym, l.synonym)
	}
}

// TestSynonymsKeepTheProjectsWords: a project's own word, and a common
// word that is only the stem of a synonym ("name" of "naming"), are never
// read through a synonym.
func TestSynonymsKeepTheProjectsWords(t *testing.T) {
	t.Parallel()
	say := []*ir.Node{{ID: "s", Kind: ir.KindSay, Message: &ir.Template{Src: "ok"}}}
	p := &ir.Program{IRVersion: ir.Version, Settings: ir.DefaultSettings(), Flows: []*ir.Flow{
		{Name: "goodbye", Description: "say goodbye to the user", Triggers: []string{"goodbye"}, Nodes: say},
		{Name: "schedule_appointment", Description: "schedule an appointment with the dealer", Triggers: []string{"schedule an appointment"}, Nodes: say},
	}}
	l := New(p).mean.lex
	assert.False(t, l.throughSynonym("goodbye"), "the project's own word")
	assert.False(t, l.throughSynonym("name"), "a common word of its own")
	assert.NotEqual(t, l.concept("appointment"), l.concept("name"))
}
