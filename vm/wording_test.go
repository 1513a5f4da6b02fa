package vm

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/internal/irtest"
	"github.com/soni-dev/soni/ir"
)

// recordingWording is a Wording that says which language it was asked
// for and joins with a mark of its own.
type recordingWording struct{ langs []string }

func (w *recordingWording) List(lang string, items []string, all bool) string {
	w.langs = append(w.langs, lang)
	mark := " | "
	if all {
		mark = " & "
	}
	return strings.Join(items, mark)
}

// TestListsComeFromTheWording: the machine joins the options it lists
// with the words the front end's Wording gives for the session's
// language; with none, with commas alone (vm knows no language).
func TestListsComeFromTheWording(t *testing.T) {
	balance := flow("balance", nil, say("b", "100."))
	balance.Description = "Check the balance"
	pay := flow("pay", nil, say("p", "paid"))
	pay.Description = "Pay a bill"
	p := program(nil, nil, balance, pay)
	p.Settings.ClarifyMessage = "Which one: {options}?"
	p.Settings.Language = "es"
	clarify := Command{Kind: CmdClarify, Flows: []string{"balance", "pay"}}

	w := &recordingWording{}
	m := newMachine(t, p, Options{Wording: w})
	res := do(t, m, m.NewState("s"), clarify)
	assert.Equal(t, []string{"Which one: Check the balance | Pay a bill?"}, res.Replies)
	assert.Equal(t, []string{"es"}, w.langs, "the session's language")

	bare, err := New(irtest.WithDefaultPatterns(p), Options{Now: fixedNow})
	require.NoError(t, err)
	res = do(t, bare, bare.NewState("s"), clarify)
	assert.Equal(t, []string{"Which one: Check the balance, Pay a bill?"}, res.Replies)
	assert.Equal(t, ir.ResponseClarification, res.Message(0).Response)
}
