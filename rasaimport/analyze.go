package rasaimport

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/soni-dev/soni/ir"
)

// features are the parts of soni's language the importer may use. Some
// came with issue 19 (responses, patterns, flow guards, action messages);
// the importer writes them only where soni has them, and otherwise the
// nearest form that soni accepts, with a report item.
type features struct {
	// responses: the top-level responses: section, response: on say and
	// collect, bot_response and bot_uttered utter_name in tests.
	responses bool
	// patterns: flows named pattern_* override soni's repair patterns.
	patterns bool
	// guards: a flow's if: condition.
	guards bool
	// stubMessages: a test stub's responses become the action's messages.
	stubMessages bool
	// buttons: bot_uttered buttons assertions.
	buttons bool
	// names: a flow's name for people.
	names bool
	// defaultResponses: a flow may say one of soni's default responses
	// (ir.DefaultResponses) without defining it.
	defaultResponses bool
	// testDefaults: conversation tests may name soni's default pattern
	// flows and default responses.
	testDefaults bool
}

// available is what soni's language has today.
var available = features{responses: true, patterns: true, guards: true, buttons: true, names: true, testDefaults: true, stubMessages: true, defaultResponses: true}

// slotInfo is what the importer learns about one slot of the domain.
type slotInfo struct {
	*named
	// typ is the Rasa type (text, bool, float, categorical, any, list).
	typ string
	// refs are the flows that read or write the slot, in the order found.
	refs []string
	// collectedIn are the flows that collect it.
	collectedIn []string
	// persisted: reset_after_flow_ends false, or a flow's persisted_slots.
	persisted bool
	// fixture: a test fixture sets it.
	fixture bool
	// guard: a flow guard reads it, before its flow runs.
	guard bool
	// description is the first collect's description.
	description string
	// flow is the flow that owns the slot as a flow slot, or "" for a
	// conversation slot.
	flow string
}

func (s *slotInfo) ref(flow string) {
	if !slices.Contains(s.refs, flow) {
		s.refs = append(s.refs, flow)
	}
}

// templateRef matches a {name} reference of a response template (not
// {{...}}).
var templateRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{\{|\}\}|\{([^{}]*)\}`) })

// templateSlots returns the names a template references.
func templateSlots(t string) []string {
	var out []string
	for _, m := range templateRef().FindAllStringSubmatch(t, -1) {
		if m[0] == "{{" || m[0] == "}}" {
			continue
		}
		name := strings.TrimSpace(m[1])
		if i := strings.IndexAny(name, ":!.["); i >= 0 {
			name = name[:i]
		}
		out = append(out, name)
	}
	return out
}

// responseSlots returns the slots a response's variations reference:
// in their texts (and translations) and their conditions.
func responseSlots(n *node) []string {
	var out []string
	for _, v := range n.list() {
		out = append(out, templateSlots(v.get("text").str())...)
		if tr := v.get("translation"); tr != nil && tr.kind == kMap {
			for _, t := range tr.vals {
				if t.kind == kMap {
					out = append(out, templateSlots(t.get("text").str())...)
				} else {
					out = append(out, templateSlots(t.str())...)
				}
			}
		}
		for _, c := range v.get("condition").list() {
			if c.get("type").str() == "slot" {
				out = append(out, c.get("name").str())
			}
		}
	}
	return out
}

// analyze reads every flow, test and action once to learn which flows
// use each slot, then places each slot: a slot that one flow alone uses
// becomes that flow's slot; every other slot is a conversation slot, as
// all slots are in Rasa.
func (im *importer) analyze() {
	for _, f := range im.p.flows {
		for _, s := range f.n.get("persisted_slots").list() {
			if si := im.slots[s.str()]; si != nil {
				si.persisted = true
			}
		}
		if g := f.n.get("if"); g != nil {
			w := &condWriter{slotType: im.slotType}
			_, _ = translateCond(g.str(), w)
			for _, s := range w.slots {
				if si := im.slots[s]; si != nil {
					si.guard = true
				}
			}
		}
		im.walkSteps(f.name, f.n.get("steps").list())
	}
	for _, t := range im.p.tests {
		for _, fx := range t.n.get("fixtures").list() {
			for _, v := range fx.vals {
				for _, kv := range v.list() {
					for _, k := range kv.keys {
						if si := im.slots[k]; si != nil {
							si.fixture = true
						}
					}
				}
			}
		}
		stubs := t.n.get("stub_custom_actions")
		if stubs == nil {
			continue
		}
		for i, k := range stubs.keys {
			action := k
			if _, a, ok := strings.Cut(k, "::"); ok {
				action = a
			}
			st := stubs.vals[i]
			for _, e := range st.get("events").list() {
				if e.get("event").str() == "slot" {
					name := e.get("name").str()
					if !slices.Contains(im.stubSets[action], name) {
						im.stubSets[action] = append(im.stubSets[action], name)
					}
				}
			}
		}
	}
	// Slots an action sets or reads belong to every flow that calls it.
	for _, name := range im.actionOrder {
		a := im.actionsUsed[name]
		for _, s := range im.actionSlots(name) {
			if si := im.slots[s]; si != nil {
				for _, f := range a.flows {
					si.ref(f)
				}
			}
		}
		if py := im.p.py[name]; py != nil {
			for _, s := range py.reads {
				if si := im.slots[s]; si != nil {
					for _, f := range a.flows {
						si.ref(f)
					}
				}
			}
		}
	}
	callers := im.callers()
	for _, name := range im.slotOrder {
		si := im.slots[name]
		switch {
		case len(si.refs) != 1, si.persisted, si.fixture, si.guard, si.n.has("initial_value") && si.n.get("initial_value").kind != kNull:
		case strings.HasPrefix(si.refs[0], "pattern_"):
		case len(callers[si.refs[0]]) > 0:
			// A called flow is part of its caller in Rasa: its slots
			// live until the caller ends, which resets them.
		default:
			si.flow = si.refs[0]
		}
	}
}

// callers maps each flow to the flows that call it (call steps).
func (im *importer) callers() map[string][]string {
	out := map[string][]string{}
	for _, f := range im.p.flows {
		forSteps(f.n.get("steps").list(), func(st *node) {
			if t := st.get("call").str(); t != "" && !slices.Contains(out[t], f.name) {
				out[t] = append(out[t], f.name)
			}
		})
	}
	return out
}

// callees are the flows fl calls, directly or through other calls, in
// the order found.
func (im *importer) callees(fl *rflow) []*rflow {
	var out []*rflow
	seen := map[string]bool{fl.name: true}
	var walk func(f *rflow)
	walk = func(f *rflow) {
		forSteps(f.n.get("steps").list(), func(st *node) {
			t := st.get("call").str()
			if t == "" || seen[t] || im.flows[t] == nil {
				return
			}
			seen[t] = true
			out = append(out, im.flows[t])
			walk(im.flows[t])
		})
	}
	walk(fl)
	return out
}

// actionSlots returns the slots a custom action sets: those its Python
// source sets, those the tests' stubs set, and those whose mapping names
// it, in that order, without duplicates.
func (im *importer) actionSlots(action string) []string {
	var out []string
	add := func(s string) {
		if im.slots[s] != nil && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if py := im.p.py[action]; py != nil {
		for _, s := range py.sets {
			add(s)
		}
		slot, ok := strings.CutPrefix(action, "validate_")
		switch {
		case ok && im.slots[slot] != nil:
			// A slot's validation action computes the names it sets from
			// the slot's (f"{slot_name}_readable").
			for _, t := range py.setTemplates {
				add(fillTemplate(t, slot))
			}
		default:
			for _, re := range py.setPatterns {
				for _, name := range im.slotOrder {
					if re.MatchString(name) {
						add(name)
					}
				}
			}
		}
	}
	// Rasa's validation action of a slot answers with the slot's value.
	if slot, ok := strings.CutPrefix(action, "validate_"); ok && im.validationAction(slot) == action {
		add(slot)
	}
	for _, s := range im.stubSets[action] {
		add(s)
	}
	for _, name := range im.slotOrder {
		for _, m := range im.slots[name].n.get("mappings").list() {
			if m.get("action").str() == action {
				add(name)
			}
		}
	}
	return out
}

// condSlots records the slots a condition reads as used by flow.
func (im *importer) condSlots(flow, cond string) {
	w := &condWriter{slotType: im.slotType}
	_, _ = translateCond(cond, w)
	for _, s := range w.slots {
		if si := im.slots[s]; si != nil {
			si.ref(flow)
		}
	}
}

// responseUse records that flow uses a response.
func (im *importer) responseUse(flow, name string) {
	r := im.responses[name]
	if r == nil {
		return
	}
	for _, s := range responseSlots(r.n) {
		if si := im.slots[s]; si != nil {
			si.ref(flow)
		}
	}
}

// walkSteps records what the steps of a flow use.
func (im *importer) walkSteps(flow string, steps []*node) {
	forSteps(steps, func(st *node) {
		switch {
		case st.has("collect"):
			slot := st.get("collect").str()
			if si := im.slots[slot]; si != nil {
				si.ref(flow)
				si.collectedIn = append(si.collectedIn, flow)
				if r, ok := st.get("reset_after_flow_ends").boolean(); ok && !r {
					si.persisted = true
				}
				if si.description == "" {
					si.description = st.get("description").str()
				}
			}
			utter := st.get("utter").str()
			if utter == "" {
				utter = "utter_ask_" + slot
			}
			im.responseUse(flow, utter)
			if act := im.askAction(st); act != "" {
				im.useAction(act, flow, st.at)
			}
			if act := im.validationAction(slot); act != "" {
				im.useAction(act, flow, st.at)
			}
			for _, rj := range st.get("rejections").list() {
				im.condSlots(flow, rj.get("if").str())
				im.responseUse(flow, rj.get("utter").str())
			}
		case st.has("action"):
			name := st.get("action").str()
			switch {
			case im.responses[name] != nil:
				im.responseUse(flow, name)
			case isBuiltinAction(name), strings.HasPrefix(name, "utter_"):
			default:
				im.useAction(name, flow, st.at)
			}
		case st.has("set_slots"):
			for _, kv := range st.get("set_slots").list() {
				for _, k := range kv.keys {
					if si := im.slots[k]; si != nil {
						si.ref(flow)
					}
				}
			}
		}
		for _, nx := range st.get("next").list() {
			if c := nx.get("if"); c != nil {
				im.condSlots(flow, c.str())
			}
		}
	})
}

// actionUse is a custom action the flows call.
type actionUse struct {
	name  string
	at    loc
	flows []string
}

// useAction records a call of a custom action by flow.
func (im *importer) useAction(name, flow string, at loc) {
	a := im.actionsUsed[name]
	if a == nil {
		a = &actionUse{name: name, at: at}
		im.actionsUsed[name] = a
		im.actionOrder = append(im.actionOrder, name)
	}
	if !slices.Contains(a.flows, flow) {
		a.flows = append(a.flows, flow)
	}
}

// slotType returns a slot's Rasa type.
func (im *importer) slotType(name string) (string, bool) {
	si := im.slots[name]
	if si == nil {
		return "", false
	}
	return si.typ, true
}

// builtinActions are Rasa's default actions, which a flow may name but
// which have no soni counterpart as an action.
var builtinActions = map[string]string{
	"action_listen":                  "soni waits for the user at collect steps only",
	"action_restart":                 "soni has no restart action: a conversation starts afresh with a new session (soni chat's /reset)",
	"action_session_start":           "soni starts sessions itself",
	"action_default_fallback":        "soni's fallback message is settings.fallback_message",
	"action_deactivate_loop":         "soni has no forms (loops)",
	"action_two_stage_fallback":      "soni has no two-stage fallback",
	"action_default_ask_affirmation": "soni has no two-stage fallback",
	"action_default_ask_rephrase":    "soni has no two-stage fallback",
	"action_back":                    "soni has no undo",
	"action_unlikely_intent":         "soni has no intent prediction",
	"action_revert_fallback_events":  "soni has no two-stage fallback",
	"action_extract_slots":           "soni's understanding fills slots itself",
	"action_validate_slot_mappings":  "soni's understanding fills slots itself",
	"action_cancel_flow":             "soni cancels the flow itself when the cancel pattern ends",
	"action_correct_flow_slot":       "soni applies the correction itself",
	"action_clarify_flows":           "soni offers the candidate flows itself",
	"action_trigger_search":          "soni has no enterprise search (RAG)",
	"action_trigger_chitchat":        "soni generates no free-form answers",
	"action_clean_stack":             "soni has no code-change pattern",
	"action_reset_routing":           "soni has no coexistence router",
	"action_hangup":                  "soni has no voice channel",
	"action_repeat_bot_messages":     "soni repeats its messages itself",
	"action_run_slot_rejections":     "soni checks a collect's validator itself",
	"action_block_digressions":       "soni has no digression blocking",
	"action_continue_digression":     "soni has no digression blocking",
	"action_send_text":               "soni sends messages with say steps",
	"action_cancel_digression":       "soni has no digression blocking",
}

// rasaResponses are the responses Rasa's default patterns say, which a
// project may use without defining them, with the importer's wording of
// each: an imported flow says that wording for the ones soni does not
// define itself (those not in ir.DefaultResponses).
var rasaResponses = map[string]string{
	"utter_ask_rephrase":                               "Sorry, I didn't get that. Could you say it another way?",
	"utter_can_do_something_else":                      "Is there anything else I can do for you?",
	"utter_cannot_handle":                              "Sorry, that is not something I can help with.",
	"utter_clarification_options_rasa":                 "I can help with that, but I need to know more. Which one do you mean?",
	"utter_corrected_previous_input":                   "Okay, I've updated that.",
	"utter_flow_cancelled_rasa":                        "Okay, I've stopped that.",
	"utter_free_chitchat_response":                     "Sorry, I can't answer that right now.",
	"utter_human_handoff_not_available":                "I can't put you through to a person right now. Can I help with something else?",
	"utter_internal_error_rasa":                        "Sorry, something went wrong on my side. Please try again in a few minutes.",
	"utter_no_knowledge_base":                          "Sorry, I don't know the answer to that.",
	"utter_no_relevant_answer_found":                   "Sorry, I can't help with that.",
	"utter_skip_question_answer":                       "I need your answer to this question to go on.",
	"utter_user_input_empty_error_rasa":                "Your message was empty. What can I do for you?",
	"utter_user_input_too_long_error_rasa":             "Your message is too long for me. Please keep it shorter.",
	"utter_boolean_slot_rejection":                     "Sorry, I need a yes or a no.",
	"utter_categorical_slot_rejection":                 "Sorry, please pick one of the options.",
	"utter_float_slot_rejection":                       "Sorry, I need a number.",
	"utter_inform_code_change":                         "I have been updated, so we need to start over.",
	"utter_ask_still_there":                            "Are you still there?",
	"utter_inform_hangup":                              "I haven't heard from you, so I'll end our conversation.",
	"utter_ask_continue_interrupted_flow_confirmation": "Would you like to go back to what we were doing?",
	"utter_ask_interrupted_flow_to_continue":           "Which of the earlier tasks would you like to go back to?",
}

// chitchatOrSearch maps Rasa's default actions that answer with a model
// to the response Rasa says without one: utter_free_chitchat_response
// (soni's chitchat answer, settings.chitchat_message) and
// utter_no_knowledge_base (Rasa's pattern_search without a knowledge base).
var chitchatOrSearch = map[string]string{
	"action_trigger_chitchat": ir.ResponseChitchat,
	"action_trigger_search":   "utter_no_knowledge_base",
}

func isBuiltinAction(name string) bool {
	_, ok := builtinActions[name]
	return ok
}
