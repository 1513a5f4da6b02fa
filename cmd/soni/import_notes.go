package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/soni-dev/soni/convtest"
	"github.com/soni-dev/soni/rasaimport"
	"github.com/soni-dev/soni/vm"
)

// maxNotes is how many import report items a failing case names at most.
const maxNotes = 3

// importNotes returns the Notes of soni test's text report: for a case of
// a project written by soni import rasa, the items of its IMPORT.md that
// touch the turn where the case failed, most telling first. Projects the
// importer did not write get none.
func importNotes() func(c *convtest.CaseResult, f *convtest.Failure) []string {
	items := map[string][]rasaimport.Item{}
	return func(c *convtest.CaseResult, f *convtest.Failure) []string {
		root := rasaimport.ImportRoot(c.File)
		if root == "" {
			return nil
		}
		its, seen := items[root]
		if !seen {
			var err error
			if its, err = rasaimport.ImportedItems(root); err != nil {
				return []string{fmt.Sprintf("(the import report's items cannot be read: %v)", err)}
			}
			items[root] = its
		}
		found := rasaimport.Explain(its, failureFacts(f))
		var out []string
		for i, it := range found {
			if i == maxNotes {
				out = append(out, fmt.Sprintf("and %d more items of IMPORT.md touch this turn", len(found)-maxNotes))
				break
			}
			out = append(out, it.Note())
		}
		return out
	}
}

var (
	quotedName = regexp.MustCompile(`"([A-Za-z_][A-Za-z0-9_\-]*)"`)
	responseOf = regexp.MustCompile(`\b(utter_[A-Za-z0-9_\-]+)`)
)

// failureFacts are what a failing turn touched, for rasaimport.Explain.
func failureFacts(f *convtest.Failure) rasaimport.Facts {
	var fa rasaimport.Facts
	add := func(list *[]string, name string) {
		if name != "" && !slices.Contains(*list, name) {
			*list = append(*list, name)
		}
	}
	onlyPatterns := true
	startedFlow := false
	for _, e := range f.Events {
		if e.Type == vm.EventFlowStarted && !strings.HasPrefix(e.Flow, "pattern_") {
			startedFlow = true
		}
		add(&fa.Flows, e.Flow)
		if e.Flow != "" && !strings.HasPrefix(e.Flow, "pattern_") {
			onlyPatterns = false
		}
		switch e.Type {
		case vm.EventFlowCompleted:
			add(&fa.Ended, e.Flow)
		case vm.EventActionExecuted:
			add(&fa.Actions, e.Action)
			onlyPatterns = false
		case vm.EventActionFailed:
			add(&fa.Actions, e.Action)
			add(&fa.FailedActions, e.Action)
			onlyPatterns = false
		case vm.EventSlotSet, vm.EventSlotReset:
			add(&fa.Slots, e.Slot)
			onlyPatterns = false
			// A slot given the whole message ("not the former", "purse
			// for myself") is a message the rules could not take apart.
			if v, ok := e.New.(string); ok && e.Type == vm.EventSlotSet && f.User != "" && v == f.User && len(strings.Fields(v)) > 1 {
				fa.Misread = true
			}
		}
	}
	// The expected replies and the failed checks name responses, flows,
	// actions and slots; a name may be any of them.
	for _, s := range append(append(slices.Clone(f.Expected), f.Actual...), f.Problems...) {
		for _, m := range responseOf.FindAllStringSubmatch(s, -1) {
			add(&fa.Responses, m[1])
		}
	}
	for _, p := range f.Problems {
		for _, m := range quotedName.FindAllStringSubmatch(p, -1) {
			add(&fa.Checked, m[1])
		}
		// A flow not started, or a slot given another value than the
		// test expects, is most often the message read another way.
		// So is a slot the message should have filled in the flow it
		// started.
		if strings.Contains(p, "was not started") || strings.Contains(p, "was not set to") ||
			startedFlow && strings.Contains(p, "was not set during the turn") {
			fa.Misread = true
		}
	}
	if onlyPatterns && f.Error == "" {
		fa.Misread = true
	}
	return fa
}
