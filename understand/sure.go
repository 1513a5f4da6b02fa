package understand

import (
	"strings"
	"time"

	"github.com/soni-dev/soni/ir"
	lexdata "github.com/soni-dev/soni/lexicon"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// exactTrigger reports whether a message is a trigger phrase: the same
// content words (stemmed), with nothing but stop words around them ("I'd
// like to check my balance please" for "check my balance").
func (r *Rules) exactTrigger(norm string) bool {
	var buf [32]string
	content, allStop := contentWords(norm, buf[:0])
	for _, fr := range r.flows {
		for _, t := range fr.triggers {
			if norm == t.norm {
				return true
			}
			if allStop || t.allStop || len(t.words) != len(content) {
				continue
			}
			if intersect(t.words, content) != len(content) {
				continue
			}
			// The other words only say it politely: "I'd like to check
			// my balance please", not "what can you help me with".
			phrase := map[string]bool{}
			for _, w := range strings.Fields(t.norm) {
				phrase[w] = true
			}
			polite := true
			for _, w := range strings.Fields(norm) {
				if !phrase[w] && !politeAround[w] && !phrase[stem(w)] {
					polite = false
					break
				}
			}
			if polite {
				return true
			}
		}
	}
	return false
}

// politeAround are the words around a trigger phrase that keep it
// exact.
var politeAround = lexdata.Set("polite_around")

// answerReading says how sure an answer to the pending question is.
func (r *Rules) answerReading(p *vm.Pending, cmd vm.Command, head, norm string, v vm.View, why string) Reading {
	// "May 14th for 3 nights": other slots named with the answer
	// (several.go).
	if more := r.alsoNamed(p, cmd, head, v); len(more) > 0 {
		return Reading{Commands: append([]vm.Command{cmd}, more...), Reason: why + ", with a value of " + more[0].Slot}
	}
	switch {
	case p.Kind == vm.PendingConfirm && (cmd.Kind == vm.CmdAffirm || cmd.Kind == vm.CmdDeny) && exactYesNo(norm):
		return sure("a yes or no word at a confirmation", cmd)
	case p.Kind == vm.PendingCollect && cmd.Kind == vm.CmdSetSlot && cmd.Slot == p.Slot && r.sureAnswerText(p, head, norm, v) && r.nothingElse(p, head, norm):
		return sure("the message is exactly an answer to the pending question", cmd)
	case p.Kind == vm.PendingConfirm && (cmd.Kind == vm.CmdAffirm || cmd.Kind == vm.CmdDeny) && fieldsUnder(norm, 5) && !strings.Contains(why, "trigger"):
		// A short yes or no in other words at a confirmation ("sounds
		// good", "go for it", "no don't"), about no flow.
		return sure("a short yes or no at a confirmation", cmd)
	case p.Kind == vm.PendingCollect && cmd.Kind == vm.CmdSetSlot && cmd.Slot == p.Slot && (typed(r.slotDef(p.Flow, p.Slot)) || r.readsAs(p.Flow, p.Slot)) &&
		!r.asks(head, norm) && !r.figuresInText(p, norm):
		// A value of the slot's type read out of the answer ("50 euros
		// please", "next friday"): the type checked it. Not out of a
		// question ("where is my other ticket?" names no category).
		return sure("a value of the pending slot's type in the answer", cmd)
	}
	return unsure(why, cmd)
}

// asks reports whether a message is a question, after any correction
// word before it ("actually, where is my other ticket?").
func (r *Rules) asks(head, norm string) bool {
	if isQuestion(head, norm) {
		return true
	}
	rest, _, ok := r.correction(head)
	return ok && rest != "" && isQuestion(rest, values.Normalize(rest))
}

// figuresInText reports whether an answer for a text slot the rules
// read as a date writes the date in figures ("03/14/1988"): the text
// already holds the date as the user wrote it, and the rules' ISO form
// is a guess at the form the project stores, so the answer is not sure.
func (r *Rules) figuresInText(p *vm.Pending, norm string) bool {
	if p == nil || !r.readsAs(p.Flow, p.Slot) {
		return false
	}
	def := r.slotDef(p.Flow, p.Slot)
	if def == nil || def.Type != ir.TypeDate {
		return false
	}
	digits := false
	for _, w := range strings.Fields(norm) {
		for _, ch := range w {
			if ch < '0' || ch > '9' {
				return false
			}
		}
		digits = true
	}
	return digits
}

// politeWords may come around an answer without making it say more.
var politeWords = lexdata.Set("polite_words")

// bare drops polite words and fillers from both ends of a normalized
// message.
func bare(norm string) []string {
	words := strings.Fields(norm)
	for len(words) > 1 && politeWords[words[0]] {
		words = words[1:]
	}
	for len(words) > 1 && politeWords[words[len(words)-1]] {
		words = words[:len(words)-1]
	}
	return words
}

// exactYesNo reports whether a message is only a yes or a no word or
// phrase, with polite words around it ("yes please", "no thanks").
func exactYesNo(norm string) bool {
	_, ok := values.YesNoExact(strings.Join(bare(norm), " "))
	return ok
}

// nonAnswers are words that make a short message no sure free-text
// answer: "not sure", "idk", "whatever", "someone".
var nonAnswers = lexdata.Set("non_answers")

// currencyWords may stand next to an amount.
var currencyWords = lexdata.Set("currency_words")

// dateVocabulary are the words a date said in words is made of.
var dateVocabulary = lexdata.Set("date_vocabulary")

// sureAnswerText reports whether a message is exactly an answer to the
// pending collect: a categorical value or synonym, a yes or no word for a
// boolean, a number or a date with nothing but its unit, currency or
// polite words around it, a code that matches the pattern, or a short
// free-text answer that mentions no flow, no carrier word and asks
// nothing.
func (r *Rules) sureAnswerText(p *vm.Pending, head, norm string, v vm.View) bool {
	m := r.sure
	if m != nil && m.set && m.p == p && m.head == head && m.norm == norm && m.now.Equal(v.Now) && m.order == v.DateOrder {
		return m.verdict
	}
	verdict := r.sureAnswerTextOf(p, head, norm, v)
	if m != nil {
		// Only the verdict's fields: the other memos stay.
		m.set, m.p, m.head, m.norm, m.now, m.order, m.verdict = true, p, head, norm, v.Now, v.DateOrder, verdict
	}
	return verdict
}

// sureMemo keeps sureAnswerText's last verdict while one message is read:
// the reading asks twice for most answers (is it a digression? is the
// answer sure?), and the verdict depends only on what it is given. It
// also keeps the reading's last conversion (see [Rules.convert]).
type sureMemo struct {
	set        bool
	p          *vm.Pending
	head, norm string
	now        time.Time
	order      values.DateOrder
	verdict    bool
	conv       convMemo
	talk       talkMemo
	corr       corrMemo
	concepts   conceptsMemo
	// text is the text reading of the message being read.
	text textReading
}

// talkMemo is the reading's last smallTalkOf: the reading asks whether
// the message is small talk, and so does sureAnswerText.
type talkMemo struct {
	set  bool
	norm string
	cmd  vm.Command
	ok   bool
}

// smallTalk is smallTalkOf(norm), from the memo when the reading asked
// last for the same text.
func (r *Rules) smallTalk(norm string) (vm.Command, bool) {
	if r.sure == nil {
		return smallTalkOf(norm)
	}
	if t := &r.sure.text; t.more != nil && norm == t.norm {
		return t.more.smallTalk(norm)
	}
	m := &r.sure.talk
	if !m.set || m.norm != norm {
		m.cmd, m.ok = smallTalkOf(norm)
		m.set, m.norm = true, norm
	}
	return m.cmd, m.ok
}

// corrMemo is the reading's last correction: an answer is read for a
// named slot, then for a correction, both starting with it.
type corrMemo struct {
	set         bool
	head, rest  string
	weak, found bool
}

// correction is correction(head), from the memo when the reading asked
// last for the same text.
func (r *Rules) correction(head string) (rest string, weak, ok bool) {
	if r.sure == nil {
		return correction(head)
	}
	if t := &r.sure.text; t.more != nil && head == t.head {
		return t.more.correction(head)
	}
	m := &r.sure.corr
	if !m.set || m.head != head {
		m.rest, m.weak, m.found = correction(head)
		m.set, m.head = true, head
	}
	return m.rest, m.weak, m.found
}

// convMemo is the last conversion of a raw value to a slot's type while
// one message is read: whether an answer is sure converts it, and so
// does the answer itself ("2027-03-05" for a date went through the date
// reader twice).
type convMemo struct {
	set   bool
	def   *ir.Slot
	raw   string
	order values.DateOrder
	x     any
	err   error
}

// convert is conv.Convert(def, raw), given again from the memo when the
// reading converted the same value for the same slot last. conv is the
// view's converter, the same for the whole reading.
func (r *Rules) convert(conv values.Converter, def *ir.Slot, raw string) (any, error) {
	if r.sure == nil {
		return conv.Convert(def, raw)
	}
	c := &r.sure.conv
	if c.set && c.def == def && c.raw == raw && c.order == conv.DateOrder {
		return c.x, c.err
	}
	x, err := conv.Convert(def, raw)
	*c = convMemo{set: true, def: def, raw: raw, order: conv.DateOrder, x: x, err: err}
	return x, err
}

// listJoiners are the words between the items of a list answer.
var listJoiners = lexdata.Set("list_joiners")

// sureListAnswer reports whether a list answer is only values of the
// slot (by value, label or synonym) and the words that join them
// ("salami, olives and extra cheese").
func sureListAnswer(def *ir.Slot, words []string) bool {
	known := map[string]bool{}
	for _, val := range def.Values {
		for _, ph := range append([]string{strings.ReplaceAll(val.Value, "_", " "), val.Label}, val.Synonyms...) {
			for _, w := range strings.Fields(values.Normalize(ph)) {
				known[w] = true
			}
		}
	}
	named := false
	for _, w := range words {
		switch {
		case known[w]:
			named = true
		case !listJoiners[w]:
			return false
		}
	}
	return named
}

// sureAnswerTextOf is sureAnswerText without the memo.
func (r *Rules) sureAnswerTextOf(p *vm.Pending, head, norm string, v vm.View) bool {
	def := r.slotDef(p.Flow, p.Slot)
	words := bare(norm)
	if def == nil || len(words) == 0 {
		return false
	}
	conv := v.Converter()
	switch def.Type {
	case ir.TypeCategorical:
		w := strings.Join(words, " ")
		for _, val := range def.Values {
			if w == values.Normalize(strings.ReplaceAll(val.Value, "_", " ")) {
				return true
			}
			for _, syn := range val.Synonyms {
				if w == values.Normalize(syn) {
					return true
				}
			}
		}
		return false
	case ir.TypeList:
		if len(def.Values) == 0 || !sureListAnswer(def, words) {
			return false
		}
		_, err := r.convert(conv, def, head)
		return err == nil
	case ir.TypeBoolean:
		return exactYesNo(norm)
	case ir.TypeInteger, ir.TypeNumber:
		if _, err := r.convert(conv, def, head); err != nil {
			return false
		}
		unit := unitOf(&slotRef{name: p.Slot, def: def})
		for _, w := range words {
			if !isNumberish(w) && !values.IsNumberWord(w) && !numberJoiners[w] && !currencyWords[w] && !unit[stem(w)] {
				return false
			}
		}
		return true
	case ir.TypeDate:
		if _, err := r.convert(conv, def, head); err != nil || r.figuresInText(p, norm) {
			return false
		}
		for _, w := range words {
			if !isNumberish(w) && !values.IsNumberWord(w) && !values.IsDateWord(w) && !dateVocabulary[w] {
				return false
			}
		}
		return true
	}
	if def.Pattern != "" {
		// The code as typed, in another case or with spaces or dashes
		// between its parts; not with a word before it or a prefix
		// added ("ticket 12345").
		x, err := r.convert(conv, def, head)
		if err != nil || len(words) > 2 {
			return false
		}
		squeeze := func(s string) string {
			return strings.ToUpper(strings.NewReplacer(" ", "", "-", "", ".", "", "_", "", "/", "").Replace(s))
		}
		code, _ := x.(string)
		return squeeze(strings.Join(words, " ")) == squeeze(values.Normalize(code))
	}
	if def.Type != ir.TypeText && def.Type != "" {
		return false
	}
	// Free text.
	if len(words) > 3 || isQuestion(head, norm) {
		return false
	}
	if _, ok := r.freeText(head, roleNone); ok {
		return false
	}
	content := 0
	for _, w := range words {
		if leadIns[w] && !possessives[w] || isNumberish(w) || nonAnswers[w] {
			return false
		}
		if !stopWords[w] {
			content++
		}
	}
	if content == 0 || nonAnswers[strings.Join(words, " ")] {
		return false
	}
	if _, ok := values.YesNo(norm); ok {
		return false
	}
	if _, ok := r.smallTalk(norm); ok {
		return false
	}
	if r.mean != nil {
		scores, _ := r.mean.score(r.conceptsOf(norm))
		if len(scores) > 0 {
			return false
		}
	}
	return true
}

// nothingElse reports whether an answer that reads as exactly the answer
// to the pending collect has nothing else in it, so that hybrid mode may
// trust it without asking the model (issue 18 §1: "a typed value that
// converts with nothing else in the message"). A yes or no with polite
// words around it ("yes please") still is one; any other answer with
// polite words or fillers around it ("seventy five please", "Bob
// please") is not. A free-text answer is not sure either when it asks
// ("Paris?"), when it holds a number or a date another question may be
// waiting for ("two", "tomorrow" at a question for a city), or when it is
// an interjection or names no one and nothing ("ugh", "my bad",
// "anywhere").
func (r *Rules) nothingElse(p *vm.Pending, head, norm string) bool {
	def := r.slotDef(p.Flow, p.Slot)
	if def == nil {
		return false
	}
	if def.Type == ir.TypeBoolean {
		return true
	}
	words := strings.Fields(norm)
	if len(bare(norm)) != len(words) {
		return false
	}
	if typed(def) || (def.Type != ir.TypeText && def.Type != ir.TypeAny && def.Type != "") {
		return true
	}
	if strings.ContainsAny(head, "?@/") {
		// A question, or an e-mail address or a link: another
		// question's answer, given early.
		return false
	}
	for _, w := range words {
		if values.IsNumberWord(w) || values.IsDateWord(w) || relativeDays[w] || notAName[w] {
			return false
		}
	}
	return true
}

// relativeDays are the words of a date said relative to today.
var relativeDays = lexdata.Set("relative_day_words")

// notAName are words that make a short free-text answer no sure value:
// interjections ("ugh", "my bad"), words that name no one and nothing
// ("anywhere", "doesn't matter", "you choose") and the speaker
// ("myself"), whose name the answer does not say.
var notAName = lexdata.Set("not_a_name")
