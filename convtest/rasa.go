package convtest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/internal/yamlpos"
	"github.com/soni-dev/soni/ir"
)

// Rasa's end-to-end test format (Rasa Pro, "assertions") read with the
// same meaning: a user step's assertions are checked against what its
// turn produced, and metadata is sent with the turns. What soni has no
// equivalent for is refused with T017, saying what to write instead.

// assertionKeys are the assertion kinds soni reads.
var assertionKeys = []string{"action_executed", "bot_did_not_utter", "bot_uttered", "flow_cancelled", "flow_completed", "flow_started", "pattern_clarification_contains", "slot_was_not_set", "slot_was_set"}

// unsupportedAssertions are Rasa's assertions soni has no equivalent for,
// with what to write instead.
var unsupportedAssertions = map[string]string{
	"generative_response_is_relevant": "generative assertions need an LLM judge, and soni's tests never call a model: check the reply with bot_uttered: {text_matches: REGEX}",
	"generative_response_is_grounded": "generative assertions need an LLM judge, and soni's tests never call a model: check the reply with bot_uttered: {text_matches: REGEX}",
}

// unsupported reports a construct of Rasa's format that soni has no
// equivalent for.
func (d *decoder) unsupported(pos diag.Pos, format string, args ...any) {
	d.errorf(pos, CodeUnsupported, format, args...)
}

// rasaUserStep reads a user step's assertions, assertion_order_enabled and
// metadata.
func (d *decoder) rasaUserStep(st *Step, assertions, ordered, metadata *ast.MappingValueNode) {
	if ordered != nil {
		b, ok := yamlpos.Unwrap(ordered.Value).(*ast.BoolNode)
		if !ok {
			d.errorf(d.pos(ordered.Value), CodeWrongType, "assertion_order_enabled must be true or false, not %s", yamlpos.KindWord(ordered.Value))
		} else {
			st.Ordered = b.Value
		}
	}
	if metadata != nil {
		if s, ok := d.scalar(metadata.Value, "metadata of a user step"); ok {
			st.Metadata = NameRef{Name: s, Pos: d.pos(metadata.Value)}
		}
	}
	if assertions == nil || isNull(assertions.Value) {
		return
	}
	seq, ok := d.sequence(assertions.Value, "assertions")
	if !ok {
		return
	}
	for _, item := range seq.Values {
		if a := d.assertion(item); a != nil {
			st.Assertions = append(st.Assertions, a)
			st.refs = append(st.refs, a.refs...)
		}
	}
}

// assertion reads one entry of assertions: a mapping with one key.
func (d *decoder) assertion(n ast.Node) *Step {
	pairs, ok := d.mapping(n, "an assertion")
	if !ok {
		return nil
	}
	if len(pairs) != 1 {
		d.errorf(d.pos(n), CodeWrongType, "an assertion has exactly one key, such as flow_started: NAME; write one assertion per list item")
		return nil
	}
	mv := pairs[0]
	key := keyOf(mv)
	if why, ok := unsupportedAssertions[key]; ok {
		d.unsupported(d.pos(mv.Key), "assertion %q has no equivalent in soni: %s", key, why)
		return nil
	}
	st := &Step{Kind: StepKind(key), Pos: d.pos(mv.Key), value: refOf(mv.Value)}
	switch st.Kind {
	case StepFlowStarted, StepFlowCompleted, StepFlowCancelled:
		if _, isMap := yamlpos.Unwrap(mv.Value).(*ast.MappingNode); isMap || isMappingValue(mv.Value) {
			fields, ok := d.mapping(mv.Value, key)
			if !ok {
				return nil
			}
			for _, f := range fields {
				switch keyOf(f) {
				case "flow_id":
					if s, ok := d.scalar(f.Value, key+".flow_id"); ok {
						st.Text = s
						st.refs = append(st.refs, ref{kind: "flow", name: s, pos: d.pos(f.Value)})
					}
				case "flow_step_id":
					if s, ok := d.scalar(f.Value, key+".flow_step_id"); ok {
						st.FlowStepID = s
						st.refs = append(st.refs, ref{kind: "step", name: s, pos: d.pos(f.Value)})
					}
				default:
					d.unknownKey(f, key, []string{"flow_id", "flow_step_id"})
					return nil
				}
			}
			if st.Text == "" {
				d.errorf(st.Pos, CodeMissingField, "%s needs flow_id: the flow's name", key)
				return nil
			}
			for i := range st.refs {
				if st.refs[i].kind == "step" {
					st.refs[i].flow = st.Text
				}
			}
			return st
		}
		s, ok := d.scalar(mv.Value, key)
		if !ok {
			return nil
		}
		st.Text = s
		st.refs = append(st.refs, ref{kind: "flow", name: s, pos: d.pos(mv.Value)})
	case StepActionExecuted:
		s, ok := d.scalar(mv.Value, key)
		if !ok {
			return nil
		}
		st.Text = s
		st.refs = append(st.refs, ref{kind: "action", name: s, pos: d.pos(mv.Value)})
	case StepClarification:
		seq, ok := d.sequence(mv.Value, key)
		if !ok {
			return nil
		}
		for _, item := range seq.Values {
			if s, ok := d.scalar(item, "a flow of "+key); ok {
				st.Names = append(st.Names, s)
			}
		}
	case StepSlotWasSet, StepSlotWasNotSet:
		st.Slots = d.namedSlots(mv.Value, key)
		if st.Slots == nil {
			return nil
		}
		for _, sv := range st.Slots {
			st.refs = append(st.refs, ref{kind: "slot", name: sv.Slot, pos: sv.Pos})
		}
	case StepBotUttered, StepBotDidNotUtter:
		fields, ok := d.mapping(mv.Value, key)
		if !ok {
			return nil
		}
		for _, f := range fields {
			switch keyOf(f) {
			case "text_matches":
				s, ok := d.scalar(f.Value, key+".text_matches")
				if !ok {
					return nil
				}
				re, err := regexp.Compile(s)
				if err != nil {
					d.errorf(d.pos(f.Value), CodeBadRegex, "%s.text_matches %q is not a valid regular expression: %s", key, s, regexpReason(err))
					return nil
				}
				st.Text, st.Regexp = s, re
			case "utter_name":
				s, ok := d.scalar(f.Value, key+".utter_name")
				if !ok {
					return nil
				}
				st.Response = s
				st.refs = append(st.refs, ref{kind: "response", name: s, pos: d.pos(f.Value)})
			case "buttons":
				bs, ok := d.buttons(f.Value, key)
				if !ok {
					return nil
				}
				st.Buttons, st.HasButtons = bs, true
			default:
				d.unknownKey(f, key, []string{"buttons", "text_matches", "utter_name"})
				return nil
			}
		}
		if st.Regexp == nil && st.Response == "" && !st.HasButtons {
			d.errorf(st.Pos, CodeMissingField, "%s needs utter_name: a response's name, text_matches: a regular expression for the reply, or buttons", key)
			return nil
		}
	default:
		d.unknownKey(mv, "an assertion", assertionKeys)
		return nil
	}
	return st
}

// buttons reads the buttons of bot_uttered or bot_did_not_utter (key):
// [{title, payload}].
func (d *decoder) buttons(n ast.Node, key string) ([]ir.Button, bool) {
	seq, ok := d.sequence(n, key+".buttons")
	if !ok {
		return nil, false
	}
	out := []ir.Button{}
	for _, item := range seq.Values {
		fields, ok := d.mapping(item, "a button")
		if !ok {
			return nil, false
		}
		var b ir.Button
		for _, f := range fields {
			s, ok := d.scalar(f.Value, "a button's "+keyOf(f))
			if !ok {
				return nil, false
			}
			switch keyOf(f) {
			case "title":
				b.Title = s
			case "payload":
				b.Payload = s
			default:
				d.unknownKey(f, "a button", []string{"payload", "title"})
				return nil, false
			}
		}
		out = append(out, b)
	}
	return out, true
}

func isMappingValue(n ast.Node) bool {
	_, ok := yamlpos.Unwrap(n).(*ast.MappingValueNode)
	return ok
}

// namedSlots reads Rasa's slot list, [{name: SLOT, value: VALUE}] (value
// optional); a bare slot name is accepted too.
func (d *decoder) namedSlots(n ast.Node, what string) []SlotValue {
	seq, ok := d.sequence(n, what)
	if !ok {
		return nil
	}
	out := []SlotValue{}
	for _, item := range seq.Values {
		if s, ok := yamlpos.ScalarText(item); ok {
			out = append(out, SlotValue{Slot: s, Pos: d.pos(item)})
			continue
		}
		fields, ok := d.mapping(item, "an entry of "+what)
		if !ok {
			continue
		}
		sv := SlotValue{Pos: d.pos(item)}
		for _, f := range fields {
			switch keyOf(f) {
			case "name":
				if s, ok := d.scalar(f.Value, what+".name"); ok {
					sv.Slot, sv.Pos = s, d.pos(f.Value)
				}
			case "value":
				if v, ok := d.value(f.Value); ok {
					sv.Value, sv.HasValue = v, true
				}
			default:
				d.unknownKey(f, "an entry of "+what, []string{"name", "value"})
			}
		}
		if sv.Slot == "" {
			d.errorf(sv.Pos, CodeMissingField, "an entry of %s needs name: the slot's name", what)
			continue
		}
		out = append(out, sv)
	}
	return out
}

// metadataSection reads the file's metadata: Rasa's list of one-key
// mappings (- NAME: {KEY: VALUE}), or a mapping of names.
func (d *decoder) metadataSection(n ast.Node) {
	var pairs []*ast.MappingValueNode
	if seq, ok := yamlpos.Unwrap(n).(*ast.SequenceNode); ok {
		for _, item := range seq.Values {
			if ps, ok := d.mapping(item, "an entry of metadata"); ok {
				pairs = append(pairs, ps...)
			}
		}
	} else if ps, ok := d.mapping(n, "metadata"); ok {
		pairs = ps
	}
	for _, mv := range pairs {
		name := keyOf(mv)
		if _, dup := d.f.Metadata[name]; dup {
			d.errorf(d.pos(mv.Key), CodeDuplicateName, "metadata %q is defined twice", name)
			continue
		}
		m := map[string]any{}
		if !isNull(mv.Value) {
			if _, ok := d.mapping(mv.Value, "metadata "+strconv.Quote(name)); !ok {
				continue
			}
			v, ok := d.value(mv.Value)
			if !ok {
				continue
			}
			m = v.(map[string]any)
		}
		if d.f.Metadata == nil {
			d.f.Metadata = map[string]map[string]any{}
		}
		d.f.Metadata[name] = m
	}
}

// validatorStubs reads stub_validators: NAME or CASE::NAME to a verdict
// ({valid, value?, message?}) or to error: MESSAGE, a validator that fails.
func (d *decoder) validatorStubs(n ast.Node) {
	pairs, ok := d.mapping(n, "stub_validators")
	if !ok {
		return
	}
	for _, mv := range pairs {
		key := keyOf(mv)
		st := &Stub{Action: key, Pos: d.pos(mv.Key), Outputs: map[string]any{}}
		if c, v, found := cutCase(key); found {
			st.Case, st.Action = c, v
		}
		if st.Action == "" || st.Case == "" && len(key) > 0 && key[0] == ':' {
			d.errorf(st.Pos, CodeWrongType, "validator stub %q names no validator: write VALIDATOR or CASE::VALIDATOR", key)
			continue
		}
		fields, ok := d.mapping(mv.Value, "validator stub "+strconv.Quote(key))
		if !ok {
			continue
		}
		hasValid := false
		for _, f := range fields {
			switch k := keyOf(f); k {
			case "valid":
				b, ok := yamlpos.Unwrap(f.Value).(*ast.BoolNode)
				if !ok {
					d.errorf(d.pos(f.Value), CodeWrongType, "valid of validator stub %q must be true or false, not %s", key, yamlpos.KindWord(f.Value))
					continue
				}
				st.Outputs["valid"], hasValid = b.Value, true
			case "value":
				if v, ok := d.value(f.Value); ok {
					st.Outputs["value"] = v
				}
			case "message":
				if s, ok := d.scalar(f.Value, "message of validator stub "+strconv.Quote(key)); ok {
					st.Outputs["message"] = s
				}
			case "error":
				if s, ok := d.scalar(f.Value, "error of validator stub "+strconv.Quote(key)); ok {
					st.Error, st.Fails = s, true
					if s == "" {
						st.Error = "stubbed failure"
					}
				}
			default:
				d.unknownKey(f, "validator stub "+strconv.Quote(key), []string{"valid", "value", "message", "error"})
			}
		}
		switch {
		case st.Fails && hasValid:
			d.errorf(st.Pos, CodeUnknownKey, "validator stub %q has both valid and error: give a verdict (valid, value, message) or error for a validator that fails", key)
			continue
		case !st.Fails && !hasValid:
			d.errorf(st.Pos, CodeMissingField, "validator stub %q needs valid: true or false (or error: MESSAGE)", key)
			continue
		}
		d.f.ValidatorStubs = append(d.f.ValidatorStubs, st)
	}
}

// cutCase splits CASE::NAME.
func cutCase(key string) (string, string, bool) {
	for i := 0; i+1 < len(key); i++ {
		if key[i] == ':' && key[i+1] == ':' {
			return key[:i], key[i+2:], true
		}
	}
	return "", key, false
}

// metadataOf is the metadata a turn sends: the case's, then the step's
// over it (nil when neither names any).
func metadataOf(f *File, c *Case, user *Step) map[string]any {
	if c.Metadata.Name == "" && user.Metadata.Name == "" {
		return nil
	}
	out := map[string]any{}
	for k, v := range f.Metadata[c.Metadata.Name] {
		out[k] = v
	}
	for k, v := range f.Metadata[user.Metadata.Name] {
		out[k] = v
	}
	return out
}

// describe names an assertion for a message.
func describe(st *Step) string {
	switch st.Kind {
	case StepSlotWasSet, StepSlotWasNotSet:
		return fmt.Sprintf("%s %s", st.Kind, slotNames(st.Slots))
	case StepClarification:
		return fmt.Sprintf("%s %s", st.Kind, strings.Join(st.Names, ", "))
	case StepBotUttered, StepBotDidNotUtter:
		var parts []string
		if st.Response != "" {
			parts = append(parts, st.Response)
		}
		if st.Regexp != nil {
			parts = append(parts, "/"+st.Text+"/")
		}
		if st.HasButtons {
			parts = append(parts, "with buttons "+buttonList(st.Buttons))
		}
		return string(st.Kind) + " " + strings.Join(parts, " ")
	}
	if st.FlowStepID != "" {
		return fmt.Sprintf("%s %s at step %s", st.Kind, st.Text, st.FlowStepID)
	}
	return fmt.Sprintf("%s %s", st.Kind, st.Text)
}

func slotNames(svs []SlotValue) string {
	s := ""
	for i, sv := range svs {
		if i > 0 {
			s += ", "
		}
		s += sv.Slot
	}
	return s
}
