package compiler

import (
	"sort"
	"strings"
	"time"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
	"github.com/soni-dev/soni/values"
)

// lower turns a checked project into IR. It runs only when the checks found
// no errors, so every target resolves.
func lower(p *project) *ir.Program {
	prog := &ir.Program{IRVersion: ir.Version, Settings: lowerSettings(p)}
	for _, s := range p.Slots {
		if p.slots[s.Name.V] == s {
			prog.Slots = append(prog.Slots, lowerSlot(s))
		}
	}
	sort.Slice(prog.Slots, func(i, j int) bool { return prog.Slots[i].Name < prog.Slots[j].Name })
	for _, a := range p.Actions {
		if p.actions[a.Name.V] != a {
			continue
		}
		act := &ir.Action{Name: a.Name.V, Description: a.Description.V, Pos: a.Pos, Run: a.Run}
		for _, s := range a.Inputs {
			act.Inputs = append(act.Inputs, s.V)
		}
		for _, s := range a.Required {
			act.Required = append(act.Required, s.V)
		}
		for _, s := range a.Outputs {
			act.Outputs = append(act.Outputs, s.V)
		}
		for _, s := range a.RequiredOutputs {
			act.RequiredOutputs = append(act.RequiredOutputs, s.V)
		}
		prog.Actions = append(prog.Actions, act)
	}
	sort.Slice(prog.Actions, func(i, j int) bool { return prog.Actions[i].Name < prog.Actions[j].Name })
	for _, a := range p.Validators {
		if p.validators[a.Name.V] == a {
			prog.Validators = append(prog.Validators, &ir.Action{Name: a.Name.V, Description: a.Description.V, Pos: a.Pos, Run: a.Run})
		}
	}
	sort.Slice(prog.Validators, func(i, j int) bool { return prog.Validators[i].Name < prog.Validators[j].Name })
	for _, f := range p.Flows {
		if p.flows[f.Name.V] == f {
			prog.Flows = append(prog.Flows, lowerFlow(p, f))
		}
	}
	sort.Slice(prog.Flows, func(i, j int) bool { return prog.Flows[i].Name < prog.Flows[j].Name })
	for _, r := range p.Responses {
		if p.responses[r.Name.V] == r {
			prog.Responses = append(prog.Responses, lowerResponse(r))
		}
	}
	sort.Slice(prog.Responses, func(i, j int) bool { return prog.Responses[i].Name < prog.Responses[j].Name })
	return prog
}

// lowerUnderstanding reads the understanding block (the schema checked
// its shape).
func lowerUnderstanding(v any) *ir.Understanding {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	u := &ir.Understanding{}
	u.Mode, _ = m["mode"].(string)
	if lex, ok := m["lexicon"].(map[string]any); ok {
		for word, list := range lex {
			items, _ := list.([]any)
			for _, it := range items {
				if s, ok := it.(string); ok {
					if u.Lexicon == nil {
						u.Lexicon = map[string][]string{}
					}
					u.Lexicon[word] = append(u.Lexicon[word], s)
				}
			}
		}
	}
	if l, ok := m["llm"].(map[string]any); ok {
		u.BaseURL, _ = l["base_url"].(string)
		u.Model, _ = l["model"].(string)
		u.APIKeyEnv, _ = l["api_key_env"].(string)
		u.Prompt, _ = l["prompt"].(string)
		u.ResponseFormat, _ = l["response_format"].(string)
		switch t := l["timeout"].(type) {
		case string:
			u.Timeout = t
		default:
			if f, ok := values.Float64(t); ok && f > 0 {
				u.Timeout = time.Duration(f * float64(time.Second)).String()
			}
		}
		if n, ok := toInt(l["max_history"]); ok {
			u.MaxHistory = n
		}
	}
	return u
}

// settingDuration reads session_expiration: a Go duration ("60m", "2h")
// or, as in Rasa, a number of minutes.
func settingDuration(v any) (time.Duration, bool) {
	switch x := v.(type) {
	case string:
		d, err := time.ParseDuration(strings.TrimSpace(x))
		return d, err == nil
	default:
		if f, ok := values.Float64(x); ok && f >= 0 && f < 1e9 {
			return time.Duration(f * float64(time.Minute)), true
		}
	}
	return 0, false
}

func lowerSettings(p *project) ir.Settings {
	s := ir.DefaultSettings()
	for _, st := range p.Settings {
		str, isStr := st.Value.(string)
		n, isNum := toInt(st.Value)
		switch st.Key.V {
		case "idle_message":
			if isStr {
				s.IdleMessage = str
			}
		case "fallback_message":
			if isStr {
				s.FallbackMessage = str
			}
		case "cancel_message":
			if isStr {
				s.CancelMessage = str
			}
		case "action_error_message":
			if isStr {
				s.ActionErrorMessage = str
			}
		case "max_steps_per_turn":
			if isNum {
				s.MaxStepsPerTurn = n
			}
		case "max_stack_depth":
			if isNum {
				s.MaxStackDepth = n
			}
		case "history_size":
			if isNum {
				s.HistorySize = n
			}
		case "session_expiration":
			if d, ok := settingDuration(st.Value); ok && d > 0 {
				s.SessionExpiration = d.String()
			}
		case "chitchat_message":
			if isStr {
				s.ChitchatMessage = str
			}
		case "handoff":
			if isStr {
				s.Handoff = str
			}
		case "clarify_message":
			if isStr {
				s.ClarifyMessage = str
			}
		case "understanding":
			s.Understanding = lowerUnderstanding(st.Value)
		case "date_order":
			if isStr {
				s.DateOrder = str
			}
		case "language":
			if isStr {
				s.Language = str
			}
		case "version_policy":
			if isStr {
				s.VersionPolicy = str
			}
		case "carry_over_slots":
			if b, ok := st.Value.(bool); ok {
				s.DropSlotsOnExpiry = !b
			}
		default:
			if s.Extra == nil {
				s.Extra = map[string]any{}
			}
			s.Extra[st.Key.V] = st.Value
		}
	}
	return s
}

func toInt(v any) (int, bool) {
	switch x := v.(type) {
	case int64:
		return int(x), true
	case uint64:
		return int(x), true
	case float64:
		return int(x), x == float64(int(x))
	}
	return 0, false
}

func lowerSlot(s *syntax.Slot) *ir.Slot {
	out := &ir.Slot{
		Name:        s.Name.V,
		Type:        s.Resolved,
		Description: s.Description.V,
		Label:       s.Label.V,
		Values:      s.Values,
		Min:         s.Min,
		Max:         s.Max,
		Pattern:     s.Pattern.V,
		MinItems:    s.MinItems.V,
		MaxItems:    s.MaxItems.V,
		Pos:         s.Pos,
	}
	if s.Validation.Set {
		out.Validation = &ir.Expr{Src: s.Validation.V, Pos: s.Validation.Pos}
	}
	out.InvalidMessage = msgOf(s.Invalid, s.InvalidResp)
	if s.HasInitial && s.Flow == nil {
		out.Initial = initialValue(s, out)
	}
	return out
}

func lowerFlow(p *project, f *syntax.Flow) *ir.Flow {
	out := &ir.Flow{Name: f.Name.V, Label: f.Label.V, Description: f.Description.V, MinConfidence: f.MinConfidence, If: exprOf(f.If), Builtin: f.Builtin, Pos: f.Pos}
	for _, t := range f.Triggers {
		out.Triggers = append(out.Triggers, t.V)
	}
	for _, s := range f.Slots {
		if f.SlotsByName[s.Name.V] == s && p.slots[s.Name.V] == nil {
			out.Slots = append(out.Slots, lowerSlot(s))
		}
	}
	sort.Slice(out.Slots, func(i, j int) bool { return out.Slots[i].Name < out.Slots[j].Name })
	out.Nodes = make([]*ir.Node, len(f.Steps))
	for i, s := range f.Steps {
		out.Nodes[i] = lowerStep(p, f, s)
	}
	return out
}

func tmplOf(s syntax.Str) *ir.Template {
	if !s.Set {
		return nil
	}
	return &ir.Template{Src: s.V, Pos: s.Pos}
}

// msgOf lowers a message field: a template, or a response named by
// {response: NAME} or a step's response key.
func msgOf(text, resp syntax.Str) *ir.Template {
	if resp.Set {
		return &ir.Template{Response: resp.V, Pos: resp.Pos}
	}
	return tmplOf(text)
}

func exprOf(s syntax.Str) *ir.Expr {
	if !s.Set {
		return nil
	}
	return &ir.Expr{Src: s.V, Pos: s.Pos}
}

func ptr(i int) *int { return &i }

func flowOptPtr(f *syntax.Flow, s syntax.Str) *int {
	if i, ok := flowOptTarget(f, s); ok {
		return ptr(i)
	}
	return nil
}

func lowerStep(p *project, f *syntax.Flow, s *syntax.Step) *ir.Node {
	n := &ir.Node{ID: s.ID.V, Kind: s.Kind, Pos: s.Pos, Next: flowNext(f, s)}
	for _, r := range s.Replaces {
		n.Replaces = append(n.Replaces, r.V)
	}
	switch n.Kind {
	case ir.KindSay:
		n.Message = msgOf(s.Message, s.Response)
	case ir.KindCollect:
		n.Message = msgOf(s.Message, s.Response)
		n.Slot = s.Slot.V
		n.AskAction = s.AskAction.V
		if n.Message == nil && n.AskAction == "" {
			// As in Rasa: a collect with no message asks with the
			// response utter_ask_SLOT (check_messages reports its absence).
			n.Message = &ir.Template{Response: ir.AskResponse(s.Slot.V), Pos: s.Pos}
		}
		if s.Validator.Set {
			switch {
			case ir.IsBuiltinValidator(s.Validator.V):
				n.Validator = &ir.Validator{Builtin: s.Validator.V}
			case p.namedValidator(f, s.Validator.V):
				n.Validator = &ir.Validator{Name: s.Validator.V}
			default:
				n.Validator = &ir.Validator{Expr: exprOf(s.Validator)}
			}
		}
		n.ErrorMessage = msgOf(s.ErrorMessage, s.ErrorResp)
		n.Force = s.Force
		n.MaxAttempts = s.MaxAttempts
		n.OnInvalid = flowOptPtr(f, s.OnInvalid)
	case ir.KindSet:
		n.Condition = exprOf(s.Condition)
		for _, a := range s.Assign {
			as := ir.Assign{Slot: a.Slot.V, Kind: a.Kind, Value: a.Value}
			switch a.Kind {
			case ir.AssignTemplate:
				as.Template = tmplOf(a.Src)
			case ir.AssignExpr:
				as.Expr = exprOf(a.Src)
			}
			n.Assign = append(n.Assign, as)
		}
	case ir.KindBranch:
		n.Slot = s.Slot.V
		n.Evaluate = exprOf(s.Evaluate)
		for _, c := range s.Cases {
			n.Cases = append(n.Cases, ir.Case{Pattern: strings.TrimSpace(c.Pattern.V), Target: flowTarget(f, c.Target.V)})
		}
	case ir.KindWhile:
		n.Condition = exprOf(s.Condition)
		n.Body = ptr(flowWhileBody(f, s))
		n.Exit = ptr(flowWhileExit(f, s))
		n.Next = *n.Exit
	case ir.KindAction:
		n.Action = s.Call.V
		for _, m := range s.MapOutputs {
			n.MapOutputs = append(n.MapOutputs, ir.Mapping{Output: m.Output.V, Slot: m.Slot.V})
		}
		n.OnError = flowOptPtr(f, s.OnError)
	case ir.KindLink, ir.KindCall:
		n.Target = s.Target.V
	case ir.KindConfirm:
		n.Slot = s.Slot.V
		n.Message = msgOf(s.Message, s.Response)
		n.OnConfirm = flowOptPtr(f, s.OnConfirm)
		n.OnDeny = flowOptPtr(f, s.OnDeny)
	}
	return n
}
