package understand

import (
	"sort"
	"strconv"
	"strings"

	"github.com/soni-dev/soni/ir"
	lexdata "github.com/soni-dev/soni/lexicon"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// Options picked by their position (docs/understanding.md, "Options by
// position"): a question that offers its options in an order ("Single,
// double or suite?", its buttons, a bulleted list) is often answered
// with a position, "the second one" or "the last one". The option at
// that position answers, as if its words had been typed.

// choicePositions name an option by its position (the lexicon's
// choice_positions): 1 for "the first one", -1 for "the last one".
var choicePositions = lexdata.Number("choice_positions")

// choiceAround may come around a position without naming anything: "I'll
// take the second one", "la segunda opción".
var choiceAround = lexdata.Set("choice_around")

// positionIn reads a short message that names an option by its position
// only: 1 for "the first one", 2 for "I'll take the second option
// please", -1 for "the last one". ok is false when the message says
// anything else, or two positions.
func positionIn(norm string) (int, bool) {
	words := strings.Fields(norm)
	if len(words) == 0 || len(words) > 8 {
		return 0, false
	}
	pos, found := 0, false
	for i := 0; i < len(words); {
		n := 0
		for k := min(3, len(words)-i); k >= 1; k-- {
			if x, ok := choicePositions[strings.Join(words[i:i+k], " ")]; ok {
				if found && pos != int(x) {
					return 0, false
				}
				pos, found, n = int(x), true, k
				break
			}
		}
		if n > 0 {
			i += n
			continue
		}
		if w := words[i]; !stopWords[w] && !politeWords[w] && !choiceAround[w] {
			return 0, false
		}
		i++
	}
	return pos, found
}

// positionedOptions are the commands of the options the pending collect
// offers, in the order it offers them: its buttons; else, for a
// categorical slot, the values its question names, in the order it names
// them; else, for a free-text slot, the items its question lists
// (questionOptions). nil when it offers fewer than two.
func (r *Rules) positionedOptions(p *vm.Pending, def *ir.Slot, v vm.View) [][]vm.Command {
	var out [][]vm.Command
	if buttons := r.questionButtons(p); len(buttons) > 1 {
		for _, b := range buttons {
			cmds := buttonCommands(b, v)
			if cmds == nil {
				return nil
			}
			out = append(out, cmds)
		}
		return out
	}
	switch {
	case def == nil:
	case def.Type == ir.TypeCategorical:
		for _, val := range promptValues(p.Prompt, def) {
			out = append(out, one(vm.Command{Kind: vm.CmdSetSlot, Slot: p.Slot, Value: val}))
		}
	case !typed(def) && (def.Type == ir.TypeText || def.Type == "") && !r.readsAs(p.Flow, p.Slot):
		for _, o := range questionOptions(p.Prompt) {
			out = append(out, one(vm.Command{Kind: vm.CmdSetSlot, Slot: p.Slot, Value: strings.TrimRight(o, ".,;")}))
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// promptValues are the values of a categorical slot that a question
// names by their value, label or a synonym, in the order it names them
// first. A phrase inside a longer one of another value does not count
// ("economy" inside "premium economy").
func promptValues(prompt string, def *ir.Slot) []string {
	msg := values.Normalize(prompt)
	type at struct{ start, end, value int }
	var spans []at
	for vi, val := range def.Values {
		for _, ph := range append([]string{strings.ReplaceAll(val.Value, "_", " "), val.Label}, val.Synonyms...) {
			ph = values.Normalize(ph)
			if ph == "" {
				continue
			}
			for from := 0; from+len(ph) <= len(msg); {
				k := strings.Index(msg[from:], ph)
				if k < 0 {
					break
				}
				s, e := from+k, from+k+len(ph)
				if (s == 0 || msg[s-1] == ' ') && (e == len(msg) || msg[e] == ' ') {
					spans = append(spans, at{s, e, vi})
				}
				from = s + 1
			}
		}
	}
	sort.Slice(spans, func(i, j int) bool {
		if spans[i].start != spans[j].start {
			return spans[i].start < spans[j].start
		}
		return spans[i].end > spans[j].end
	})
	var out []string
	seen := map[int]bool{}
	reach := -1
	for _, sp := range spans {
		if sp.end <= reach {
			continue // inside a longer phrase named before
		}
		reach = sp.end
		if !seen[sp.value] {
			seen[sp.value] = true
			out = append(out, def.Values[sp.value].Value)
		}
	}
	return out
}

func (r *Rules) ruleOptionPosition(in *message) (Reading, bool) {
	p := in.p
	if p == nil || p.Kind != vm.PendingCollect || !in.complete {
		return Reading{}, false
	}
	n, ok := positionIn(in.norm)
	if !ok {
		return Reading{}, false
	}
	def := r.slotDef(p.Flow, p.Slot)
	if typed(def) {
		// "first" at a question whose options include first class is
		// that value, not a position.
		if _, err := r.convert(in.v.Converter(), def, in.head); err == nil {
			return Reading{}, false
		}
	}
	opts := r.positionedOptions(p, def, in.v)
	i := n - 1
	if n < 0 {
		i = len(opts) - 1
	}
	if len(opts) == 0 || i < 0 || i >= len(opts) {
		return Reading{}, false
	}
	why := "option " + strconv.Itoa(i+1) + " of the " + strconv.Itoa(len(opts)) + " the question offers, by its position"
	return Reading{Commands: opts[i], Sure: true, Reason: why}, true
}
