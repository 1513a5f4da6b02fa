package rasaimport

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/soni-dev/soni/internal/safefile"
)

// What an item is about as a whole (Concerns.About).
const (
	// aboutActions: how the custom actions are served (the action
	// endpoint): it touches every action that fails.
	aboutActions = "actions"
	// aboutUnderstanding: how messages are read (the project's model, its
	// language): it touches every turn the understanding got wrong.
	aboutUnderstanding = "understanding"
	// aboutReset: how a slot a flow resets at its end shows in the
	// events (resets.go): it touches only a turn in which that flow
	// ended and a check of that slot failed.
	aboutReset = "reset"
)

// Concerns are the names of the soni project that a report item is about:
// the flows, actions, responses and slots it names or lies in. A failing
// test case names the items that touch the turn where it failed
// ([Explain]).
type Concerns struct {
	Flows     []string `json:"flows,omitempty"`
	Actions   []string `json:"actions,omitempty"`
	Responses []string `json:"responses,omitempty"`
	Slots     []string `json:"slots,omitempty"`
	// About is "actions" for an item about how every custom action is
	// served, "understanding" for one about how every message is read,
	// "reset" for one about the events of a slot reset at a flow's end.
	About string `json:"about,omitempty"`
}

func (c *Concerns) empty() bool {
	return len(c.Flows)+len(c.Actions)+len(c.Responses)+len(c.Slots) == 0 && c.About == ""
}

var (
	quoted   = regexp.MustCompile(`"([A-Za-z_][A-Za-z0-9_\-]*)"`)
	patterns = regexp.MustCompile(`\b(pattern_[a-z_]+)`)
)

// concerns sets each item's Concerns: the names it quotes that are flows,
// actions, responses or slots of the project (a name utter_… is a
// response even when the project lacks it: the item may say so), and the
// flow whose lines hold the item.
func (im *importer) concerns(items []Item) {
	actions := map[string]bool{}
	for name := range im.actionsUsed {
		actions[name] = true
	}
	for _, a := range im.p.actions {
		actions[a.name] = true
	}
	for name := range im.agents {
		actions[name] = true
	}
	// The flows of each data file, by the line they start at.
	type start struct {
		line int
		flow string
	}
	starts := map[string][]start{}
	for _, fl := range im.p.flows {
		starts[fl.at.File] = append(starts[fl.at.File], start{fl.at.Line, fl.name})
	}
	for _, s := range starts {
		sort.SliceStable(s, func(i, j int) bool { return s[i].line < s[j].line })
	}
	for i := range items {
		it := &items[i]
		c := &Concerns{About: it.about}
		add := func(list *[]string, name string) {
			if !slices.Contains(*list, name) {
				*list = append(*list, name)
			}
		}
		for _, m := range quoted.FindAllStringSubmatch(it.Message, -1) {
			name := m[1]
			if im.flows[name] != nil {
				add(&c.Flows, name)
			}
			if actions[name] {
				add(&c.Actions, name)
			}
			if im.responses[name] != nil || strings.HasPrefix(name, "utter_") {
				add(&c.Responses, name)
			}
			if im.slots[name] != nil {
				add(&c.Slots, name)
			}
		}
		// Rasa's patterns are named bare (the import writes their
		// overrides, or soni has its own).
		for _, m := range patterns.FindAllStringSubmatch(it.Message, -1) {
			add(&c.Flows, m[1])
		}
		if s := starts[it.File]; len(s) > 0 && it.Line > 0 {
			in := ""
			for _, st := range s {
				if st.line <= it.Line {
					in = st.flow
				}
			}
			if in != "" {
				add(&c.Flows, in)
			}
		}
		if !c.empty() {
			it.Concerns = c
		}
	}
}

// Facts are what a failing turn of a test touched: the flows it ran or
// expected, the actions it ran and those that failed, the responses it
// expected or said, the slots it set or checked, and whether the
// understanding may have read the message wrong (nothing but a pattern
// happened, or the bot asked which flow was meant).
type Facts struct {
	Flows, Actions, FailedActions, Responses, Slots []string
	// Checked are the names the turn's failed checks quote (a flow that
	// did not start, a slot that was not set).
	Checked []string
	// Ended are the flows that completed in the turn.
	Ended   []string
	Misread bool
}

// ImportedItems reads the report items the last import wrote into the
// project at dir (from its manifest). A project not written by the
// importer has none, and no error.
func ImportedItems(dir string) ([]Item, error) {
	b, err := safefile.ReadFile(filepath.Join(dir, ManifestFile), 16<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s is not the importer's manifest: %v", filepath.Join(dir, ManifestFile), err)
	}
	return m.Items, nil
}

// ImportRoot is the directory at or above the test file path that holds
// the importer's manifest, or "".
func ImportRoot(path string) string {
	dir := filepath.Dir(path)
	for {
		if st, err := os.Stat(filepath.Join(dir, ManifestFile)); err == nil && st.Mode().IsRegular() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Explain returns the items that touch a failing turn, most telling
// first: those about how messages are read when the turn may have been
// misread, those about the actions that failed and how actions are
// served, then those naming the responses, actions, slots and flows the
// turn touched.
func Explain(items []Item, f Facts) []Item {
	score := func(it Item) int {
		c := it.Concerns
		if c == nil {
			return 0
		}
		if c.About == aboutReset {
			for _, fl := range c.Flows {
				for _, sl := range c.Slots {
					if slices.Contains(f.Ended, fl) && slices.Contains(f.Checked, sl) {
						return 4
					}
				}
			}
			return 0
		}
		best := 0
		hit := func(names, facts []string, s int) {
			for _, n := range names {
				if slices.Contains(facts, n) && s > best {
					best = s
				}
			}
		}
		if c.About == aboutUnderstanding && f.Misread {
			best = 7
			if len(f.FailedActions) > 0 {
				best = 4 // an action that failed tells more
			}
		}
		hit(c.Actions, f.FailedActions, 6)
		if c.About == aboutActions && len(f.FailedActions) > 0 && best < 5 {
			best = 5
		}
		for _, names := range [][]string{c.Slots, c.Actions, c.Responses} {
			hit(names, f.Checked, 4)
		}
		hit(c.Responses, f.Responses, 3)
		hit(c.Actions, f.Actions, 3)
		hit(c.Slots, f.Slots, 2)
		// Lying in a flow the turn ran tells something only of an item
		// that changes what the flow does (needs a person, or kept as a
		// comment); an approximation there is no reason to fail.
		if it.Status == StatusManual || it.Status == StatusCommented {
			hit(c.Flows, f.Flows, 1)
			hit(c.Flows, f.Checked, 1)
		}
		return best
	}
	var out []Item
	scores := map[int]int{}
	for _, it := range items {
		if s := score(it); s > 0 {
			scores[it.N] = s
			out = append(out, it)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return scores[out[i].N] > scores[out[j].N] })
	return out
}

// Note is an item as a failing test names it: "see IMPORT.md item 7
// (manual): MESSAGE".
func (it Item) Note() string {
	return fmt.Sprintf("see IMPORT.md item %d (%s): %s", it.N, it.Status, it.Message)
}
