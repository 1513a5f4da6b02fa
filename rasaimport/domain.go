package rasaimport

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/payload"
	"github.com/soni-dev/soni/syntax"
)

// soniSlotTypes maps Rasa's slot types to soni's.
var soniSlotTypes = map[string]string{
	"text": "text", "bool": "boolean", "float": "number", "categorical": "categorical", "any": "any", "list": "list",
}

// slotDef writes the definition of a slot (without its name).
func (im *importer) slotDef(si *slotInfo, out string) *syntax.Slot {
	m := &syntax.Slot{Name: syntax.S(si.name)}
	typ, ok := soniSlotTypes[si.typ]
	if !ok {
		typ = "text"
		im.rep.add(si.at, "slot", StatusManual, out, "pick one of text, bool, float, categorical, any, list",
			"slot %q has the type %q, which the importer does not know: soni reads it as text", si.name, si.typ)
	}
	if si.typ == "list" {
		im.rep.add(si.at, "slot", StatusApproximated, out, "nothing, unless an action sets items that are maps or lists: then make the slot type any",
			"slot %q is a list: soni holds it as a list slot, whose items are texts (an action's numbers are stored as text)", si.name)
	}
	n := si.n
	// A text slot filled from an entity whose values the NLU examples
	// annotate takes those values, so that soni's rules find them in a
	// message as Rasa's entity extractor would.
	var entity string
	var entityVals []string
	// A list slot filled from such an entity takes every value of it
	// that a message names, as Rasa's list slots take every entity found.
	if (typ == "text" || typ == "list") && !namesSomething(si) {
		for _, mp := range n.get("mappings").list() {
			if mp.get("type").str() == "from_entity" && !mp.has("role") && !mp.has("group") {
				if vals := im.p.entityValues[mp.get("entity").str()]; len(vals) >= 2 {
					entity, entityVals = mp.get("entity").str(), vals
					if typ == "text" {
						typ = "categorical"
					}
					break
				}
			}
		}
	}
	m.Type = syntax.S(typ)
	if si.description != "" {
		m.Description = syntax.S(si.description)
	}
	if entityVals != nil {
		for _, v := range entityVals {
			m.Values = append(m.Values, ir.Value{Value: v})
		}
		m.ValuesSet = true
		im.rep.add(si.at, "slot", StatusApproximated, out, "add the values the slot may take, or make it "+si.typ+" again without values and use the LLM understanding",
			"slot %q is filled from the entity %q: soni gives it the %d values the NLU examples annotate (%s); other answers are refused",
			si.name, entity, len(entityVals), strings.Join(entityVals, ", "))
	}
	if typ == "categorical" && entityVals == nil {
		var vals []ir.Value
		for _, v := range n.get("values").list() {
			if s := v.str(); s != "" && s != "__other__" {
				vals = append(vals, ir.Value{Value: s})
			}
		}
		if len(vals) == 0 {
			m.Type = syntax.S("text")
			im.rep.add(si.at, "slot", StatusManual, out, "list the slot's values",
				"categorical slot %q lists no values: soni reads it as text", si.name)
		} else {
			m.Values, m.ValuesSet = vals, true
		}
	}
	if typ == "number" {
		if v := n.get("min_value"); v != nil && v.kind == kScalar {
			m.Min = bound(v.v)
		}
		if v := n.get("max_value"); v != nil && v.kind == kScalar {
			m.Max = bound(v.v)
		}
	}
	if v := n.get("initial_value"); v != nil && v.kind != kNull && si.flow == "" && !(typ == "list" && len(v.list()) == 0) {
		// A list's initial [] is Rasa's empty list: soni's list slot
		// starts unset instead, which the imported conditions read as
		// an empty list (slots.x ?? []).
		m.Initial, m.HasInitial = v.value(), true
	}
	for _, mp := range n.get("mappings").list() {
		kind := mp.get("type").str()
		switch kind {
		case "from_llm", "controlled", "":
			if c := mp.get("conditions"); c != nil && len(c.list()) > 0 {
				im.rep.add(c.at, "slot", StatusApproximated, out, "nothing, unless the slot must be filled only there: then fill it at a collect of that flow",
					"slot %q is filled %s only under conditions (an active flow or form); soni's understanding fills it wherever the slot is in scope", si.name, cmp.Or(kind, "from_llm"))
			}
		case "from_text":
			if len(si.collectedIn) > 0 {
				im.rep.add(mp.at, "slot", StatusApproximated, out, "nothing, if the slot's collect is where the text is given",
					"slot %q is filled from_text: in soni a collect of it stores the answer's text; other messages do not fill it", si.name)
			} else {
				im.rep.add(mp.at, "slot", StatusManual, out, "collect the slot in a flow, or set it in an action",
					"slot %q is filled from_text outside any collect: soni has no such mapping", si.name)
			}
		case "from_entity":
			if entityVals != nil && mp.get("entity").str() == entity {
				continue
			}
			im.rep.add(mp.at, "slot", StatusManual, out, "give the slot values (categorical) or a pattern (text) so that soni's rules find it in a message, or use the LLM understanding",
				"slot %q is filled from the entity %q: soni has no entity extraction", si.name, mp.get("entity").str())
		case "from_intent", "from_trigger_intent":
			im.rep.add(mp.at, "slot", StatusManual, out, "set the slot with a set step in the flow the intent starts, or a button payload /SetSlots(...)",
				"slot %q is set to %q when the intent %q is predicted: soni has no intents", si.name, scalarString(mp.get("value").value()), mp.get("intent").str())
		case "custom":
			if a := mp.get("action").str(); a != "" {
				if _, used := im.actionsUsed[a]; !used {
					im.rep.add(mp.at, "slot", StatusManual, out, "call the action in a flow, or set the slot there",
						"slot %q is filled by the custom action %q, which no flow calls", si.name, a)
				}
			} else {
				im.rep.add(mp.at, "slot", StatusManual, out, "set the slot in the flows, or with an action's outputs",
					"slot %q has a custom mapping with no action", si.name)
			}
		default:
			im.rep.add(mp.at, "slot", StatusManual, out, "set the slot in the flows, or with an action's outputs",
				"slot %q has the mapping %q, which soni has no equivalent for", si.name, kind)
		}
	}
	if v := n.get("validation"); v != nil {
		im.slotRejections(si, v, m, out)
	}
	for i, k := range n.keys {
		switch k {
		case "type", "values", "min_value", "max_value", "initial_value", "mappings", "influence_conversation", "validation":
		default:
			im.rep.add(n.vals[i].at, "slot", StatusIgnored, out, "nothing in soni corresponds to it",
				"slot %q: the key %q is not translated", si.name, k)
		}
	}
	return m
}

// slotRejections translates a slot's own validation (Rasa's domain
// `validation: {rejections: [{if, utter}]}`) into the slot's validation
// expression and invalid message: a value is stored when no rejection's
// condition holds, wherever it comes from.
func (im *importer) slotRejections(si *slotInfo, v *node, m *syntax.Slot, out string) {
	var conds []string
	var msg string
	for i, r := range v.get("rejections").list() {
		w := &condWriter{slotType: im.slotType, value: si.name}
		expr, err := translateCond(r.get("if").str(), w)
		if err != nil {
			im.rep.add(r.at, "slot", StatusCommented, out, "write the check as the slot's validation expression over value",
				"slot %q: the rejection %q cannot be translated (%v)", si.name, r.get("if").str(), err)
			continue
		}
		conds = append(conds, "not "+wrap(expr))
		if i == 0 {
			msg = r.get("utter").str()
		} else if u := r.get("utter").str(); u != msg {
			im.rep.add(r.at, "slot", StatusApproximated, out, "word one message for all the checks",
				"slot %q has several rejections with their own messages; soni says the first one's (%q) for every rejection", si.name, msg)
		}
	}
	for i, k := range v.keys {
		if k != "rejections" {
			im.rep.add(v.vals[i].at, "slot", StatusIgnored, out, "nothing in soni corresponds to it",
				"slot %q: the validation key %q is not translated", si.name, k)
		}
	}
	if len(conds) == 0 {
		return
	}
	m.Validation = syntax.S(strings.Join(conds, " and "))
	switch {
	case msg == "":
	case im.responses[msg] == nil:
		im.rep.add(v.at, "slot", StatusManual, out, "add the response, or write the message",
			"slot %q rejects with the response %q, which the domain does not define", si.name, msg)
	case im.f.responses:
		m.InvalidResp = syntax.S(msg)
	default:
		m.Invalid = syntax.S(im.inlineText(msg, "", out, v.at))
	}
	ask := ""
	if r := "utter_ask_" + si.name; im.responses[r] != nil {
		ask = fmt.Sprintf(" (%q)", r)
	}
	im.rep.add(v.at, "slot", StatusApproximated, out, "nothing, unless a flow relied on seeing the rejected value or on the order of the questions",
		"slot %q: Rasa stores a rejected value and then resets it, and asks for the slot%s right after the rejection, even when the user gave it before its question; soni never stores it, and asks the flow's questions in their order", si.name, ask)
}

// namesSomething reports whether a slot holds a name (restaurant_name,
// "the name of the hotel"): names are an open set, which the values of
// the NLU examples cannot list.
// bound is a Rasa slot bound as the model's number, or nil when it is
// not a number.
func bound(v any) *float64 {
	switch x := v.(type) {
	case int64:
		f := float64(x)
		return &f
	case float64:
		return &x
	}
	return nil
}

func namesSomething(si *slotInfo) bool {
	words := strings.FieldsFunc(strings.ToLower(si.name+" "+si.description), func(r rune) bool {
		return !(r >= 'a' && r <= 'z')
	})
	return slices.Contains(words, "name") || slices.Contains(words, "names")
}

// domainFile writes domain.yaml: settings, conversation slots, responses
// and actions.
func (im *importer) domainFile() *syntax.File {
	const out = "domain.yaml"
	doc := &syntax.File{Version: syntax.S("1.0")}
	setting := func(key string, v any) {
		doc.Settings = append(doc.Settings, &syntax.Setting{Key: syntax.S(key), Value: v})
	}
	if sc := im.p.sessionConfig; sc != nil {
		if v := sc.get("session_expiration_time"); v != nil {
			if f, ok := v.v.(int64); ok && f > 0 {
				setting("session_expiration", f)
			} else if f, ok := v.v.(float64); ok && f > 0 {
				setting("session_expiration", f)
			}
		}
		if v, ok := sc.get("carry_over_slots_to_new_session").boolean(); ok {
			setting("carry_over_slots", v)
		}
	}
	if u := im.understanding(out); u != nil {
		setting("understanding", u)
	}
	if l := im.p.language; l != "" && l != "en" && l != "es" {
		im.rep.addAbout(aboutUnderstanding, loc{File: "config.yml"}, "config", StatusApproximated, out, "write the flows' trigger phrases in the language, or use the LLM understanding",
			"the assistant's language is %q; soni's rules understand English and Spanish", l)
	}

	for _, name := range im.slotOrder {
		si := im.slots[name]
		if routerSlots[name] && len(si.refs) == 0 {
			im.rep.add(si.at, "slot", StatusIgnored, out, "nothing: soni runs flows only",
				"slot %q is set by Rasa's coexistence router, which soni does not have: it is not imported", name)
			im.sum.Slots.add(false)
			continue
		}
		ok := im.slotClean(si, out, func() {
			if si.flow == "" {
				doc.Slots = append(doc.Slots, im.slotDef(si, out))
			}
		})
		im.sum.Slots.add(ok)
	}

	if !im.f.responses {
		for _, r := range im.p.responses {
			vs := r.n.list()
			ok := len(vs) == 1 && len(vs[0].keys) == 1 && vs[0].has("text") && !strings.Contains(vs[0].get("text").str(), "{{")
			im.sum.Responses.add(ok)
		}
	}
	if im.f.responses {
		for _, r := range im.p.responses {
			before := len(im.rep.items)
			doc.Responses = append(doc.Responses, im.responseDef(r, out))
			im.sum.Responses.add(len(im.rep.items) == before)
		}
	}

	url := im.p.actionURL
	if url == "" {
		url = "http://localhost:5055/webhook"
	}
	switch {
	case im.p.actionURL == "" && im.p.actionsModule != "" && len(im.actionOrder) > 0:
		// Rasa 3.10 and later can run the Python actions in its own
		// process; soni cannot, so they run in Rasa's action server.
		mod := im.p.actionsModule
		im.rep.addAbout(aboutActions, im.p.actionAt, "action", StatusApproximated, out,
			fmt.Sprintf("run the actions beside soni with `rasa run actions --actions %s` (Rasa Pro) or `python -m rasa_sdk --actions %s` (rasa-sdk), from the Rasa project's directory; they listen on %s (RASA_ACTION_ENDPOINT points elsewhere)", mod, mod, url),
			"endpoints.yml runs the custom actions inside Rasa's process (actions_module: %q), which soni cannot: the imported actions call Rasa's action server at %s", mod, url)
	case im.p.actionURL == "" && len(im.actionOrder) > 0:
		im.rep.addAbout(aboutActions, loc{File: "endpoints.yml"}, "action", StatusManual, out, "set the URL of the action server in RASA_ACTION_ENDPOINT, or edit the run blocks",
			"endpoints.yml has no action_endpoint: the actions call %s", url)
	}
	for _, name := range im.actionOrder {
		a := im.actionsUsed[name]
		before := len(im.rep.items)
		d := &syntax.Action{Name: syntax.S(name)}
		py := im.p.py[name]
		switch {
		case py == nil:
			im.rep.add(a.at, "action", StatusManual, out, "list the slots the action sets under its outputs, and map them in the flows",
				"no Python class of the action server defines the action %q: its outputs come only from the tests' stubs and the slot mappings", name)
		default:
			if py.dynamicSet {
				im.rep.add(py.at, "action", StatusApproximated, out, "list the slots it may set under the action's outputs, and map them in the flows",
					"action %q sets slots whose names are computed: the import only maps the slots it names", name)
			}
			if py.messages && !im.f.responses {
				im.rep.add(py.at, "action", StatusApproximated, out, "say the message with a say step after the action, or wait for soni to show action messages",
					"action %q sends messages (dispatcher.utter_message), which soni does not show yet", name)
			}
		}
		for _, o := range im.actionSlots(name) {
			d.Outputs = append(d.Outputs, syntax.S(o))
		}
		d.Run = &ir.Run{Rasa: &ir.HTTP{URL: "${RASA_ACTION_ENDPOINT:-" + url + "}"}}
		doc.Actions = append(doc.Actions, d)
		im.sum.Actions.add(len(im.rep.items) == before)
	}
	doc.Actions = im.agentActions(doc.Actions)
	return doc
}

// slotClean runs write and reports whether it added no report item.
func (im *importer) slotClean(si *slotInfo, out string, write func()) bool {
	before := len(im.rep.items)
	write()
	return len(im.rep.items) == before
}

// responseDef writes a response's variations.
// rephraserPlaceholder is the text Rasa's projects give a response that
// only the contextual rephraser fills.
const rephraserPlaceholder = "placeholder_this_utterance_needs_the_rephraser"

func (im *importer) responseDef(r *named, out string) *syntax.Response {
	vs := &syntax.Response{Name: syntax.S(r.name)}
	for _, v := range r.n.list() {
		if v.kind != kMap {
			im.rep.add(v.at, "response", StatusCommented, out, "write the variation as a mapping with text:",
				"a variation of response %q is not a mapping", r.name)
			continue
		}
		m := &syntax.Variation{}
		var comments []string
		for i, k := range v.keys {
			val := v.vals[i]
			switch k {
			case "text":
				if strings.Contains(val.str(), rephraserPlaceholder) {
					im.rep.add(val.at, "response", StatusManual, out, "write the text the bot should say for "+r.name+": soni has no rephraser, so it says the placeholder as it is",
						"response %q is only a placeholder that Rasa's contextual rephraser (an LLM) replaces with a generated text: %q", r.name, val.str())
				}
				m.Text = syntax.S(im.template(val.str(), "", r.name, val.at, out))
			case "condition":
				if c := im.responseCondition(r.name, val, out); c != nil {
					m.Condition = c
				} else {
					comments = append(comments, commentLines(k, val)...)
				}
			case "buttons":
				bs, tail := im.buttons(r.name, val, out)
				switch {
				case len(bs) == 0:
					comments = append(comments, tail...)
				case len(tail) > 0:
					m.Buttons = bs
					if m.Comments == nil {
						m.Comments = syntax.Comments{}
					}
					m.Comments["buttons"] = &syntax.Comment{Foot: tail}
				default:
					m.Buttons = bs
				}
			case "image":
				m.Image = syntax.S(val.str())
			case "channel":
				m.Channel = syntax.S(val.str())
			case "custom":
				m.Custom = val.value()
			case "button_type":
				m.Extra = append(m.Extra, syntax.Field{Key: syntax.S(k), Value: val.value()})
			case "translation":
				for j, lang := range val.keys {
					t := val.vals[j]
					if t.kind == kMap {
						t = t.get("text")
					}
					m.Translation = append(m.Translation, &syntax.Translation{Lang: syntax.S(lang), Text: syntax.S(im.template(t.str(), "", r.name, t.at, out))})
				}
			case "id", "metadata":
				m.Extra = append(m.Extra, syntax.Field{Key: syntax.S(k), Value: val.value()})
			default:
				comments = append(comments, commentLines(k, val)...)
				im.rep.add(val.at, "response", StatusCommented, out, "use text, buttons, image or custom",
					"response %q: the key %q of a variation has no soni equivalent", r.name, k)
			}
		}
		if len(comments) > 0 {
			m.Comments.AddHead("", comments...)
		}
		vs.Variations = append(vs.Variations, m)
	}
	return vs
}

// buttonsY writes a response's buttons. Rasa formats a payload like a
// text, so a payload writes a brace twice ('/inform{{"city": "Oslo"}}'),
// which soni's payloads do not. A button whose payload sets a slot the
// domain does not have, or names an intent that is no flow, is kept as a
// comment: soni's payloads set slots and start flows.
func (im *importer) buttons(name string, n *node, out string) ([]*syntax.Button, []string) {
	var bs []*syntax.Button
	var tail []string
	for _, b := range n.list() {
		bt := &syntax.Button{}
		if t := b.get("title"); t != nil {
			bt.Title = syntax.S(t.str())
		}
		why := ""
		if b.kind != kMap {
			why = "it is not a mapping with a title and a payload"
		}
		for i, k := range b.keys {
			if k != "title" && k != "payload" {
				im.rep.add(b.vals[i].at, "response", StatusIgnored, out, "nothing in soni corresponds to it; a button has a title and a payload",
					"a button of response %q: the key %q is not translated", name, k)
			}
		}
		if pn := b.get("payload"); pn != nil {
			str := strings.NewReplacer("{{", "{", "}}", "}").Replace(pn.str())
			bt.Payload = syntax.S(str)
			p, err := payload.Parse(str)
			switch {
			case err != nil:
				why = err.Error()
			case p.Kind == payload.Intent && len(p.Slots) == 0 && im.flows[p.Name] == nil:
				why = fmt.Sprintf("the intent %q is no flow", p.Name)
			default:
				for _, sl := range p.Slots {
					if im.slots[sl.Name] == nil {
						why = fmt.Sprintf("it sets %q, which is no slot", sl.Name)
						break
					}
				}
			}
		}
		if why != "" {
			y := rasaTree(b)
			if m, ok := y.(*syntax.Map); ok {
				for i, e := range m.Entries {
					if str, ok := e.Value.(string); ok && e.Key == "payload" {
						m.Entries[i].Value = strings.NewReplacer("{{", "{", "}}", "}").Replace(str)
					}
				}
			}
			tail = append(tail, commentItem(y)...)
			im.rep.add(b.at, "response", StatusCommented, out, "make the payload /SetSlots(slot=value) of a slot, or start a flow",
				"a button of response %q cannot be translated: %s", name, why)
			continue
		}
		bs = append(bs, bt)
	}
	return bs, tail
}

// responseCondition translates a variation's condition: Rasa's list of
// {type: slot, name, value}, or a predicate as a string (slots.x is true,
// not slots.y, joined by and), which becomes that list. Anything else is
// reported, and nil returned.
func (im *importer) responseCondition(name string, n *node, out string) []*syntax.SlotCond {
	if n.kind == kSeq {
		var cs []*syntax.SlotCond
		for _, it := range n.items {
			for i, k := range it.keys {
				if k != "type" && k != "name" && k != "value" {
					im.rep.add(it.vals[i].at, "response", StatusIgnored, out, "nothing in soni corresponds to it; a condition has a type, a name and a value",
						"a condition of response %q: the key %q is not translated", name, k)
				}
			}
			c := &syntax.SlotCond{Name: syntax.S(it.get("name").str()), Value: it.get("value").value()}
			if t := it.get("type"); t != nil {
				c.Type = syntax.S(t.str())
			}
			cs = append(cs, c)
		}
		return cs
	}
	src := n.str()
	e, err := parseCond(src)
	var conds []cexpr
	var flat func(cexpr) bool
	flat = func(x cexpr) bool {
		if b, ok := x.(cbin); ok && b.op == "and" {
			return flat(b.l) && flat(b.r)
		}
		conds = append(conds, x)
		return true
	}
	if err == nil {
		flat(e)
	}
	var seq []*syntax.SlotCond
	for _, c := range conds {
		slot, value, ok := slotValue(c)
		if !ok {
			err = fmt.Errorf("only slots.NAME, not slots.NAME and slots.NAME is VALUE joined by and are read")
			break
		}
		seq = append(seq, &syntax.SlotCond{Type: syntax.S("slot"), Name: syntax.S(slot), Value: value})
	}
	if err != nil {
		im.rep.add(n.at, "response", StatusCommented, out, "write the condition as a list of {type: slot, name, value}",
			"response %q has the condition %q, which cannot be translated (%v): the variation has no condition", name, src, err)
		return nil
	}
	im.rep.add(n.at, "response", StatusApproximated, out, "nothing, unless the slot may hold another value that Rasa reads as true",
		"response %q: the condition %q is read as the slots holding exactly those values", name, src)
	return seq
}

// slotValue reads slots.x (true), not slots.x (false), slots.x is V and
// slots.x = V as a slot and its value.
func slotValue(c cexpr) (string, any, bool) {
	switch x := c.(type) {
	case cref:
		if s, ok := strings.CutPrefix(x.path, "slots."); ok {
			return s, true, true
		}
	case cnot:
		if r, ok := x.x.(cref); ok {
			if s, ok := strings.CutPrefix(r.path, "slots."); ok {
				return s, false, true
			}
		}
	case cbin:
		r, ok1 := x.l.(cref)
		l, ok2 := x.r.(clit)
		if x.op == "==" && ok1 && ok2 {
			if s, ok := strings.CutPrefix(r.path, "slots."); ok {
				return s, l.v, true
			}
		}
	}
	return "", nil, false
}

// commentLines writes key: value as comment text.
func commentLines(key string, v *node) []string {
	body := commentText(key, rasaTree(v))
	return []string{"Rasa (kept as a comment):\n" + body}
}

// commentItem writes a list item of the writer tree as comment text.
func commentItem(v any) []string {
	body := commentText("x", listOf(v))
	lines := strings.Split(body, "\n")[1:]
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "  ")
	}
	return []string{"Rasa (kept as a comment):\n" + strings.Join(lines, "\n")}
}

// template rewrites a Rasa response text as a soni template: a {name}
// that is no slot is escaped, since soni would read it as one, and a
// Jinja text is translated (see jinja). flow, when not "", is the flow the
// text is said in.
func (im *importer) template(t, flow, response string, at loc, out string) string {
	if strings.Contains(t, "{{") || strings.Contains(t, "{%") {
		return im.jinja(t, flow, response, at, out)
	}
	var b strings.Builder
	last := 0
	for _, m := range templateRef().FindAllStringSubmatchIndex(t, -1) {
		b.WriteString(t[last:m[0]])
		last = m[1]
		whole := t[m[0]:m[1]]
		if whole == "{{" || whole == "}}" {
			b.WriteString(whole)
			continue
		}
		name := strings.TrimSpace(t[m[2]:m[3]])
		if i := strings.IndexAny(name, ":!.["); i >= 0 {
			name = name[:i]
		}
		if validName(name) && im.slots[name] != nil && (flow == "" || im.visible(name, flow)) {
			b.WriteString(whole)
			continue
		}
		b.WriteString(escapeTemplate(whole))
		im.rep.add(at, "response", StatusApproximated, out, "make it a slot, or reword the message",
			"response %q uses %s, which is no slot soni can show there: the import writes it as text", response, whole)
	}
	b.WriteString(t[last:])
	return b.String()
}

// pickVariation returns the variation said when soni has no responses:
// the first with no condition and no channel, else the first.
func pickVariation(r *named) *node {
	vs := r.n.list()
	for _, v := range vs {
		if !v.has("condition") && !v.has("channel") && v.get("text").str() != "" {
			return v
		}
	}
	for _, v := range vs {
		if v.get("text").str() != "" {
			return v
		}
	}
	return nil
}

// inlineText is the text said for a response when soni has no responses.
func (im *importer) inlineText(name, flow, out string, at loc) string {
	r := im.responses[name]
	v := pickVariation(r)
	if v == nil {
		im.rep.add(r.at, "response", StatusManual, out, "write the message's text",
			"response %q has no text (only images, buttons or custom payloads), which soni cannot say", name)
		return name
	}
	if !im.inlined[name] {
		im.inlined[name] = true
		var lost []string
		vs := r.n.list()
		if len(vs) > 1 {
			lost = append(lost, fmt.Sprintf("%d other variations", len(vs)-1))
		}
		for _, k := range []string{"condition", "buttons", "image", "custom", "channel", "translation"} {
			if slices.ContainsFunc(vs, func(x *node) bool { return x.has(k) }) {
				lost = append(lost, k)
			}
		}
		if len(lost) > 0 {
			im.rep.add(r.at, "response", StatusApproximated, out, "nothing to do once soni has responses: re-run the import",
				"response %q is said as its text %q, without its %s", name, v.get("text").str(), strings.Join(lost, ", "))
		}
	}
	return im.template(v.get("text").str(), flow, name, v.get("text").at, out)
}

// sayFields adds the message of a say step that says a response.
func (im *importer) sayFields(m *syntax.Step, name, flow, out string, at loc) {
	if im.f.responses {
		m.Response = syntax.S(name)
		return
	}
	m.Message = syntax.S(im.inlineText(name, flow, out, at))
}

// sayDefault adds the message of a say step that says one of Rasa's
// default responses, which the project does not define.
func (im *importer) sayDefault(m *syntax.Step, name, out string, at loc) {
	if im.f.responses && im.f.defaultResponses && slices.Contains(ir.DefaultResponses, name) {
		m.Response = syntax.S(name)
		return
	}
	im.saidInline[name] = true
	if !im.inlined[name] {
		im.inlined[name] = true
		im.rep.add(at, "step", StatusApproximated, out, "write the message you want, or define the response in the domain",
			"%q is one of Rasa's default responses, which neither the project nor soni defines: the imported flow says %q", name, rasaResponses[name])
	}
	m.Message = syntax.S(rasaResponses[name])
}

// questionFields adds the question of a collect asked with a response.
func (im *importer) questionFields(m *syntax.Step, name, flow, out string, at loc) {
	if im.f.responses {
		m.Response = syntax.S(name)
		return
	}
	m.Message = syntax.S(im.inlineText(name, flow, out, at))
}

// errorMessage adds a collect's validation_error_message from a response.
func (im *importer) errorMessage(m *syntax.Step, name, flow, out string, at loc) {
	if im.responses[name] == nil {
		im.rep.add(at, "step", StatusManual, out, "add the response, or write the message",
			"flow %q rejects with the response %q, which the domain does not define", flow, name)
		return
	}
	if im.f.responses {
		m.Collect().ErrorResp = syntax.S(name)
		return
	}
	m.Collect().ErrorMessage = syntax.S(im.inlineText(name, flow, out, at))
}

// validName reports whether s is a soni slot or action name.
func validName(s string) bool {
	return nameRE().MatchString(s)
}

var nameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

// descriptionLead matches how descriptions often start before their
// verb ("the user needs to", "user asks for").
var descriptionLead = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:(?:the )?user (?:needs|wants|asks|is asked|would like) (?:to|for) |to )`)
})

// descriptionCut matches where a description's leading verb phrase ends.
var descriptionCut = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)[,;:(]| (?:to|for|with|from|by|in|on|at|about|of|and|or|which|that|if|including) `)
})

// verbPhrase returns the leading verb phrase of a flow description
// ("send money" of "send money to friends and family"), or "" when it is
// the whole description or shorter than two words.
func verbPhrase(d string) string {
	v := descriptionLead().ReplaceAllString(d, "")
	if loc := descriptionCut().FindStringIndex(v); loc != nil {
		v = v[:loc[0]]
	}
	v = strings.TrimSpace(v)
	if v == d || len(strings.Fields(v)) < 2 {
		return ""
	}
	return v
}

// phraseWords matches a word character: a trigger phrase needs one.
var phraseWords = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[\p{L}\p{N}]`) })

// aboutTheFlow is a flow's description without the sentences that are
// instructions to Rasa's language model ("Trigger this proactively
// if...", "This flow is called from any other flow..."): they say when a
// model should start the flow, not what a user would say, and give no
// phrases. A description that is only instructions gives none.
func aboutTheFlow(desc string) string {
	var kept []string
	for _, sentence := range sentenceEnd().Split(strings.TrimSpace(desc), -1) {
		sentence = strings.TrimSpace(sentence)
		if sentence == "" || modelInstruction().MatchString(strings.ToLower(sentence)) {
			continue
		}
		kept = append(kept, sentence)
	}
	return strings.Join(kept, ". ")
}

var (
	sentenceEnd      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[.!?]+(?:\s+|$)`) })
	modelInstruction = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:trigger this|this flow (?:is|should be) (?:called|triggered|used|started|invoked)|use this(?: flow)? (?:when|if|for|to)|call this|only (?:trigger|use|call|start)|(?:do not|don't|never|always) (?:trigger|use|call|start|respond|fill|ask)|should not (?:respond|trigger|be)|conversation repair flow)\b`)
	})
)

// triggers computes each flow's trigger phrases: its name, and the
// nlu.yml examples of its nlu_trigger intents. A phrase goes to the first
// flow that has it (soni's phrases belong to one flow).
func (im *importer) triggers() map[string][]string {
	out := map[string][]string{}
	owner := map[string]string{}
	for _, f := range im.p.flows {
		if isPattern(f.name) {
			continue
		}
		if g := f.n.get("if"); g != nil {
			if v, ok := g.boolean(); ok && !v {
				continue // startable only by a link or a call
			}
		}
		var phrases []string
		name := f.n.get("name").str()
		if name == "" {
			name = f.name
		}
		phrases = append(phrases, strings.NewReplacer("_", " ", "-", " ").Replace(name))
		// The description is what Rasa's language model starts the flow
		// from; soni's rules read it as one more phrase.
		if d := strings.TrimSpace(strings.TrimSuffix(aboutTheFlow(f.n.get("description").str()), ".")); d != "" && !strings.Contains(d, "\n") {
			phrases = append(phrases, d)
			if v := verbPhrase(d); v != "" {
				phrases = append(phrases, v)
			}
		}
		for _, t := range f.n.get("nlu_trigger").list() {
			intent := t.get("intent")
			iname := intent.str()
			if intent != nil && intent.kind == kMap {
				iname = intent.get("name").str()
			}
			ex, ok := im.p.intents[iname]
			if !ok {
				im.rep.add(t.at, "flow", StatusManual, "", "add examples of the intent to nlu.yml, or trigger phrases to the flow",
					"flow %q is triggered by the intent %q, which has no examples in nlu.yml", f.name, iname)
			}
			phrases = append(phrases, ex...)
		}
		for _, p := range phrases {
			p = strings.TrimSpace(p)
			key := strings.ToLower(strings.Join(strings.Fields(p), " "))
			if !phraseWords().MatchString(p) {
				continue
			}
			if o, taken := owner[key]; taken {
				if o != f.name {
					im.rep.add(f.at, "flow", StatusApproximated, "", "reword one of the phrases",
						"the trigger phrase %q of flow %q is also one of flow %q, which keeps it (a soni trigger phrase belongs to one flow)", p, f.name, o)
				}
				continue
			}
			owner[key] = f.name
			out[f.name] = append(out[f.name], p)
		}
	}
	return out
}
