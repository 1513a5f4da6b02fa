package syntax

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/soni-dev/soni/ir"
)

// Encode writes a project file as canonical YAML: the top-level keys in
// the order version, settings, slots, responses, actions, validators,
// flows; each definition's keys in one fixed order, then the keys the
// model has no field for (Extra) in their order; lists of names on one
// line. The comments attached to the model (decoded, or set by a writer)
// are written where they belong. Slots the compiler added (Implicit) are
// left out. The same File gives the same bytes.
func Encode(f *File) ([]byte, error) {
	doc := &Map{}
	top := newCmt(f.Comments)
	if f.Version.Set {
		top.put(doc, "version", "version", f.Version.V)
	}
	if len(f.Settings) > 0 {
		m := &Map{}
		for _, s := range f.Settings {
			n := newCmt(s.Comments)
			n.own(m, s.Key.V, encodeValueAt(s.Value, n, ""))
		}
		top.put(doc, "settings", "settings", m)
	}
	if len(f.Slots) > 0 {
		m := &Map{}
		for _, s := range f.Slots {
			if s.Implicit {
				continue
			}
			n := newCmt(s.Comments)
			n.own(m, s.Name.V, encodeSlot(s, n, false))
		}
		top.put(doc, "slots", "slots", m)
	}
	if len(f.Responses) > 0 {
		m := &Map{}
		for _, r := range f.Responses {
			n := newCmt(r.Comments)
			n.own(m, r.Name.V, encodeResponse(r))
		}
		top.put(doc, "responses", "responses", m)
	}
	for _, group := range []struct {
		key     string
		actions []*Action
	}{{"actions", f.Actions}, {"validators", f.Validators}} {
		if len(group.actions) == 0 {
			continue
		}
		m := &Map{}
		for _, a := range group.actions {
			n := newCmt(a.Comments)
			n.own(m, a.Name.V, encodeAction(a, n))
		}
		top.put(doc, group.key, group.key, m)
	}
	if len(f.Flows) > 0 {
		m := &Map{}
		for _, fl := range f.Flows {
			if fl.Builtin {
				continue
			}
			n := newCmt(fl.Comments)
			n.own(m, fl.Name.V, encodeFlow(fl, n))
		}
		top.put(doc, "flows", "flows", m)
	}
	top.extra(doc, "", f.Extra)
	if len(doc.Entries) == 0 {
		return nil, fmt.Errorf("file %q defines nothing to write", f.Name)
	}
	// The file's first comment lines are the head of its first key.
	var header []string
	if h := top.get(""); h != nil {
		header = h.Head
	}
	header = append(header, top.leftover()...)
	out := Emit(doc, header)
	for _, c := range f.Foot {
		out = append(out, commentLine(c)...)
	}
	return out, nil
}

func commentLine(c string) string {
	if c == "" {
		return "#\n"
	}
	return "# " + c + "\n"
}

// cmt writes the comments of one node of the model into the writer tree,
// and remembers which it wrote.
type cmt struct {
	c    Comments
	used map[string]bool
}

func newCmt(c Comments) *cmt { return &cmt{c: c, used: map[string]bool{}} }

// get returns the comment at rel, marking it written.
func (n *cmt) get(rel string) *Comment {
	c := n.c.Get(rel)
	if c != nil {
		n.used[rel] = true
	}
	return c
}

// leftover returns the comments at paths the encoder wrote nothing for
// (inside a value written as a whole), as lines, so that they are
// written before the node instead of lost.
func (n *cmt) leftover() []string {
	var out []string
	for _, rel := range slices.Sorted(maps.Keys(n.c)) {
		if rel == "" || n.used[rel] {
			continue
		}
		c := n.c[rel]
		out = append(out, c.Head...)
		if c.Line != "" {
			out = append(out, c.Line)
		}
		out = append(out, c.Foot...)
	}
	return out
}

// own adds the node's entry key: val to m, with the node's own comment
// and its leftover comments.
func (n *cmt) own(m *Map, key string, val any) {
	e := m.Add(key, val)
	if c := n.get(""); c != nil {
		e.Comments = append(e.Comments, c.Head...)
		e.Trailing = c.Line
		e.Comments = append(e.Comments, tail(val, c.Foot)...)
	}
	e.Comments = append(e.Comments, n.leftover()...)
}

// ownItem adds the node's item val to s, with the node's own comment and
// its leftover comments.
func (n *cmt) ownItem(s *Seq, val any) {
	it := s.Add(val)
	if c := n.get(""); c != nil {
		it.Comments = append(it.Comments, c.Head...)
		it.Trailing = c.Line
		it.Comments = append(it.Comments, tail(val, c.Foot)...)
	}
	it.Comments = append(it.Comments, n.leftover()...)
}

// put adds key: val to m with the comments at rel.
func (n *cmt) put(m *Map, rel, key string, val any) {
	e := m.Add(key, val)
	if c := n.get(rel); c != nil {
		e.Comments = append(e.Comments, c.Head...)
		e.Trailing = c.Line
		e.Comments = append(e.Comments, tail(val, c.Foot)...)
	}
}

// tail writes foot comments after the last entry or item of a collection
// value; it returns those a scalar cannot hold, for its head.
func tail(val any, foot []string) []string {
	switch x := val.(type) {
	case *Map:
		if len(x.Entries) > 0 {
			x.Tail = append(x.Tail, foot...)
			return nil
		}
	case *Seq:
		if len(x.Items) > 0 {
			x.Tail = append(x.Tail, foot...)
			return nil
		}
	}
	return foot
}

// str adds key: s when s is set.
func (n *cmt) str(m *Map, rel, key string, s Str) {
	if s.Set {
		n.put(m, Join(rel, key), key, s.V)
	}
}

// item adds val to s with the comments at rel.
func (n *cmt) item(s *Seq, rel string, val any) {
	it := s.Add(val)
	if c := n.get(rel); c != nil {
		it.Comments = append(it.Comments, c.Head...)
		it.Trailing = c.Line
		it.Comments = append(it.Comments, tail(val, c.Foot)...)
	}
}

// list adds key: [names] unless ss is nil (an empty list is written
// []); a list whose items have comments is written one item a line.
func (n *cmt) list(m *Map, rel, key string, ss []Str, flow bool) {
	if ss == nil {
		return
	}
	path := Join(rel, key)
	s := &Seq{Flow: flow}
	for i, x := range ss {
		n.item(s, Index(path, i), x.V)
	}
	n.put(m, path, key, s)
}

// extra adds the keys the model has no field for.
func (n *cmt) extra(m *Map, rel string, fs []Field) {
	for _, f := range fs {
		p := Join(rel, f.Key.V)
		n.put(m, p, f.Key.V, encodeValueAt(f.Value, n, p))
	}
}

// encodeValue converts generic data to the writer tree, mappings in key
// order.
func encodeValue(v any) any { return encodeValueAt(v, nil, "") }

// encodeValueAt is encodeValue for the value at rel of a node, with the
// comments n holds inside it (n nil for none).
func encodeValueAt(v any, n *cmt, rel string) any {
	switch x := v.(type) {
	case map[string]any:
		m := &Map{}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			p := Join(rel, k)
			val := encodeValueAt(x[k], n, p)
			if n == nil {
				m.Add(k, val)
			} else {
				n.put(m, p, k, val)
			}
		}
		return m
	case []any:
		s := &Seq{Flow: true}
		for i, it := range x {
			v := encodeValueAt(it, n, Index(rel, i))
			if _, ok := v.(*Map); ok {
				s.Flow = false
			}
			if _, ok := v.(*Seq); ok {
				s.Flow = false
			}
			if n == nil {
				s.Add(v)
			} else {
				n.item(s, Index(rel, i), v)
			}
		}
		return s
	}
	return v
}

// message writes a message field: a template, or {response: NAME}.
func message(n *cmt, m *Map, key string, text, resp Str) {
	switch {
	case resp.Set:
		n.put(m, key, key, &Map{Flow: true, Entries: []MapEntry{{Key: "response", Value: resp.V}}})
	case text.Set:
		n.put(m, key, key, text.V)
	}
}

func encodeSlot(s *Slot, n *cmt, named bool) *Map {
	m := &Map{Flow: s.OneLine}
	if named {
		n.str(m, "", "name", s.Name)
	}
	n.str(m, "", "type", s.Type)
	n.str(m, "", "description", s.Description)
	n.str(m, "", "label", s.Label)
	if s.ValuesSet {
		n.put(m, "values", "values", encodeValues(s.Values, n))
	}
	n.str(m, "", "pattern", s.Pattern)
	n.str(m, "", "validation", s.Validation)
	message(n, m, "invalid_message", s.Invalid, s.InvalidResp)
	if s.Min != nil {
		n.put(m, "min", "min", *s.Min)
	}
	if s.Max != nil {
		n.put(m, "max", "max", *s.Max)
	}
	if s.MinItems.Set {
		n.put(m, "min_items", "min_items", s.MinItems.V)
	}
	if s.MaxItems.Set {
		n.put(m, "max_items", "max_items", s.MaxItems.V)
	}
	if s.HasInitial {
		n.put(m, "initial", "initial", encodeValueAt(s.Initial, n, "initial"))
	}
	n.extra(m, "", s.Extra)
	return m
}

// encodeValues writes a slot's values: a list of names, or a mapping when
// a value has a label or synonyms.
func encodeValues(vs []ir.Value, n *cmt) any {
	rich := false
	for _, v := range vs {
		if v.Label != "" || len(v.Synonyms) > 0 {
			rich = true
		}
	}
	if !rich {
		s := &Seq{Flow: true}
		for _, v := range vs {
			s.Add(v.Value)
		}
		return s
	}
	m := &Map{}
	for _, v := range vs {
		syns := &Seq{Flow: true}
		for _, x := range v.Synonyms {
			syns.Add(x)
		}
		if v.Label == "" {
			n.put(m, "values."+v.Value, v.Value, syns)
			continue
		}
		vm := &Map{Flow: true}
		vm.Add("label", v.Label)
		if len(v.Synonyms) > 0 {
			vm.Add("synonyms", syns)
		}
		n.put(m, "values."+v.Value, v.Value, vm)
	}
	return m
}

func encodeResponse(r *Response) *Seq {
	s := &Seq{}
	for _, v := range r.Variations {
		n := newCmt(v.Comments)
		m := &Map{Flow: v.OneLine}
		n.str(m, "", "text", v.Text)
		n.str(m, "", "image", v.Image)
		n.str(m, "", "channel", v.Channel)
		if len(v.Condition) > 0 {
			cs := &Seq{}
			for _, c := range v.Condition {
				cm := &Map{Flow: true}
				if c.Type.Set {
					cm.Add("type", c.Type.V)
				}
				cm.Add("name", c.Name.V)
				cm.Add("value", encodeValue(c.Value))
				cs.Add(cm)
			}
			n.put(m, "condition", "condition", cs)
		}
		if len(v.Buttons) > 0 {
			bs := &Seq{}
			for _, b := range v.Buttons {
				bm := &Map{}
				bm.Add("title", b.Title.V)
				if b.Payload.Set {
					bm.Add("payload", b.Payload.V)
				}
				bs.Add(bm)
			}
			n.put(m, "buttons", "buttons", bs)
		}
		if v.Custom != nil {
			n.put(m, "custom", "custom", encodeValueAt(v.Custom, n, "custom"))
		}
		if len(v.Translation) > 0 {
			tm := &Map{}
			for _, t := range v.Translation {
				n.put(tm, "translation."+t.Lang.V, t.Lang.V, t.Text.V)
			}
			n.put(m, "translation", "translation", tm)
		}
		n.extra(m, "", v.Extra)
		n.ownItem(s, m)
	}
	return s
}

func encodeAction(a *Action, n *cmt) *Map {
	m := &Map{}
	n.str(m, "", "description", a.Description)
	n.list(m, "", "inputs", a.Inputs, true)
	n.list(m, "", "required", a.Required, true)
	n.list(m, "", "outputs", a.Outputs, true)
	n.list(m, "", "required_outputs", a.RequiredOutputs, true)
	if a.Run != nil {
		n.put(m, "run", "run", encodeRun(a.Run))
	}
	n.extra(m, "", a.Extra)
	return m
}

func encodeRun(r *ir.Run) *Map {
	m := &Map{}
	if len(r.Exec) > 0 {
		s := &Seq{Flow: true}
		for _, x := range r.Exec {
			s.Add(x)
		}
		m.Add("exec", s)
	}
	if len(r.Env) > 0 {
		s := &Seq{Flow: true}
		for _, x := range r.Env {
			s.Add(x)
		}
		m.Add("env", s)
	}
	if r.Timeout != "" {
		m.Add("timeout", r.Timeout)
	}
	for _, h := range []struct {
		key string
		h   *ir.HTTP
	}{{"http", r.HTTP}, {"rasa", r.Rasa}} {
		if h.h == nil {
			continue
		}
		hm := &Map{}
		if h.h.URL != "" {
			hm.Add("url", h.h.URL)
		}
		if h.h.Timeout != "" {
			hm.Add("timeout", h.h.Timeout)
		}
		if h.h.Headers != nil {
			headers := &Map{}
			for _, k := range slices.Sorted(maps.Keys(h.h.Headers)) {
				headers.Add(k, h.h.Headers[k])
			}
			hm.Add("headers", headers)
		}
		if h.h.Retry != nil {
			rm := &Map{Flow: true}
			if h.h.Retry.Attempts != 0 {
				rm.Add("attempts", h.h.Retry.Attempts)
			}
			if h.h.Retry.Backoff != "" {
				rm.Add("backoff", h.h.Retry.Backoff)
			}
			hm.Add("retry", rm)
		}
		m.Add(h.key, hm)
	}
	return m
}

func encodeFlow(f *Flow, n *cmt) *Map {
	m := &Map{}
	n.str(m, "", "name", f.Label)
	n.str(m, "", "description", f.Description)
	n.str(m, "", "if", f.If)
	if len(f.Triggers) > 0 || f.MinConfidence != 0 {
		t := &Map{}
		n.list(t, "trigger", "intents", f.Triggers, false)
		if f.MinConfidence != 0 {
			n.put(t, "trigger.min_confidence", "min_confidence", f.MinConfidence)
		}
		n.put(m, "trigger", "trigger", t)
	}
	var slots []*Slot
	for _, s := range f.Slots {
		if !s.Implicit {
			slots = append(slots, s)
		}
	}
	if len(slots) > 0 {
		s := &Seq{}
		for _, sl := range slots {
			sn := newCmt(sl.Comments)
			sn.ownItem(s, encodeSlot(sl, sn, true))
		}
		n.put(m, "slots", "slots", s)
	}
	main := f.Main
	if main == 0 && len(f.Steps) > 0 && !f.Steps[0].Inline {
		// A flow built by a writer: every step not marked inline is a
		// top-level step.
		for main < len(f.Steps) && !f.Steps[main].Inline {
			main++
		}
	}
	if main > 0 {
		s := &Seq{}
		for _, st := range f.Steps[:main] {
			sn := newCmt(st.Comments)
			sn.ownItem(s, encodeStep(st, sn))
		}
		n.put(m, "steps", "steps", s)
	}
	n.extra(m, "", f.Extra)
	return m
}

// groups gives a step built without NewStep its empty groups, so that its
// fields read as absent.
func groups(s *Step) *Step {
	if s.CollectFields != nil && s.SetFields != nil && s.BranchFields != nil && s.WhileFields != nil &&
		s.ActionFields != nil && s.LinkFields != nil && s.ConfirmFields != nil {
		return s
	}
	c := *s
	if c.CollectFields == nil {
		c.CollectFields = &noCollect
	}
	if c.SetFields == nil {
		c.SetFields = &noSet
	}
	if c.BranchFields == nil {
		c.BranchFields = &noBranch
	}
	if c.WhileFields == nil {
		c.WhileFields = &noWhile
	}
	if c.ActionFields == nil {
		c.ActionFields = &noAction
	}
	if c.LinkFields == nil {
		c.LinkFields = &noLink
	}
	if c.ConfirmFields == nil {
		c.ConfirmFields = &noConfirm
	}
	return &c
}

func encodeStep(s *Step, n *cmt) *Map {
	s = groups(s)
	m := &Map{Flow: s.OneLine}
	n.str(m, "", "step", s.ID)
	n.str(m, "", "type", s.Type)
	n.list(m, "", "replaces", s.Replaces, true)
	n.str(m, "", "condition", s.Condition)
	n.str(m, "", "slot", s.Slot)
	n.str(m, "", "evaluate", s.Evaluate)
	n.str(m, "", "call", s.Call)
	n.str(m, "", "target", s.Target)
	n.str(m, "", "ask_action", s.AskAction)
	n.str(m, "", "response", s.Response)
	n.str(m, "", "message", s.Message)
	n.str(m, "", "validator", s.Validator)
	message(n, m, "validation_error_message", s.ErrorMessage, s.ErrorResp)
	if s.Force {
		n.put(m, "force", "force", true)
	}
	if s.MaxAttempts != 0 {
		n.put(m, "max_attempts", "max_attempts", s.MaxAttempts)
	}
	n.str(m, "", "on_invalid", s.OnInvalid)
	if len(s.Assign) > 0 {
		am := &Map{}
		for _, a := range s.Assign {
			n.put(am, "slots."+a.Slot.V, a.Slot.V, encodeAssign(a))
		}
		n.put(m, "slots", "slots", am)
	}
	if len(s.MapOutputs) > 0 {
		om := &Map{}
		for _, o := range s.MapOutputs {
			n.put(om, "map_outputs."+o.Output.V, o.Output.V, o.Slot.V)
		}
		n.put(m, "map_outputs", "map_outputs", om)
	}
	if len(s.Cases) > 0 {
		cm := &Map{Flow: true}
		for _, c := range s.Cases {
			n.put(cm, "cases."+c.Pattern.V, c.Pattern.V, c.Target.V)
		}
		n.put(m, "cases", "cases", cm)
	}
	if len(s.Do) > 0 {
		ds := &Seq{}
		for i, d := range s.Do {
			if d.Step != nil {
				sn := newCmt(d.Step.Comments)
				sn.ownItem(ds, encodeStep(d.Step, sn))
				continue
			}
			n.item(ds, Index("do", i), d.Ref.V)
		}
		n.put(m, "do", "do", ds)
	}
	n.str(m, "", "exit_to", s.ExitTo)
	n.str(m, "", "on_error", s.OnError)
	n.str(m, "", "on_confirm", s.OnConfirm)
	n.str(m, "", "on_deny", s.OnDeny)
	n.str(m, "", "jump_to", s.JumpTo)
	n.extra(m, "", s.Extra)
	return m
}

// encodeAssign writes one value of a set step.
func encodeAssign(a *Assign) any {
	switch a.Kind {
	case ir.AssignExpr:
		return &Map{Flow: true, Entries: []MapEntry{{Key: "expr", Value: a.Src.V}}}
	case ir.AssignTemplate:
		return a.Src.V
	case ir.AssignClear:
		return nil
	}
	if s, ok := a.Value.(string); ok && strings.ContainsAny(s, "{}") {
		// A literal with braces would read back as a template.
		return s
	}
	return encodeValue(a.Value)
}
