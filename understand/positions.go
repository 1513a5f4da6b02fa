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

// valueClauses are the clauses of a question that name one value of a
// categorical slot each ("Standard delivery is free and takes about a
// week; express costs 5 EUR"), by value: the stems of their content
// words. A clause that names two values or none says nothing.
func valueClauses(prompt string, def *ir.Slot) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, clause := range strings.FieldsFunc(prompt, func(r rune) bool { return strings.ContainsRune(".;:?!,\n", r) }) {
		named := promptValues(clause, def)
		if len(named) != 1 {
			continue
		}
		if out[named[0]] == nil {
			out[named[0]] = map[string]bool{}
		}
		for w := range contentStems(values.Normalize(clause)) {
			out[named[0]][w] = true
		}
	}
	return out
}

func (r *Rules) ruleOptionWords(in *message) (Reading, bool) {
	p := in.p
	if p == nil || p.Kind != vm.PendingCollect || !in.complete || !fieldsUnder(in.norm, 9) || isQuestion(in.trimmed, in.norm) {
		return Reading{}, false
	}
	def := r.slotDef(p.Flow, p.Slot)
	if def == nil || def.Type != ir.TypeCategorical {
		return Reading{}, false
	}
	// "the free one", "the cheaper option": a pick, by a word the
	// question says of one option only.
	picks := false
	for _, w := range strings.Fields(in.norm) {
		if negations[w] || negatedCopulas[w] {
			return Reading{}, false
		}
		picks = picks || choiceAround[w]
	}
	if !picks {
		return Reading{}, false
	}
	clauses := valueClauses(p.Prompt, def)
	if len(clauses) < 2 {
		return Reading{}, false
	}
	found := ""
	for w := range contentStems(in.norm) {
		owner := ""
		for val, words := range clauses {
			if !words[w] {
				continue
			}
			if owner != "" {
				owner = "-" // a word of two options names neither
				break
			}
			owner = val
		}
		if owner == "" || owner == "-" {
			continue
		}
		if found != "" && found != owner {
			return Reading{}, false
		}
		found = owner
	}
	if found == "" {
		return Reading{}, false
	}
	return unsure("a pick of the option the question says the message's words of", vm.Command{Kind: vm.CmdSetSlot, Slot: p.Slot, Value: found}), true
}
