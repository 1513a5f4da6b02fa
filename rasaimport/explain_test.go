package rasaimport

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExplainNamesTheItemsOfAFailingTurn: the import records what each
// item of IMPORT.md concerns (in its manifest, numbered as IMPORT.md
// lists them), and Explain names the items that touch a failing turn,
// most telling first: how actions are served for an action that failed,
// how messages are read for a turn read another way, the items naming a
// response the turn expected; an approximation that only lies in a flow
// the turn ran is not named.
func TestExplainNamesTheItemsOfAFailingTurn(t *testing.T) {
	dst := filepath.Join(t.TempDir(), "out")
	_, err := Import(filepath.Join(casesDir, "cancel_override", "in"), dst, Options{})
	require.NoError(t, err)
	items, err := ImportedItems(dst)
	require.NoError(t, err)
	byAbout := func(f func(it Item) bool) Item {
		for _, it := range items {
			if f(it) {
				return it
			}
		}
		t.Fatalf("no such item in %v", items)
		return Item{}
	}
	served := byAbout(func(it Item) bool { return it.Concerns != nil && it.Concerns.About == aboutActions })
	cancel := byAbout(func(it Item) bool {
		return it.Concerns != nil && assert.ObjectsAreEqual(it.Concerns.Flows, []string{"pattern_cancel_flow", "pattern_completed"})
	})
	assert.Equal(t, []string{"utter_can_do_something_else"}, cancel.Concerns.Responses)
	for i, it := range items {
		assert.Equal(t, i+1, it.N, "numbered in order")
	}

	notes := func(f Facts) []int {
		var ns []int
		for _, it := range Explain(items, f) {
			ns = append(ns, it.N)
		}
		return ns
	}
	assert.Equal(t, []int{served.N}, notes(Facts{Flows: []string{"track_order"}, Actions: []string{"action_fetch_order"}, FailedActions: []string{"action_fetch_order"}}))
	assert.Equal(t, []int{cancel.N}, notes(Facts{Flows: []string{"pattern_cancel_flow", "track_order"}, Responses: []string{"utter_can_do_something_else", "utter_flow_cancelled_rasa"}}))
	assert.Empty(t, notes(Facts{Flows: []string{"pattern_cancel_flow"}}), "an approximation in a flow the turn ran explains nothing")
	assert.Empty(t, notes(Facts{Actions: []string{"action_fetch_order"}}), "an action that ran well is not the served-actions item's business")

	// The project's model explains a turn read another way.
	mdst := filepath.Join(t.TempDir(), "model")
	_, err = Import(filepath.Join(casesDir, "model", "in"), mdst, Options{})
	require.NoError(t, err)
	mitems, err := ImportedItems(mdst)
	require.NoError(t, err)
	found := Explain(mitems, Facts{Misread: true})
	require.NotEmpty(t, found)
	assert.Equal(t, aboutUnderstanding, found[0].Concerns.About)
	assert.Contains(t, found[0].Note(), "see IMPORT.md item ")
	assert.Empty(t, Explain(mitems, Facts{}), "a turn read right is not the model's business")
}

// TestImportedItemsOfAProjectNotImported: a project with no manifest has
// no items, and no error; ImportRoot finds the manifest above a test file.
func TestImportedItemsOfAProjectNotImported(t *testing.T) {
	items, err := ImportedItems(t.TempDir())
	require.NoError(t, err)
	assert.Empty(t, items)
	dst := filepath.Join(t.TempDir(), "out")
	_, err = Import(filepath.Join(casesDir, "cancel_override", "in"), dst, Options{})
	require.NoError(t, err)
	assert.Equal(t, dst, ImportRoot(filepath.Join(dst, "tests", "orders.yaml")))
	assert.Equal(t, "", ImportRoot(filepath.Join(t.TempDir(), "tests", "x.yaml")))
}

// TestExplainResetOnlyWhereTheFlowEnded: the item about a slot a flow
// resets at its end touches a turn only when that flow ended in it and a
// check of that slot failed; a turn that merely did not fill the slot is
// not its business.
func TestExplainResetOnlyWhereTheFlowEnded(t *testing.T) {
	dst := filepath.Join(t.TempDir(), "out")
	_, err := Import(fixture, dst, Options{})
	require.NoError(t, err)
	items, err := ImportedItems(dst)
	require.NoError(t, err)
	var reset *Item
	for i, it := range items {
		if it.Concerns != nil && it.Concerns.About == aboutReset {
			reset = &items[i]
			break
		}
	}
	require.NotNil(t, reset, "the fixture's test checks a reset slot was set to null")
	flow, slot := reset.Concerns.Flows[0], reset.Concerns.Slots[0]
	found := Explain(items, Facts{Checked: []string{slot}, Ended: []string{flow}})
	require.NotEmpty(t, found)
	assert.Equal(t, reset.N, found[0].N)
	for _, it := range Explain(items, Facts{Checked: []string{slot}, Flows: []string{flow}, Slots: []string{slot}}) {
		assert.NotEqual(t, reset.N, it.N, "the flow did not end in the turn")
	}
}

// TestExplainAFailedActionBeforeTheModel: when an action failed in a turn
// the understanding may also have misread, the action's items come first.
func TestExplainAFailedActionBeforeTheModel(t *testing.T) {
	items := []Item{
		{N: 1, Status: StatusApproximated, Concerns: &Concerns{About: aboutUnderstanding}},
		{N: 2, Status: StatusApproximated, Concerns: &Concerns{About: aboutActions}},
	}
	var ns []int
	for _, it := range Explain(items, Facts{Misread: true, FailedActions: []string{"fetch"}}) {
		ns = append(ns, it.N)
	}
	assert.Equal(t, []int{2, 1}, ns)
	ns = nil
	for _, it := range Explain(items, Facts{Misread: true}) {
		ns = append(ns, it.N)
	}
	assert.Equal(t, []int{1}, ns)
}
