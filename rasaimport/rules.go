package rasaimport

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Rasa's NLU-based dialogue (rules and forms) runs beside its flows in a
// project that mixes both. A rule that answers one intent with actions is
// a flow: the intent's examples are its trigger phrases, and its actions
// its steps. A rule that opens a form asks for the form's required slots,
// then runs what the form's submit rule does. Other rules (conditions
// other than a form, several intents, slot checks) and stories stay in
// the report.

// rasaRule is a rule of a data file.
type rasaRule struct {
	file string
	n    *node
}

// formKey marks a collect step made from a form's required slot with the
// form's name (a key no Rasa step has).
const formKey = "\x00form"

// routingActions are the actions of Rasa's coexistence router and loop
// bookkeeping, which a soni flow needs no step for.
var routingActions = map[string]bool{
	"action_reset_routing": true, "action_listen": true, "action_deactivate_loop": true,
}

// ruleFlows turns the translatable rules into flows, appended to p.flows,
// and reports the others.
func (p *rasaProject) ruleFlows() {
	if len(p.rules) == 0 {
		return
	}
	forms := map[string]*named{}
	for _, f := range p.forms {
		forms[f.name] = f
	}
	// What a form's submit rule runs once its slots are filled.
	submits := map[string][]string{}
	for _, r := range p.rules {
		if form, actions, ok := submitRule(r.n, forms); ok {
			submits[form] = append(submits[form], actions...)
		}
	}
	taken := map[string]bool{}
	triggered := map[string]bool{}
	for _, f := range p.flows {
		taken[f.name] = true
		for _, t := range f.n.get("nlu_trigger").list() {
			intent := t.get("intent")
			if intent != nil && intent.kind == kMap {
				intent = intent.get("name")
			}
			triggered[intent.str()] = true
		}
	}
	for _, r := range p.rules {
		name := r.n.get("rule").str()
		if _, _, ok := submitRule(r.n, forms); ok {
			continue
		}
		intent, actions, why := answerRule(r.n, forms)
		switch {
		case why != "":
			p.ignored = append(p.ignored, ignoredPart{at: r.n.at, what: fmt.Sprintf("the rule %q is not translated: %s", name, why),
				fix: "write it as a soni flow with a trigger, or keep it in Rasa"})
			continue
		case triggered[intent]:
			p.ignored = append(p.ignored, ignoredPart{at: r.n.at, what: fmt.Sprintf("the rule %q is not translated: a flow's nlu_trigger already starts on the intent %q", name, intent),
				fix: "nothing, unless the rule should win"})
			continue
		}
		id := intent
		for taken[id] || !validName(id) {
			id = "rule_" + strings.Map(func(r rune) rune {
				if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
					return r
				}
				return '_'
			}, id)
		}
		taken[id], triggered[intent] = true, true
		steps := &node{kind: kSeq, at: r.n.at}
		var formsOpened []string
		for _, a := range actions {
			if f := forms[a]; f != nil {
				formsOpened = append(formsOpened, a)
				for _, slot := range formSlots(f.n) {
					st := mapNode(r.n.at, "collect", slot, formKey, a)
					if p.hasResponse("utter_ask_" + a + "_" + slot) {
						st.keys = append(st.keys, "utter")
						st.vals = append(st.vals, scalarNode(r.n.at, "utter_ask_"+a+"_"+slot))
					}
					steps.items = append(steps.items, st)
				}
				for _, s := range submits[a] {
					if !routingActions[s] {
						steps.items = append(steps.items, mapNode(r.n.at, "action", s))
					}
				}
				continue
			}
			if !routingActions[a] {
				steps.items = append(steps.items, mapNode(r.n.at, "action", a))
			}
		}
		if len(steps.items) == 0 {
			p.ignored = append(p.ignored, ignoredPart{at: r.n.at, what: fmt.Sprintf("the rule %q is not translated: it runs no action soni needs", name),
				fix: "nothing"})
			continue
		}
		trig := &node{kind: kSeq, at: r.n.at, items: []*node{mapNode(r.n.at, "intent", intent)}}
		fl := &node{kind: kMap, at: r.n.at,
			keys: []string{"description", "nlu_trigger", "steps"},
			vals: []*node{scalarNode(r.n.at, name), trig, steps}}
		p.flows = append(p.flows, &rflow{name: id, file: r.file, at: r.n.at, n: fl, rule: name, forms: formsOpened})
	}
}

// answerRule reads a rule that answers one intent with actions (opening
// at most forms). why says what else it does.
func answerRule(r *node, forms map[string]*named) (intent string, actions []string, why string) {
	if r.has("condition") {
		return "", nil, "it has a condition"
	}
	steps := r.get("steps").list()
	if len(steps) < 2 || !steps[0].has("intent") {
		return "", nil, "it does not start with one intent"
	}
	in := steps[0].get("intent")
	intent = in.str()
	if steps[0].has("entities") || intent == "" {
		return "", nil, "its intent has entities"
	}
	for _, st := range steps[1:] {
		switch {
		case st.has("action") && len(st.keys) == 1:
			actions = append(actions, st.get("action").str())
		case st.has("active_loop") && len(st.keys) == 1 && len(actions) > 0 && forms[st.get("active_loop").str()] != nil && actions[len(actions)-1] == st.get("active_loop").str():
		default:
			return "", nil, "a step is not an action (" + strings.Join(st.keys, ", ") + ")"
		}
	}
	return intent, actions, ""
}

// submitRule reads a form's submit rule: under the condition that the
// form is active, the form runs, ends (active_loop: null) and actions
// follow.
func submitRule(r *node, forms map[string]*named) (form string, actions []string, ok bool) {
	cond := r.get("condition").list()
	if len(cond) != 1 || !cond[0].has("active_loop") {
		return "", nil, false
	}
	form = cond[0].get("active_loop").str()
	if forms[form] == nil {
		return "", nil, false
	}
	steps := r.get("steps").list()
	if len(steps) == 0 || steps[0].get("action").str() != form {
		return "", nil, false
	}
	ended := false
	for _, st := range steps[1:] {
		switch {
		case st.has("active_loop"):
			ended = ended || st.get("active_loop").kind == kNull
		case st.has("slot_was_set"):
		case st.has("action") && ended:
			actions = append(actions, st.get("action").str())
		default:
			return "", nil, false
		}
	}
	return form, actions, ended
}

// formSlots are a form's required slots, in order: a list, or the keys of
// a mapping (Rasa 2's form format).
func formSlots(f *node) []string {
	rs := f.get("required_slots")
	if rs == nil {
		return nil
	}
	if rs.kind == kMap {
		return slices.Clone(rs.keys)
	}
	var out []string
	for _, s := range rs.list() {
		if s.str() != "" {
			out = append(out, s.str())
		}
	}
	return out
}

func (p *rasaProject) hasResponse(name string) bool {
	return slices.ContainsFunc(p.responses, func(r *named) bool { return r.name == name })
}

// mapNode is a mapping node of string values.
func mapNode(at loc, kv ...string) *node {
	n := &node{kind: kMap, at: at}
	for i := 0; i+1 < len(kv); i += 2 {
		n.keys = append(n.keys, kv[i])
		n.vals = append(n.vals, scalarNode(at, kv[i+1]))
	}
	return n
}

func scalarNode(at loc, s string) *node {
	return &node{kind: kScalar, at: at, v: s, text: s}
}

// intentPayload matches a Rasa intent payload with entities:
// /inform{"location": "berlin"}.
var intentPayload = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*/([A-Za-z0-9_\-]+)\s*(\{.*\})\s*$`) })

// entityPayload rewrites the entities of an intent payload as the slots
// they fill (a slot whose mapping is from_entity of that entity):
// /inform{"location": "berlin"} is /inform{"city": "berlin"} when city is
// filled from location. soni's payloads name slots. ok is false when
// nothing changed.
func (im *importer) entityPayload(msg string) (out string, renamed []string, ok bool) {
	m := intentPayload().FindStringSubmatch(msg)
	if m == nil {
		return msg, nil, false
	}
	dec := json.NewDecoder(strings.NewReader(m[2]))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return msg, nil, false
	}
	var parts []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return msg, nil, false
		}
		key, _ := t.(string)
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return msg, nil, false
		}
		if im.slots[key] == nil {
			if slot := im.entitySlot(key); slot != "" {
				renamed = append(renamed, key+" → "+slot)
				key = slot
			}
		}
		k, _ := json.Marshal(key)
		parts = append(parts, string(k)+":"+string(val))
	}
	if len(renamed) == 0 {
		return msg, nil, false
	}
	return "/" + m[1] + "{" + strings.Join(parts, ",") + "}", renamed, true
}

// entitySlot is the one slot filled from an entity, or "".
func (im *importer) entitySlot(entity string) string {
	found := ""
	for _, s := range im.p.slots {
		for _, mp := range s.n.get("mappings").list() {
			if mp.get("type").str() == "from_entity" && mp.get("entity").str() == entity && !mp.has("role") && !mp.has("group") {
				if found != "" && found != s.name {
					return ""
				}
				found = s.name
			}
		}
	}
	return found
}
