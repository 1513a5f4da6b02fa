package rasaimport

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
)

// testPath is where a Rasa test file goes: tests/ and its path below its
// test directory (rtestFile.out), with the .yaml extension.
func testPath(out string) string {
	return "tests/" + strings.TrimSuffix(strings.TrimSuffix(out, ".yml"), ".yaml") + ".yaml"
}

// testBuilder translates one Rasa test file.
type testBuilder struct {
	im  *importer
	out string
	// cases are the file's test case names.
	cases map[string]bool
}

// testFile translates a Rasa end-to-end test file into soni's test file
// model (syntax.TestFile), which the importer writes with
// syntax.EncodeTests.
func (im *importer) testFile(t *rtestFile) (string, *syntax.TestFile) {
	out := testPath(t.out)
	tb := &testBuilder{im: im, out: out, cases: map[string]bool{}}
	for _, c := range t.n.get("test_cases").list() {
		tb.cases[c.get("test_case").str()] = true
	}
	depth := strings.Count(out, "/")
	doc := &syntax.TestFile{Flows: strings.TrimSuffix(strings.Repeat("../", depth), "/"), HasFlows: true}
	before := len(im.rep.items)
	var fileComments []string
	for i, k := range t.n.keys {
		v := t.n.vals[i]
		switch k {
		case "test_cases":
		case "fixtures":
			doc.Fixtures = tb.fixtures(v)
		case "metadata":
			for _, item := range v.list() {
				for j, name := range item.keys {
					doc.Metadata = append(doc.Metadata, &syntax.MetadataDef{Name: name, Value: dataOf(item.vals[j])})
				}
			}
		case "stub_custom_actions":
			stubs, dropped := tb.stubs(v)
			doc.Stubs = stubs
			fileComments = append(fileComments, dropped...)
		default:
			im.rep.add(v.at, "test", StatusCommented, out, "remove it, or write it in soni's test format",
				"the test file key %q has no soni equivalent", k)
			fileComments = append(fileComments, commentLines(k, v)...)
		}
	}
	names := map[string]bool{}
	for _, c := range t.n.get("test_cases").list() {
		cb := len(im.rep.items)
		tc := tb.testCase(c)
		if name := c.get("test_case").str(); names[name] {
			renamed := name
			for n := 2; names[renamed]; n++ {
				renamed = fmt.Sprintf("%s_%d", name, n)
			}
			tc.Name = renamed
			im.rep.add(c.at, "test", StatusApproximated, out, "give the test cases different names",
				"the test case %q is defined twice in the file: soni names the second %q", name, renamed)
			name = renamed
			names[name] = true
		} else {
			names[name] = true
		}
		doc.Cases = append(doc.Cases, tc)
		im.sum.TestCases.add(len(im.rep.items) == cb)
	}
	doc.CasesComments = fileComments
	im.sum.TestFiles.add(len(im.rep.items) == before)
	return out, doc
}

// dataOf is a Rasa value as a test file's free-form value, keeping the
// order of its keys.
func dataOf(n *node) *syntax.Data {
	if n == nil {
		return syntax.NewData(nil, false)
	}
	switch n.kind {
	case kMap:
		d := &syntax.Data{Kind: syntax.DataMap, Entries: []syntax.DataEntry{}}
		for i, k := range n.keys {
			d.Entries = append(d.Entries, syntax.DataEntry{Key: k, Value: dataOf(n.vals[i])})
		}
		return d
	case kSeq:
		d := &syntax.Data{Kind: syntax.DataList, Items: []*syntax.Data{}}
		for _, it := range n.items {
			d.Items = append(d.Items, dataOf(it))
		}
		return d
	case kScalar:
		return syntax.NewData(n.v, false)
	}
	return syntax.NewData(nil, false)
}

// fixtures translates the fixtures: slots that are not conversation
// slots are kept as comments.
func (tb *testBuilder) fixtures(v *node) []*syntax.Fixture {
	var out []*syntax.Fixture
	for _, fx := range v.list() {
		for i, name := range fx.keys {
			f := &syntax.Fixture{Name: name}
			for _, kv := range fx.vals[i].list() {
				for j, slot := range kv.keys {
					if si := tb.im.slots[slot]; si == nil || si.flow != "" || routerSlots[slot] {
						tb.im.rep.add(kv.at, "test", StatusCommented, tb.out, "declare the slot in the domain",
							"fixture %q sets %q, which is no slot of the domain", name, slot)
						f.Tail = append(f.Tail, commentItem(keyed(slot, rasaTree(kv.vals[j])))...)
						continue
					}
					f.Slots = append(f.Slots, syntax.SlotValue{Slot: slot, Value: kv.vals[j].value(), HasValue: true})
				}
			}
			out = append(out, f)
		}
	}
	return out
}

// stubs translates stub_custom_actions: slot events become outputs. A
// stub soni cannot use is returned as comment text.
func (tb *testBuilder) stubs(v *node) ([]*syntax.Stub, []string) {
	im := tb.im
	var out []*syntax.Stub
	var dropped []string
	drop := func(key string, st *node) {
		dropped = append(dropped, commentLines("stub_custom_actions", &node{kind: kMap, at: st.at, keys: []string{key}, vals: []*node{st}})...)
	}
	for i, key := range v.keys {
		st := v.vals[i]
		stub := &syntax.Stub{Action: key}
		if c, a, ok := strings.Cut(key, "::"); ok {
			stub.Case, stub.Action = c, a
			if !tb.cases[c] {
				im.rep.add(st.at, "test", StatusCommented, tb.out, "fix the test case name",
					"the stub %q names the test case %q, which the file does not have", key, c)
				drop(key, st)
				continue
			}
		}
		if _, used := im.actionsUsed[stub.Action]; !used {
			im.rep.add(st.at, "test", StatusCommented, tb.out, "remove the stub, or call the action in a flow",
				"the stub %q is for the action %q, which no imported flow calls", key, stub.Action)
			drop(key, st)
			continue
		}
		outs := &syntax.Data{Kind: syntax.DataMap, Entries: []syntax.DataEntry{}}
		for _, e := range st.get("events").list() {
			if e.get("event").str() == "slot" {
				outs.Entries = append(outs.Entries, syntax.DataEntry{Key: e.get("name").str(), Value: syntax.NewData(e.get("value").value(), false)})
				continue
			}
			stub.Comments = append(stub.Comments, commentItem(rasaTree(e))...)
			im.rep.add(e.at, "test", StatusCommented, tb.out, "set the slots the event would change with slot events instead",
				"the stub %q returns a %q event, which soni's stubs have no equivalent for", key, e.get("event").str())
		}
		stub.Outputs = outs
		if rs := st.get("responses"); rs != nil && len(rs.list()) > 0 && im.f.stubMessages {
			stub.Responses = dataOf(rs)
		} else if rs != nil && len(rs.list()) > 0 {
			im.rep.add(rs.at, "test", StatusCommented, tb.out, "check the message in the flow's say step instead",
				"the stub %q sends messages, which soni's stubs cannot send yet", key)
			stub.Comments = append(stub.Comments, commentLines("responses", rs)...)
		}
		out = append(out, stub)
	}
	return out, dropped
}

// testCase translates one test case.
func (tb *testBuilder) testCase(c *node) *syntax.TestCase {
	tc := &syntax.TestCase{}
	for i, k := range c.keys {
		v := c.vals[i]
		switch k {
		case "test_case":
			tc.Name = v.str()
		case "steps":
			tc.Steps, tc.Tail = tb.steps(v.list())
		case "fixtures":
			for _, f := range v.list() {
				tc.Fixtures = append(tc.Fixtures, syntax.NameRef{Name: f.str()})
			}
		case "metadata":
			tc.Metadata = syntax.NameRef{Name: v.str()}
		default:
			tb.im.rep.add(v.at, "test", StatusCommented, tb.out, "remove it",
				"the test case key %q has no soni equivalent", k)
		}
	}
	return tc
}

// steps translates a test case's steps; the comments after the last step
// are returned apart.
func (tb *testBuilder) steps(list []*node) ([]*syntax.TestStep, []string) {
	var out []*syntax.TestStep
	var pending []string
	add := func(st *syntax.TestStep, comments ...string) {
		st.Comments = append(pending, comments...)
		out = append(out, st)
		pending = nil
	}
	for _, st := range list {
		switch {
		case st.has("user"):
			u := &syntax.TestStep{Kind: "user"}
			for i, k := range st.keys {
				v := st.vals[i]
				switch k {
				case "user":
					msg := v.str()
					if x, renamed, ok := tb.im.entityPayload(msg); ok {
						msg = x
						tb.im.rep.add(v.at, "test", StatusApproximated, tb.out, "nothing",
							"the payload %q names entities; soni's payloads name the slots they fill (%s)", v.str(), strings.Join(renamed, ", "))
					}
					u.Text = msg
				case "metadata":
					u.Metadata = syntax.NameRef{Name: v.str()}
				case "assertion_order_enabled":
					u.Ordered, _ = v.boolean()
					u.HasOrdered = true
				case "assertions":
					as, tail := tb.assertions(v.list())
					if len(as) > 0 {
						u.Assertions, u.AssertionsTail = as, tail
					} else if len(tail) > 0 {
						pending = append(pending, tail...)
					}
				default:
					pending = append(pending, commentLines(k, v)...)
					tb.im.rep.add(v.at, "test", StatusCommented, tb.out, "remove it", "the user step key %q has no soni equivalent", k)
				}
			}
			add(u)
		case st.has("bot"):
			tb.im.sum.Assertions.add(true)
			add(&syntax.TestStep{Kind: "bot", Text: st.get("bot").str()})
		case st.has("utter"):
			name := st.get("utter").str()
			c, ok := tb.utterCheck(name, st.at)
			tb.im.sum.Assertions.add(ok)
			if c == nil {
				pending = append(pending, commentItem(rasaTree(st))...)
				continue
			}
			add(c.step())
		case st.has("slot_was_set"), st.has("slot_was_not_set"):
			key := "slot_was_set"
			if st.has("slot_was_not_set") {
				key = "slot_was_not_set"
			}
			check := &syntax.TestStep{Kind: key}
			for _, it := range st.get(key).list() {
				name := it.str()
				if it.kind == kMap && len(it.keys) > 0 {
					name = it.keys[0]
				}
				ok := tb.knownSlot(name, it.at)
				tb.im.sum.Assertions.add(ok)
				if !ok {
					pending = append(pending, commentItem(keyed(key, listOf(rasaTree(it))))...)
					continue
				}
				if it.kind == kMap {
					for j, k := range it.keys {
						check.Slots = append(check.Slots, syntax.SlotValue{Slot: k, Value: it.vals[j].value(), HasValue: true})
					}
					continue
				}
				check.Slots = append(check.Slots, syntax.SlotValue{Slot: name})
			}
			if len(check.Slots) > 0 {
				add(check)
			}
		default:
			tb.im.sum.Assertions.add(false)
			pending = append(pending, commentItem(rasaTree(st))...)
			tb.im.rep.add(st.at, "test", StatusCommented, tb.out, "write it as a user, bot or slot step",
				"the test step with keys %s has no soni equivalent", strings.Join(st.keys, ", "))
		}
	}
	return out, pending
}

// routerSlots are slots Rasa's coexistence router sets; soni has no
// router.
var routerSlots = map[string]bool{"route_session_to_calm": true}

// knownSlot reports whether a test may check a slot; it reports it
// when not.
func (tb *testBuilder) knownSlot(name string, at loc) bool {
	if routerSlots[name] {
		tb.im.rep.add(at, "test", StatusCommented, tb.out, "nothing: soni runs flows only, so every message goes to them",
			"the test checks %q, which Rasa's coexistence router sets; soni has no router", name)
		return false
	}
	if tb.im.slots[name] != nil {
		return true
	}
	tb.im.rep.add(at, "test", StatusCommented, tb.out, "declare the slot, or remove the check",
		"the test checks the slot %q, which the domain does not declare", name)
	return false
}

// flowTitled reports whether an imported flow has the key or the name for
// people title, as pattern_clarification_contains names the flows it
// offers (soni reads either, ignoring case).
func (tb *testBuilder) flowTitled(title string) bool {
	for _, f := range tb.im.flows {
		label := f.n.get("name").str()
		if label == "" {
			label = strings.ReplaceAll(f.name, "_", " ")
		}
		if f.name == title || strings.EqualFold(label, title) {
			return true
		}
	}
	return false
}

// knownFlow reports whether a test may name a flow.
func (tb *testBuilder) knownFlow(name string) bool {
	return tb.im.flows[name] != nil || tb.im.f.patterns && tb.im.f.testDefaults && ir.IsPattern(name)
}

// replyCheck is how a test checks that the bot said a response: by its
// name (response), or, without responses, by a regular expression of its
// texts (pattern).
type replyCheck struct {
	response, pattern string
}

// step is the check as a test step: bot_response or bot_matches.
func (c *replyCheck) step() *syntax.TestStep {
	if c.response != "" {
		return &syntax.TestStep{Kind: "bot_response", Text: c.response}
	}
	return &syntax.TestStep{Kind: "bot_matches", Text: c.pattern}
}

// assertion is the check as an assertion of kind (bot_uttered or
// bot_did_not_utter): utter_name or text_matches.
func (c *replyCheck) assertion(kind string) *syntax.Assertion {
	if c.response != "" {
		return &syntax.Assertion{Kind: kind, Response: c.response}
	}
	return &syntax.Assertion{Kind: kind, TextMatches: c.pattern, HasTextMatches: true}
}

// utterCheck is the check that the bot said a response: by its name, or,
// without responses, by a regular expression of its texts. It is nil
// (and reported) when the test cannot check it; ok is false when the
// check is approximate or missing.
func (tb *testBuilder) utterCheck(name string, at loc) (*replyCheck, bool) {
	im := tb.im
	r := im.responses[name]
	if r == nil && im.f.responses && im.f.testDefaults && slices.Contains(ir.DefaultResponses, name) && !im.saidInline[name] {
		return &replyCheck{response: name}, true
	}
	if r == nil && rasaResponses[name] != "" && im.saidInline[name] {
		r = &named{name: name, at: at, n: &node{kind: kSeq, items: []*node{{kind: kMap, keys: []string{"text"}, vals: []*node{{kind: kScalar, v: rasaResponses[name]}}}}}}
	}
	if r == nil && (rasaResponses[name] != "" || slices.Contains(ir.DefaultResponses, name)) {
		im.rep.add(at, "test", StatusCommented, tb.out, "check the reply's text with text_matches, or define the response in the domain",
			"the test expects Rasa's default response %q, which neither the project nor soni defines, and no imported flow says", name)
		return nil, false
	}
	if r == nil {
		im.rep.add(at, "test", StatusCommented, tb.out, "fix the response name",
			"the test expects the response %q, which the domain does not define", name)
		return nil, false
	}
	if im.f.responses && im.responses[name] != nil {
		return &replyCheck{response: name}, true
	}
	re := responseRegexp(r)
	if !tb.im.regexped[name] {
		tb.im.regexped[name] = true
		if im.responses[name] == nil {
			im.rep.add(at, "test", StatusApproximated, tb.out, "check the text you chose for it",
				"tests that expect Rasa's default response %q match soni's wording of it, %q", name, rasaResponses[name])
		} else {
			im.rep.add(r.at, "test", StatusApproximated, tb.out, "nothing to do once soni has responses: re-run the import",
				"tests that expect the response %q match its texts with a regular expression instead of its name", name)
		}
	}
	return &replyCheck{pattern: re}, false
}

// placeholder matches {name} in a response text.
var placeholder = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{[^{}]*\}`) })

// responseRegexp is a regular expression that matches the texts of a
// response's variations, a {slot} matching anything.
func responseRegexp(r *named) string {
	var alts []string
	for _, v := range r.n.list() {
		t := v.get("text").str()
		if t == "" {
			continue
		}
		parts := placeholder().Split(t, -1)
		for i, p := range parts {
			parts[i] = regexp.QuoteMeta(p)
		}
		alt := strings.Join(parts, ".*")
		found := false
		for _, a := range alts {
			if a == alt {
				found = true
			}
		}
		if !found {
			alts = append(alts, alt)
		}
	}
	if len(alts) == 0 {
		return "^$"
	}
	if len(alts) == 1 {
		return "^" + alts[0] + "$"
	}
	return "^(?:" + strings.Join(alts, "|") + ")$"
}

// assertions translates a user step's assertions; the comments after the
// last one are returned apart.
func (tb *testBuilder) assertions(list []*node) ([]*syntax.Assertion, []string) {
	im := tb.im
	var out []*syntax.Assertion
	var pending []string
	keep := func(a *syntax.Assertion) {
		a.Comments = pending
		out = append(out, a)
		pending = nil
	}
	drop := func(a *node, fix, format string, args ...any) {
		pending = append(pending, commentItem(rasaTree(a))...)
		if format != "" {
			im.rep.add(a.at, "test", StatusCommented, tb.out, fix, format, args...)
		}
	}
	// The responses the step's bot says: a slot value checked with its
	// own rejection's response is one Rasa stored before rejecting it.
	uttered := map[string]bool{}
	for _, a := range list {
		if a.kind == kMap && len(a.keys) == 1 && a.keys[0] == "bot_uttered" {
			uttered[a.vals[0].get("utter_name").str()] = true
		}
	}
	for _, a := range list {
		if a.kind != kMap || len(a.keys) != 1 {
			im.sum.Assertions.add(false)
			drop(a, "write one assertion per item", "an assertion must be a mapping with one key")
			continue
		}
		key, v := a.keys[0], a.vals[0]
		before := len(im.rep.items)
		switch key {
		case "flow_started", "flow_completed", "flow_cancelled":
			flow := v.str()
			if v.kind == kMap {
				flow = v.get("flow_id").str()
			}
			if !tb.knownFlow(flow) {
				drop(a, "import the flow, or remove the assertion", "the assertion names the flow %q, which the imported project does not have", flow)
				break
			}
			if isPattern(flow) && !ir.IsPattern(flow) {
				drop(a, "remove the assertion, or start the flow from one of yours", "the assertion names Rasa's pattern %q, which soni does not have: nothing starts the imported flow", flow)
				break
			}
			if v.kind == kMap && v.has("flow_step_id") {
				sid := v.get("flow_step_id").str()
				if soni, ok := im.stepIDs[flow][sid]; ok {
					keep(&syntax.Assertion{Kind: key, Text: flow, StepID: soni})
					break
				}
				drop(a, "name one of the flow's step ids", "the assertion names the step %q, which is no step id of flow %q", sid, flow)
				break
			}
			keep(&syntax.Assertion{Kind: key, Text: flow})
		case "slot_was_set", "slot_was_not_set":
			check := &syntax.Assertion{Kind: key}
			for _, it := range v.list() {
				name := it.get("name").str()
				if val := it.get("value"); key == "slot_was_set" && val != nil && val.kind != kNull && tb.rejectedHere(name, uttered) {
					pending = append(pending, commentItem(keyed(key, listOf(rasaTree(it))))...)
					im.rep.add(it.at, "test", StatusCommented, tb.out, "nothing: the rejection's response is still checked",
						"the check that %q was set comes with its rejection's response: Rasa stores a rejected value before it resets it, soni never stores it", name)
					continue
				}
				if tb.knownSlot(name, it.at) {
					sv := syntax.SlotValue{Slot: name}
					if it.has("value") {
						sv.Value, sv.HasValue = it.get("value").value(), true
					}
					check.Slots = append(check.Slots, sv)
				} else {
					pending = append(pending, commentItem(keyed(key, listOf(rasaTree(it))))...)
				}
			}
			if len(check.Slots) > 0 {
				keep(check)
			}
		case "action_executed":
			name := v.str()
			switch {
			case im.responses[name] != nil || rasaResponses[name] != "":
				if c, _ := tb.utterCheck(name, v.at); c != nil {
					keep(c.assertion("bot_uttered"))
				}
				im.rep.add(a.at, "test", StatusApproximated, tb.out, "nothing",
					"action_executed %q checks a response: soni says it with a say step, so the check is that the bot said it", name)
			case im.actionsUsed[name] != nil:
				keep(&syntax.Assertion{Kind: key, Text: name})
			default:
				drop(a, "remove the assertion, or check what the action does", "the assertion expects the action %q, which no imported flow runs", name)
			}
		case "bot_uttered", "bot_did_not_utter":
			tb.botUttered(key, a, v, keep, drop)
		case "pattern_clarification_contains":
			var names []string
			var unknown []string
			for _, it := range v.list() {
				if !tb.flowTitled(it.str()) {
					unknown = append(unknown, strconv.Quote(it.str()))
				}
				names = append(names, it.str())
			}
			switch {
			case !im.f.patterns:
				drop(a, "check the bot's question with bot_uttered text_matches instead", "the assertion %q needs soni's clarification pattern", key)
			case len(names) == 0:
				drop(a, "list the flows the clarification offers", "the assertion %q names no flow", key)
			case len(unknown) > 0:
				drop(a, "import the flows, or remove them from the assertion", "the assertion %q names %s, which the imported project has no flow for", key, strings.Join(unknown, ", "))
			default:
				keep(&syntax.Assertion{Kind: key, Names: names})
			}
		case "generative_response_is_relevant", "generative_response_is_grounded":
			drop(a, "check the bot's reply with bot_uttered text_matches instead", "the assertion %q has no soni equivalent (soni's tests never call a model)", key)
		default:
			drop(a, "write the check with the assertions of docs/testing.md, or remove it", "the assertion %q has no soni equivalent", key)
		}
		im.sum.Assertions.add(len(im.rep.items) == before)
	}
	return out, pending
}

// rejectedHere reports whether one of the responses a test step's bot
// says is a rejection of the slot in the domain (validation: rejections).
func (tb *testBuilder) rejectedHere(slot string, uttered map[string]bool) bool {
	si := tb.im.slots[slot]
	if si == nil || si.n == nil {
		return false
	}
	for _, r := range si.n.get("validation").get("rejections").list() {
		if u := r.get("utter").str(); u != "" && uttered[u] {
			return true
		}
	}
	return false
}

// botUttered translates a bot_uttered or bot_did_not_utter assertion
// (key). A response checked by its text becomes a check of its own.
func (tb *testBuilder) botUttered(key string, a, v *node, keep func(*syntax.Assertion), drop func(*node, string, string, ...any)) {
	im := tb.im
	m := &syntax.Assertion{Kind: key}
	var extra []*syntax.Assertion
	for i, k := range v.keys {
		x := v.vals[i]
		switch k {
		case "utter_name":
			c, _ := tb.utterCheck(x.str(), x.at)
			if c == nil {
				drop(&node{kind: kMap, at: x.at, keys: []string{key}, vals: []*node{{kind: kMap, at: x.at, keys: []string{"utter_name"}, vals: []*node{x}}}}, "", "")
				continue
			}
			if c.response != "" {
				m.Response = x.str()
			} else {
				extra = append(extra, c.assertion(key))
			}
		case "text_matches":
			m.TextMatches, m.HasTextMatches = x.str(), true
		case "buttons":
			if im.f.buttons {
				m.HasButtons, m.Buttons = true, []syntax.TestButton{}
				for _, b := range x.list() {
					m.Buttons = append(m.Buttons, syntax.TestButton{Title: b.get("title").str(), Payload: b.get("payload").str()})
				}
				continue
			}
			drop(&node{kind: kMap, at: x.at, keys: []string{key}, vals: []*node{{kind: kMap, at: x.at, keys: []string{"buttons"}, vals: []*node{x}}}},
				"check the reply's text with text_matches", "the assertion checks the reply's buttons, which soni's tests cannot check yet")
		default:
			drop(a, "check the reply with text_matches", "%s %q has no soni equivalent", key, k)
		}
	}
	if m.Response != "" || m.HasTextMatches || m.HasButtons {
		keep(m)
	}
	for _, e := range extra {
		keep(e)
	}
}
