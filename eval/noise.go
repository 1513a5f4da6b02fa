package eval

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/vm"
)

// NoiseKinds are the kinds of noise NoisyAnswer adds to a model's answer,
// the ones small instruction-tuned models really write around and inside
// the answer grammar (docs/understanding.md, "A noisy oracle"):
//
//   - prose: a sentence of explanation before or after the commands;
//   - fence: the commands in a markdown code fence;
//   - bullets: the commands as a bulleted or numbered list;
//   - label: "Commands:" or "Answer:" before them, on its own line or
//     on the first command's;
//   - punctuation: a period or semicolon at the end of each line;
//   - name_case: a flow or slot name in another case (Transfer_Funds);
//   - name_spaces: a flow or slot name with spaces for its underscores
//     (Transfer Funds);
//   - quotes: a value in curly quotes or backticks;
//   - unit: a number slot's value with its currency or unit ("50
//     euros", "$50");
//   - date_words: a date slot's value in words ("March 12, 2027");
//   - remark: a remark after a command, in parentheses or after a dash;
//   - slot_close: a slot name the project does not have, close to
//     exactly one slot of the flow in question (transfer_amount);
//   - slot_to: "to" between a slot and its value (set slot amount to
//     50);
//   - one_line: several commands on one line, after a semicolon or a
//     comma.
var NoiseKinds = []string{"prose", "fence", "bullets", "label", "punctuation", "name_case", "name_spaces", "quotes", "unit", "date_words", "remark", "slot_close", "slot_to", "one_line"}

// noiseLine is one command of an answer, in parts the noise can change.
type noiseLine struct {
	head  string   // start flow, set slot, clarify, affirm, ...
	names []string // the flow or slot named (several for clarify)
	flow  bool     // the names are flows
	value string   // the value, unquoted ("" when none)
	slot  string   // the slot's name as the project writes it
	def   *ir.Slot // the value's slot
	in    string   // the flow in question for the slot
	quote bool     // the value is to be quoted
	tail  string   // a remark after the command
	end   string   // punctuation at the end
	to    bool     // "to" before the value
}

// NoisyAnswer writes want in the answer grammar as a small model would:
// the labelled commands, with one or two kinds of noise (NoiseKinds)
// chosen by a generator seeded with seed and the case's name and index,
// among the kinds the commands allow. The same seed and case give the
// same answer. v is the conversation the case is read in (the flow in
// question for a slot). It returns the answer and the kinds applied.
func NoisyAnswer(seed uint64, index int, c Case, want []vm.Command, v vm.View) (string, []string) {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d\x00%s", index, c.Name)
	rng := rand.New(rand.NewPCG(seed, h.Sum64()))
	prog := v.Program
	top := ""
	if n := len(v.Stack); n > 0 {
		top = v.Stack[n-1]
	}
	var lines []*noiseLine
	for _, cmd := range want {
		switch cmd.Kind {
		case vm.CmdStartFlow:
			lines = append(lines, &noiseLine{head: "start flow", names: []string{cmd.Flow}, flow: true})
			for _, sv := range cmd.Slots {
				lines = append(lines, valueLine("set slot", prog, cmd.Flow, sv.Slot, sv.Value))
			}
		case vm.CmdSetSlot, vm.CmdCorrectSlot:
			in := top
			if u := ir.Interrupted(v.Stack); u != "" && prog.ResolveSlot(top, cmd.Slot) == nil {
				in = u
			}
			lines = append(lines, valueLine(strings.ReplaceAll(string(cmd.Kind), "_", " "), prog, in, cmd.Slot, cmd.Value))
		case vm.CmdCancelFlow:
			l := &noiseLine{head: "cancel flow", flow: true}
			if cmd.Flow != "" {
				l.names = []string{cmd.Flow}
			}
			lines = append(lines, l)
		case vm.CmdHandoff:
			lines = append(lines, &noiseLine{head: "human handoff"})
		case vm.CmdRepeat:
			lines = append(lines, &noiseLine{head: "repeat"})
		case vm.CmdSkipQuestion:
			lines = append(lines, &noiseLine{head: "skip"})
		case vm.CmdClarify:
			lines = append(lines, &noiseLine{head: "clarify", names: slices.Clone(cmd.Flows), flow: true})
		default:
			lines = append(lines, &noiseLine{head: string(cmd.Kind)})
		}
	}
	// The kinds these lines allow, and one or two of them.
	var can []string
	for _, k := range NoiseKinds {
		if k == "one_line" && len(lines) > 1 || slices.ContainsFunc(lines, func(l *noiseLine) bool { return allows(k, l, prog) }) {
			can = append(can, k)
		}
	}
	var kinds []string
	for n := 1 + rng.IntN(2); n > 0 && len(can) > 0; n-- {
		i := rng.IntN(len(can))
		kinds = append(kinds, can[i])
		can = slices.Delete(can, i, i+1)
	}
	slices.SortFunc(kinds, func(a, b string) int { return slices.Index(NoiseKinds, a) - slices.Index(NoiseKinds, b) })
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	// The lines each kind fits, before any changes them.
	fits := map[string][]*noiseLine{}
	for _, k := range kinds {
		for _, l := range lines {
			if allows(k, l, prog) {
				fits[k] = append(fits[k], l)
			}
		}
	}
	for _, k := range kinds {
		// A kind changes one line that allows it, the others stay clean
		// (punctuation goes on every line, as models do).
		fit := fits[k]
		l := fit[rng.IntN(len(fit))]
		switch k {
		case "punctuation":
			p := pick(".", ";")
			for _, l := range lines {
				l.end = p
			}
		case "name_case":
			i := rng.IntN(len(l.names))
			if l.flow && len(l.names) > 1 {
				i = slices.IndexFunc(l.names, func(n string) bool { return strings.ToUpper(n) != n || titleWords(n, "_") != n })
			}
			if rng.IntN(2) == 0 {
				l.names[i] = strings.ToUpper(l.names[i])
			} else {
				l.names[i] = titleWords(l.names[i], "_")
			}
		case "name_spaces":
			i := slices.IndexFunc(l.names, func(n string) bool { return strings.Contains(n, "_") })
			if rng.IntN(2) == 0 {
				l.names[i] = titleWords(l.names[i], " ")
			} else {
				l.names[i] = strings.ReplaceAll(l.names[i], "_", " ")
			}
		case "quotes":
			l.value = fmt.Sprintf(pick("“%s”", "‘%s’", "`%s`"), l.value)
			l.quote = false
		case "unit":
			n := l.value
			l.value = pick(n+" euros", "$"+n, "€"+n, n+" EUR", n+" dollars", "USD "+n)
			if w := nameWordsOf(l.def.Name); len(w) > 0 && strings.HasSuffix(w[len(w)-1], "s") {
				// A count: its unit is what the slot counts.
				l.value = n + " " + w[len(w)-1]
			}
			l.quote = false
		case "date_words":
			d, _ := time.Parse("2006-01-02", l.value)
			l.value = d.Format(pick("January 2, 2006", "2 January 2006", "Monday, January 2, 2006", "Jan 2, 2006"))
			l.quote = false
		case "remark":
			l.tail = pick(" (from the user's message)", " (as the user said)", " - the user asked for this", " — based on the message")
		case "slot_to":
			l.to = true
		case "slot_close":
			if n := closeName(prog, l.in, l.slot, rng); n != "" {
				l.names[0] = n
			}
		}
	}
	var out []string
	for _, l := range lines {
		out = append(out, l.String())
	}
	if slices.Contains(kinds, "one_line") {
		sep := pick("; ", ", ")
		for i := range out {
			out[i] = strings.TrimRight(out[i], ".;")
		}
		out = []string{strings.Join(out, sep)}
	}
	for _, k := range kinds {
		switch k {
		case "bullets":
			bullet := pick("- ", "* ", "1. ")
			for i := range out {
				if bullet == "1. " {
					out[i] = fmt.Sprintf("%d. %s", i+1, out[i])
				} else {
					out[i] = bullet + out[i]
				}
			}
		case "label":
			lab := pick("Commands:", "Answer:", "Output:")
			if rng.IntN(2) == 0 {
				out = append([]string{lab}, out...)
			} else {
				out[0] = lab + " " + out[0]
			}
		case "fence":
			out = append(append([]string{pick("```", "```text", "```plaintext")}, out...), "```")
		case "prose":
			if rng.IntN(2) == 0 {
				out = append([]string{pick("Sure! Here are the commands for this message:", "Based on the conversation, the user wants the following.", "The user's message maps to these commands:")}, out...)
			} else {
				out = append(out, pick("These commands capture what the user asked for.", "I hope this helps!", "Note: no other slots were mentioned in the message."))
			}
		}
	}
	return strings.Join(out, "\n"), kinds
}

// valueLine is a set or correct line of slot, a slot of flow in.
func valueLine(head string, prog *ir.Program, in, slot string, value any) *noiseLine {
	l := &noiseLine{head: head, names: []string{slot}, slot: slot, def: prog.ResolveSlot(in, slot), in: in}
	switch x := value.(type) {
	case string:
		l.value = strings.Join(strings.Fields(x), " ")
	case nil:
	case bool, float64, float32, int, int64, json.Number:
		l.value = fmt.Sprint(x)
	default:
		b, _ := json.Marshal(x)
		l.value = string(b)
	}
	_, isString := value.(string)
	l.quote = isString && (l.value == "" || strings.ContainsAny(l.value, " '`") || strings.HasSuffix(l.value, "."))
	return l
}

// String writes the line.
func (l *noiseLine) String() string {
	s := l.head
	for _, n := range l.names {
		s += " " + n
	}
	if l.head == "set slot" || l.head == "correct slot" {
		v := l.value
		if l.quote {
			if strings.Contains(v, `"`) {
				v = "'" + v + "'"
			} else {
				v = `"` + v + `"`
			}
		}
		if l.to {
			s += " to"
		}
		s += " " + v
	}
	return s + l.tail + l.end
}

// allows reports whether a kind of noise fits a line.
func allows(kind string, l *noiseLine, prog *ir.Program) bool {
	isValue := l.head == "set slot" || l.head == "correct slot"
	switch kind {
	case "name_case":
		return slices.ContainsFunc(l.names, func(n string) bool { return strings.ToUpper(n) != n || titleWords(n, "_") != n })
	case "name_spaces":
		return slices.ContainsFunc(l.names, func(n string) bool { return strings.Contains(n, "_") })
	case "quotes":
		return isValue && l.def != nil && (l.def.Type == ir.TypeText || l.def.Type == ir.TypeCategorical || l.def.Type == ir.TypeAny) && l.value != ""
	case "unit":
		return isValue && l.def != nil && (l.def.Type == ir.TypeNumber || l.def.Type == ir.TypeInteger) && l.value != ""
	case "date_words":
		_, err := time.Parse("2006-01-02", l.value)
		return isValue && l.def != nil && l.def.Type == ir.TypeDate && err == nil
	case "slot_to":
		return isValue
	case "one_line":
		return true // when the answer has several lines (NoisyAnswer)
	case "slot_close":
		return isValue && l.in != "" && closeName(prog, l.in, l.slot, nil) != ""
	}
	return true
}

// closeName is a slot name a model might write for slot, close to it and
// to no other slot of flow in (its words run inside the name's), and no
// slot of the project: one of the flow's name words before it, or a
// word after it. With a nil rng it is the first such name, or "".
func closeName(prog *ir.Program, in, slot string, rng *rand.Rand) string {
	f := prog.Flow(in)
	if f == nil || prog.ResolveSlot(in, slot) == nil {
		return ""
	}
	var cands []string
	for _, w := range nameWordsOf(f.Name) {
		cands = append(cands, w+"_"+slot)
	}
	cands = append(cands, slot+"_value", "user_"+slot, slot+"_name")
	var good []string
	for _, c := range cands {
		if prog.Slot(c) != nil || f.Slot(c) != nil {
			continue
		}
		n := 0
		for _, s := range flowSlotNames(prog, f) {
			if wordsWithin(nameWordsOf(s), nameWordsOf(c)) {
				n++
			}
		}
		if n == 1 {
			good = append(good, c)
		}
	}
	if len(good) == 0 {
		return ""
	}
	if rng == nil {
		return good[0]
	}
	return good[rng.IntN(len(good))]
}

// flowSlotNames lists the slots a flow declares or collects.
func flowSlotNames(prog *ir.Program, f *ir.Flow) []string {
	var out []string
	for _, s := range f.Slots {
		out = append(out, s.Name)
	}
	for _, n := range f.Nodes {
		if n.Kind == ir.KindCollect && !slices.Contains(out, n.Slot) {
			out = append(out, n.Slot)
		}
	}
	for _, s := range prog.Slots {
		if !slices.Contains(out, s.Name) {
			out = append(out, s.Name)
		}
	}
	return out
}

func nameWordsOf(name string) []string {
	return strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '_' || r == '-' || r == ' ' })
}

func wordsWithin(part, whole []string) bool {
	for i := 0; i+len(part) <= len(whole); i++ {
		if slices.Equal(whole[i:i+len(part)], part) {
			return true
		}
	}
	return false
}

// titleWords writes a name's words capitalised, joined by sep.
func titleWords(name, sep string) string {
	words := nameWordsOf(name)
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, sep)
}
