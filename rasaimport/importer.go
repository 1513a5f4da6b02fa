package rasaimport

import (
	"fmt"
	"slices"
	"strings"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
)

// importer holds the state of one translation.
type importer struct {
	p   *rasaProject
	f   features
	rep reporter
	sum Summary

	slots     map[string]*slotInfo
	slotOrder []string
	responses map[string]*named
	flows     map[string]*rflow
	// actionsUsed are the custom actions the flows call, in actionOrder.
	actionsUsed map[string]*actionUse
	actionOrder []string
	// stubSets are the slots the tests' stubs of each action set.
	stubSets map[string][]string
	// inlined and regexped remember the responses already reported.
	inlined, regexped map[string]bool
	// saidInline are Rasa's default responses an imported flow says as
	// soni's wording of them, not by name.
	saidInline map[string]bool
	// stepIDs maps each flow's Rasa step ids to soni's.
	stepIDs map[string]map[string]string
	// agents are the sub-agents and MCP tools the flows hand over to, in
	// agentOrder (agents.go).
	agents     map[string]*agentUse
	agentOrder []string
	// nulls are the slots the tests check were set to null (resets.go).
	nulls map[string]loc
}

// Translate reads the Rasa project in src and returns the soni project's
// files, by path relative to the output directory, and the migration
// report (whose Markdown is also the file IMPORT.md).
func Translate(src string) (map[string][]byte, *Report, error) {
	return translateWith(src, Options{}, available)
}

// TranslateWith is [Translate] with the options that choose what is read
// (Options.Tests); the options that decide what is written apply to
// [Import] only.
func TranslateWith(src string, opts Options) (map[string][]byte, *Report, error) {
	return translateWith(src, opts, available)
}

func translateWith(src string, opts Options, f features) (map[string][]byte, *Report, error) {
	p, err := loadProject(src, opts.Tests)
	if err != nil {
		return nil, nil, err
	}
	im := &importer{p: p, f: f, slots: map[string]*slotInfo{}, responses: map[string]*named{}, flows: map[string]*rflow{},
		actionsUsed: map[string]*actionUse{}, stubSets: map[string][]string{}, inlined: map[string]bool{}, regexped: map[string]bool{}, saidInline: map[string]bool{},
		stepIDs: map[string]map[string]string{}}
	for _, s := range p.slots {
		if old := im.slots[s.name]; old != nil {
			im.rep.add(s.at, "slot", StatusApproximated, "domain.yaml", "keep one definition",
				"slot %q is defined again (first at %s); the import keeps the last definition", s.name, old.at)
			old.named = s
			old.typ = strings.ToLower(s.n.get("type").str())
			continue
		}
		im.slots[s.name] = &slotInfo{named: s, typ: strings.ToLower(s.n.get("type").str())}
		im.slotOrder = append(im.slotOrder, s.name)
		if !validName(s.name) {
			im.rep.add(s.at, "slot", StatusManual, "domain.yaml", "rename the slot with letters, digits and _",
				"slot %q is not a name soni accepts", s.name)
		}
	}
	for _, r := range p.responses {
		if old := im.responses[r.name]; old != nil {
			im.rep.add(r.at, "response", StatusApproximated, "domain.yaml", "keep one definition",
				"response %q is defined again (first at %s); the import keeps the last definition", r.name, old.at)
		}
		im.responses[r.name] = r
	}
	for _, fl := range p.flows {
		if old := im.flows[fl.name]; old != nil {
			return nil, nil, fmt.Errorf("%s: flow %q is defined twice (first at %s): Rasa refuses that too", fl.at, fl.name, old.at)
		}
		im.flows[fl.name] = fl
	}
	im.analyze()
	files := map[string][]byte{}

	// The flows, one soni file per Rasa data file.
	trig := im.triggers()
	var order []string
	byFile := map[string]*syntax.File{}
	for _, fl := range p.flows {
		out := flowPath(fl.file)
		doc := byFile[out]
		if doc == nil {
			doc = &syntax.File{Version: syntax.S("1.0")}
			doc.Comments.AddHead("", header(p, "flows")...)
			byFile[out] = doc
			order = append(order, out)
		}
		def := im.flowDef(fl, out, trig[fl.name])
		doc.Flows = append(doc.Flows, def)
		switch {
		case isPattern(fl.name) && !im.f.patterns:
			def.Comments.AddHead("", "A Rasa pattern override. soni runs it as a flow of its own name; it takes over\nRasa's repair only where soni has pattern flows (see IMPORT.md).")
		case isPattern(fl.name) && !ir.IsPattern(fl.name):
			def.Comments.AddHead("", "Rasa's "+fl.name+" has no soni counterpart: nothing starts this flow.")
			im.rep.add(fl.at, "flow", StatusManual, out, "trigger the flow, link to it, or remove it",
				"soni has no pattern %q, so nothing starts the imported flow", fl.name)
		}
	}
	for _, out := range order {
		b, err := syntax.Encode(byFile[out])
		if err != nil {
			return nil, nil, err
		}
		files[out] = b
	}
	if doc := im.rasaPatterns(); doc != nil {
		doc.Comments.AddHead("", header(p, "patterns")...)
		b, err := syntax.Encode(doc)
		if err != nil {
			return nil, nil, err
		}
		files[patternsFile] = b
	}

	dom := im.domainFile()
	dom.Comments.AddHead("", header(p, "domain")...)
	b, err := syntax.Encode(dom)
	if err != nil {
		return nil, nil, err
	}
	files["domain.yaml"] = b

	for _, t := range p.tests {
		out, doc := im.testFile(t)
		doc.Comments = header(p, "tests")
		files[out], _ = syntax.EncodeTests(doc)
	}

	for _, ig := range p.ignored {
		im.rep.add(ig.at, "data", StatusIgnored, "", ig.fix, "%s", ig.what)
	}
	opened := map[string]string{}
	for _, f := range p.flows {
		if f.rule != "" {
			im.rep.add(f.at, "flow", StatusApproximated, flowPath(f.file), "nothing, unless the rule relied on Rasa's intent classifier: soni starts the flow from the intent's examples",
				"the rule %q (Rasa's NLU-based dialogue) is imported as the flow %q, triggered by its intent's examples", f.rule, f.name)
		}
		for _, fm := range f.forms {
			opened[fm] = f.name
		}
	}
	for _, fm := range p.forms {
		if fl, ok := opened[fm.name]; ok {
			im.rep.add(fm.at, "data", StatusApproximated, "", "check the form's validation action: soni does not run it",
				"the form %q is imported as the collect steps of flow %q, then what its submit rule does; its validation action does not run", fm.name, fl)
			continue
		}
		im.rep.add(fm.at, "data", StatusManual, "", "write the form as a flow of collect steps",
			"the form %q (Rasa's NLU-based dialogue) is not translated", fm.name)
	}

	items := im.rep.sorted()
	im.concerns(items)
	number(items)
	rep := &Report{Source: src, Summary: im.sum, Items: items}
	files["IMPORT.md"] = rep.Markdown()
	return files, rep, nil
}

// flowPath is where the flows of a Rasa data file go: flows/ and its path
// below data/, with the .yaml extension.
func flowPath(rel string) string {
	p := strings.TrimPrefix(strings.TrimPrefix(rel, "data/"), "flows/")
	p = strings.TrimSuffix(strings.TrimSuffix(p, ".yml"), ".yaml") + ".yaml"
	return "flows/" + p
}

// header is the comment at the top of each written file.
func header(p *rasaProject, kind string) []string {
	return []string{fmt.Sprintf("Written by soni import rasa (%s). Re-running the import overwrites this file\nunless it was edited since; see IMPORT.md.", kind)}
}

// nluThreshold is the lowest confidence_threshold of a flow's
// nlu_trigger intents, or 0: the confidence its trigger asks for.
func nluThreshold(fl *rflow) float64 {
	low := 0.0
	for _, t := range fl.n.get("nlu_trigger").list() {
		ct := t.get("intent").get("confidence_threshold")
		if ct == nil {
			return 0 // an intent with no threshold starts the flow at any confidence
		}
		var c float64
		switch v := ct.v.(type) {
		case float64:
			c = v
		case int64:
			c = float64(v)
		default:
			continue
		}
		if c > 1 {
			c = 1
		}
		if low == 0 || c < low {
			low = c
		}
	}
	return low
}

// flowDef translates one flow.
func (im *importer) flowDef(fl *rflow, out string, phrases []string) *syntax.Flow {
	before := len(im.rep.items)
	m := &syntax.Flow{Name: syntax.S(fl.name)}
	if name := fl.n.get("name").str(); name != "" && im.f.names && name != strings.ReplaceAll(fl.name, "_", " ") {
		m.Label = syntax.S(name)
	}
	if d := fl.n.get("description").str(); d != "" {
		m.Description = syntax.S(d)
	}
	if len(phrases) > 0 {
		for _, p := range phrases {
			m.Triggers = append(m.Triggers, syntax.S(p))
		}
		m.MinConfidence = nluThreshold(fl)
	}
	var guardComment []string
	if g := fl.n.get("if"); g != nil {
		if v, ok := g.boolean(); ok && !v {
			// if: False: only a link or a call starts it, as a flow with no
			// trigger in soni.
		} else {
			w := &condWriter{slotType: im.slotType}
			expr, err := translateCond(g.str(), w)
			switch {
			case err != nil:
				guardComment = commentLines("if", g)
				im.rep.add(g.at, "flow", StatusCommented, out, "rewrite the guard over slots, or check the condition in the flow's first step",
					"the guard of flow %q cannot be translated (%v)", fl.name, err)
			case im.f.guards:
				m.If = syntax.S(expr)
			default:
				guardComment = commentLines("if", g)
				im.rep.add(g.at, "flow", StatusCommented, out, "check the condition in a branch at the flow's start, or re-run the import once soni has flow guards",
					"flow %q has the guard %q (soni: %s), which soni cannot express yet: the flow can start at any time", fl.name, g.str(), expr)
			}
		}
	}
	for i, k := range fl.n.keys {
		v := fl.n.vals[i]
		switch k {
		case "nlu_trigger":
			for _, t := range v.list() {
				if ct := t.get("intent").get("confidence_threshold"); ct != nil {
					im.rep.add(ct.at, "flow", StatusApproximated, out, "nothing, unless the flow must start on a looser reading: then lower trigger.min_confidence",
						"flow %q: the confidence_threshold of its nlu_trigger intent %q is the trigger's min_confidence; soni's rules report 1 when they are sure of a message and 0.5 when not, so a threshold above 0.5 starts the flow only from a sure reading (or the model)", fl.name, t.get("intent").get("name").str())
				}
			}
		case "description", "if", "steps", "persisted_slots", "name":
		case "always_include_in_prompt":
			im.rep.add(v.at, "flow", StatusIgnored, out, "nothing; soni's prompt lists every flow a message can start",
				"flow %q: always_include_in_prompt is not translated", fl.name)
		case "run_pattern_completed":
			if b, ok := v.boolean(); ok && !b {
				im.rep.add(v.at, "flow", StatusApproximated, out, "nothing, unless the completion message matters",
					"flow %q does not run pattern_completed in Rasa; soni ends it as any flow", fl.name)
			}
		default:
			im.rep.add(v.at, "flow", StatusIgnored, out, "nothing in soni corresponds to it",
				"flow %q: the key %q is not translated", fl.name, k)
		}
	}
	for _, name := range im.slotOrder {
		si := im.slots[name]
		if si.flow != fl.name {
			continue
		}
		m.Slots = append(m.Slots, im.slotDef(si, out))
	}
	b := &flowBuilder{im: im, f: fl, out: out, used: map[string]bool{endStep: true}, idOf: map[*node]string{}, rasaID: map[string]string{}, end: endStep}
	b.resets = im.resetSlots(fl)
	m.Steps = b.build()
	m.Main = len(m.Steps)
	if len(guardComment) > 0 {
		m.Comments.AddHead("steps", guardComment...)
	}
	im.stepIDs[fl.name] = b.rasaID
	ok := len(im.rep.items) == before
	if isPattern(fl.name) {
		im.sum.Patterns.add(ok && im.f.patterns && ir.IsPattern(fl.name))
	} else {
		im.sum.Flows.add(ok)
	}
	// A difference of what the tests see, not of the flow: reported
	// after the flow is counted.
	im.reportNullResets(fl, b.resets, out)
	return m
}

// resetSlots are the conversation slots a flow collects that Rasa resets
// when the flow ends: those whose collect does not say
// reset_after_flow_ends: false and that the flow does not persist.
//
// A flow that other flows call is part of them, as in Rasa: the slots it
// collects are reset when its caller ends, with the caller's own.
func (im *importer) resetSlots(fl *rflow) []string {
	if len(im.callers()[fl.name]) > 0 {
		return nil
	}
	persisted := map[string]bool{}
	for _, s := range fl.n.get("persisted_slots").list() {
		persisted[s.str()] = true
	}
	var out []string
	collects := func(f *rflow) {
		forSteps(f.n.get("steps").list(), func(st *node) {
			if !st.has("collect") {
				return
			}
			slot := st.get("collect").str()
			si := im.slots[slot]
			keep, ok := st.get("reset_after_flow_ends").boolean()
			if si != nil && si.flow == "" && !(ok && !keep) && !persisted[slot] && !slices.Contains(out, slot) {
				out = append(out, slot)
			}
		})
	}
	collects(fl)
	for _, c := range im.callees(fl) {
		collects(c)
	}
	return out
}

// resetValue is what Rasa resets a slot to when a flow that collected it
// ends: its initial_value, or null.
func (im *importer) resetValue(slot string) any {
	si := im.slots[slot]
	if si == nil || si.n == nil {
		return nil
	}
	// An empty list is no initial value (see slotDef): reset to null.
	if v := si.n.get("initial_value"); v != nil && v.kind != kNull && !(v.kind == kSeq && len(v.items) == 0) {
		return v.value()
	}
	return nil
}

// forSteps calls fn on every step of a step list, the steps of its
// branches' lists included, in the order they are written.
func forSteps(steps []*node, fn func(st *node)) {
	for _, st := range steps {
		fn(st)
		for _, nx := range st.get("next").list() {
			for _, k := range []string{"then", "else"} {
				if t := nx.get(k); t != nil && t.kind == kSeq {
					forSteps(t.items, fn)
				}
			}
		}
	}
}
