package actions

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/soni-dev/soni/internal/jsonval"
	"github.com/soni-dev/soni/internal/text"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/vm"
)

// RasaVersion is the Rasa version a Rasa action server is told it talks
// to (the request's "version"). Rasa's SDK only compares it with its own
// to warn about a mismatch.
const RasaVersion = "3.10.0"

// RasaMessage is one message a Rasa action server asked the bot to say
// (an item of its answer's "responses"). Rasa's SDK fills every field of
// a message it sends, null or empty when unused; those count as absent.
type RasaMessage struct {
	// Text is the message's text.
	Text string `json:"text,omitempty"`
	// Response names a response of the domain to say instead ("response",
	// or the older "template").
	Response string `json:"response,omitempty"`
	// Buttons are the message's buttons, each with a "title" and a
	// "payload".
	Buttons []RasaButton `json:"buttons,omitempty"`
	// Image is the URL of an image.
	Image string `json:"image,omitempty"`
	// Custom is a channel-specific JSON payload, passed through.
	Custom any `json:"custom,omitempty"`
	// Attachment and Elements are passed through like Custom.
	Attachment any   `json:"attachment,omitempty"`
	Elements   []any `json:"elements,omitempty"`
}

// RasaButton is a button of a [RasaMessage].
type RasaButton struct {
	Title   string `json:"title"`
	Payload string `json:"payload"`
}

// RasaAnswer is a Rasa action server's answer, decoded: the slot events
// as outputs, the messages, and what soni ignored.
type RasaAnswer struct {
	// Outputs holds the value of each slot event, by slot name; the last
	// event for a slot wins, and a null value clears the slot.
	Outputs map[string]any
	// Messages are the answer's responses, in order.
	Messages []RasaMessage
	// Warnings name the events soni does not apply, one per kind, in
	// the order they came.
	Warnings []string
}

// rasaRequest is the JSON a Rasa action server's webhook receives.
type rasaRequest struct {
	NextAction string         `json:"next_action"`
	SenderID   string         `json:"sender_id"`
	Tracker    rasaTracker    `json:"tracker"`
	Domain     map[string]any `json:"domain"`
	Version    string         `json:"version"`
}

// rasaTracker is the conversation as Rasa's tracker shows it.
type rasaTracker struct {
	SenderID         string            `json:"sender_id"`
	Slots            map[string]any    `json:"slots"`
	LatestMessage    map[string]any    `json:"latest_message"`
	LatestActionName string            `json:"latest_action_name"`
	Events           []map[string]any  `json:"events"`
	Paused           bool              `json:"paused"`
	FollowupAction   *string           `json:"followup_action"`
	ActiveLoop       map[string]string `json:"active_loop"`
	LatestChannel    *string           `json:"latest_input_channel"`
	Stack            []any             `json:"stack"`
}

// runRasa calls the Rasa action server of decl: a POST of Rasa's action
// request to its webhook. The answer's slot events are the outputs; its
// responses are the messages the action says (req.Say).
func (r *Runner) runRasa(ctx context.Context, req vm.ActionRequest, decl *ir.Action, times *runTimes) (map[string]any, error) {
	body, err := json.Marshal(r.rasaRequest(req))
	if err != nil {
		return nil, fmt.Errorf("action %q: cannot encode the tracker as JSON: %v", req.Action, err)
	}
	ans, err := post(ctx, r, "action", decl.Name, decl.Run.Rasa, rasaWebhook, body, times, func(status int, statusText string, b []byte) (*RasaAnswer, bool, error) {
		return decodeRasa(req.Action, decl.Outputs, status, statusText, b)
	})
	if err != nil {
		return nil, err
	}
	if req.Warn != nil {
		for _, w := range ans.Warnings {
			req.Warn(w)
		}
	}
	r.rasaOutputs(req, ans.Outputs)
	for _, m := range ans.Messages {
		switch {
		case req.Say != nil:
			req.Say(m.ActionMessage())
		case req.Warn != nil:
			req.Warn(fmt.Sprintf("action %q sent a message (%s) that nothing can say", req.Action, text.Clip(describeMessages([]RasaMessage{m}), 120)))
		}
	}
	return ans.Outputs, nil
}

// ActionMessage is the message as soni says it: a text or a response by
// name, with its buttons, image and custom payload (an attachment or
// elements, which soni has no field for, go into the custom payload).
func (m RasaMessage) ActionMessage() vm.ActionMessage {
	out := vm.ActionMessage{Text: m.Text, Response: m.Response, Image: m.Image, Custom: m.Custom}
	for _, b := range m.Buttons {
		out.Buttons = append(out.Buttons, ir.Button{Title: b.Title, Payload: b.Payload})
	}
	if m.Attachment != nil || len(m.Elements) > 0 {
		custom := map[string]any{}
		if c, ok := m.Custom.(map[string]any); ok {
			maps.Copy(custom, c)
		} else if m.Custom != nil {
			custom["custom"] = m.Custom
		}
		if m.Attachment != nil {
			custom["attachment"] = m.Attachment
		}
		if len(m.Elements) > 0 {
			custom["elements"] = m.Elements
		}
		out.Custom = custom
	}
	return out
}

// describeMessages names messages for a warning: their texts or response
// names.
func describeMessages(ms []RasaMessage) string {
	parts := make([]string, 0, len(ms))
	for _, m := range ms {
		switch {
		case m.Response != "":
			parts = append(parts, "response "+m.Response)
		case m.Text != "":
			parts = append(parts, fmt.Sprintf("%q", m.Text))
		default:
			parts = append(parts, "a message with no text")
		}
	}
	return strings.Join(parts, ", ")
}

// rasaWebhook points a Rasa action server URL with no path at its
// webhook: endpoints.yml writes the whole webhook URL
// (http://localhost:5055/webhook), a bare server address gets /webhook.
func rasaWebhook(u *url.URL) {
	if u.Path == "" || u.Path == "/" {
		u.Path = "/webhook"
		u.RawPath = ""
	}
}

// rasaRequest builds the request a Rasa action server receives for req.
func (r *Runner) rasaRequest(req vm.ActionRequest) rasaRequest {
	var conv vm.ActionConversation
	if req.Conversation != nil {
		conv = req.Conversation()
	}
	if conv.Slots == nil {
		conv.Slots = req.Inputs
	}
	// Rasa's slots are global: the tracker shows every slot of the
	// assistant, null when unset, and a called flow's action sees its
	// caller's slots.
	slots := map[string]any{}
	for _, name := range r.rasaSlotNames() {
		slots[name] = nil
	}
	maps.Copy(slots, conv.StackSlots)
	maps.Copy(slots, conv.Slots)
	sender := req.Session + r.opts.RasaSenderSuffix
	return rasaRequest{
		NextAction: req.Action,
		SenderID:   sender,
		Tracker: rasaTracker{
			SenderID:         sender,
			Slots:            slots,
			LatestMessage:    rasaLatestMessage(conv),
			LatestActionName: "action_listen",
			Events:           rasaEvents(conv, slots),
			ActiveLoop:       map[string]string{},
			Stack:            []any{},
		},
		Domain:  r.rasaDomain(),
		Version: RasaVersion,
	}
}

// rasaParseData is a user message as Rasa CALM's tracker shows it when
// no NLU intent classifier runs (soni has none): its text, the intent
// Rasa's message processor defaults to (no name, confidence 0.0), no
// entities, and the commands it was understood as, in the shape of
// Rasa's command generators. commands nil leaves the key out (a past
// message, whose commands the history does not keep); empty is Rasa's
// default, an empty list.
func rasaParseData(text string, commands []vm.Command) map[string]any {
	pd := map[string]any{"text": text, "intent": map[string]any{"name": nil, "confidence": 0.0}, "entities": []any{}}
	if commands != nil {
		cs := []any{}
		for _, c := range commands {
			cs = append(cs, rasaCommands(c)...)
		}
		pd["commands"] = cs
	}
	return pd
}

// rasaCommands writes a soni command as Rasa CALM's commands: a start
// with slots is Rasa's start flow followed by a set slot for each.
func rasaCommands(c vm.Command) []any {
	switch c.Kind {
	case vm.CmdStartFlow:
		out := []any{map[string]any{"command": "start flow", "flow": c.Flow}}
		for _, s := range c.Slots {
			out = append(out, map[string]any{"command": "set slot", "name": s.Slot, "value": s.Value})
		}
		return out
	case vm.CmdSetSlot:
		return []any{map[string]any{"command": "set slot", "name": c.Slot, "value": c.Value}}
	case vm.CmdCorrectSlot:
		return []any{map[string]any{"command": "correct slot", "corrected_slots": []any{map[string]any{"name": c.Slot, "value": c.Value}}}}
	case vm.CmdCancelFlow:
		return []any{map[string]any{"command": "cancel flow"}}
	case vm.CmdClarify:
		return []any{map[string]any{"command": "clarify", "options": c.Flows}}
	case vm.CmdChitchat:
		return []any{map[string]any{"command": "chitchat"}}
	case vm.CmdHandoff:
		return []any{map[string]any{"command": "human handoff"}}
	case vm.CmdSkipQuestion:
		return []any{map[string]any{"command": "skip question"}}
	case vm.CmdRepeat:
		return []any{map[string]any{"command": "repeat"}}
	case vm.CmdFallback:
		return []any{map[string]any{"command": "cannot handle"}}
	}
	// affirm, deny and help have no Rasa command: named as soni names them.
	return []any{map[string]any{"command": string(c.Kind)}}
}

// turnCommands are the commands of this turn's message: none is an empty
// list, as Rasa's parse data always has its commands.
func turnCommands(conv vm.ActionConversation) []vm.Command {
	if conv.Commands == nil {
		return []vm.Command{}
	}
	return conv.Commands
}

// rasaLatestMessage is the tracker's latest_message: this turn's user
// message as rasaParseData shows it, with the session's metadata.
func rasaLatestMessage(conv vm.ActionConversation) map[string]any {
	latest := rasaParseData(conv.Message, turnCommands(conv))
	if len(conv.Metadata) > 0 {
		latest["metadata"] = conv.Metadata
	}
	return latest
}

// rasaEvents is the tracker's event list, in the order things happened:
// the earlier turns' messages (the history keeps only those), then this
// turn's user message, its slot events, the actions it ran (action
// events, as Rasa logs every action it runs) and the bot's replies,
// interleaved as the turn ran them. Slots set before this turn, which no
// event of it shows, come first as slot events, so that a tracker rebuilt
// from the events holds the same slots.
func rasaEvents(conv vm.ActionConversation, slots map[string]any) []map[string]any {
	events := []map[string]any{}
	// The history ends with this turn's user message and the replies the
	// turn said so far; those are laid out with the turn's events.
	past := conv.History
	own := len(conv.ReplyEvents)
	if conv.Message != "" {
		own++
	}
	if own <= len(past) {
		past = past[:len(past)-own]
	}
	for _, m := range past {
		if m.Role == vm.RoleUser {
			events = append(events, map[string]any{"event": "user", "text": m.Text, "parse_data": rasaParseData(m.Text, nil)})
		} else {
			events = append(events, map[string]any{"event": "bot", "text": m.Text})
		}
	}
	setThisTurn := map[string]bool{}
	for _, e := range conv.Events {
		if e.Type == vm.EventSlotSet {
			setThisTurn[e.Slot] = true
		}
	}
	for _, k := range slices.Sorted(maps.Keys(slots)) {
		if slots[k] != nil && !setThisTurn[k] {
			events = append(events, map[string]any{"event": "slot", "name": k, "value": slots[k]})
		}
	}
	if conv.Message != "" {
		events = append(events, map[string]any{"event": "user", "text": conv.Message, "parse_data": rasaParseData(conv.Message, turnCommands(conv))})
	}
	replies := conv.History[len(conv.History)-len(conv.ReplyEvents):]
	reply := 0
	sayUpTo := func(n int) {
		for reply < len(conv.ReplyEvents) && conv.ReplyEvents[reply] <= n {
			events = append(events, map[string]any{"event": "bot", "text": replies[reply].Text})
			reply++
		}
	}
	for i, e := range conv.Events {
		sayUpTo(i)
		switch e.Type {
		case vm.EventSlotSet:
			events = append(events, map[string]any{"event": "slot", "name": e.Slot, "value": e.New})
		case vm.EventActionExecuted, vm.EventActionFailed:
			events = append(events, map[string]any{"event": "action", "name": e.Action})
		}
	}
	sayUpTo(len(conv.Events))
	return events
}

// rasaSlotNames lists the slots a Rasa tracker shows: every slot of the
// program, the conversation slots and every flow's own but soni's
// patterns' context, sorted. (In Rasa every slot is global, in the tracker
// and null when unset.)
func (r *Runner) rasaSlotNames() []string {
	if r.prog == nil {
		return nil
	}
	var names []string
	for _, s := range r.prog.Slots {
		names = append(names, s.Name)
	}
	for _, f := range r.prog.Flows {
		if f.Builtin {
			continue
		}
		for _, s := range f.Slots {
			names = append(names, s.Name)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// rasaDomain returns the domain sent to a Rasa action server, built once
// from the program: its slots with Rasa's types and its actions.
func (r *Runner) rasaDomain() map[string]any {
	r.domainOnce.Do(func() {
		slots := map[string]any{}
		var actions []string
		if p := r.prog; p != nil {
			add := func(s *ir.Slot) {
				d := map[string]any{"type": rasaSlotType(s.Type), "influence_conversation": false, "mappings": []any{map[string]any{"type": "controlled"}}}
				if s.Initial != nil {
					d["initial_value"] = s.Initial
				}
				if len(s.Values) > 0 {
					vals := make([]string, len(s.Values))
					for i, v := range s.Values {
						vals[i] = v.Value
					}
					d["values"] = vals
				}
				slots[s.Name] = d
			}
			for _, s := range p.Slots {
				add(s)
			}
			for _, f := range p.Flows {
				if f.Builtin {
					continue // soni's default patterns run no custom action
				}
				for _, s := range f.Slots {
					if _, ok := slots[s.Name]; !ok {
						add(s)
					}
				}
			}
			for _, a := range p.Actions {
				actions = append(actions, a.Name)
			}
		}
		if actions == nil {
			actions = []string{}
		}
		r.domain = map[string]any{
			"version":        "3.1",
			"config":         map[string]any{"store_entities_as_slots": false},
			"session_config": map[string]any{"session_expiration_time": 0, "carry_over_slots_to_new_session": true},
			"intents":        []any{},
			"entities":       []any{},
			"slots":          slots,
			"responses":      map[string]any{},
			"actions":        actions,
			"forms":          map[string]any{},
			"e2e_actions":    []any{},
		}
	})
	return r.domain
}

// rasaSlotType is the Rasa slot type of a soni slot type.
func rasaSlotType(t ir.SlotType) string {
	switch t {
	case ir.TypeInteger, ir.TypeNumber:
		return "float"
	case ir.TypeBoolean:
		return "bool"
	case ir.TypeCategorical:
		return "categorical"
	case ir.TypeList:
		return "list"
	case ir.TypeAny:
		return "any"
	}
	return "text"
}

// rasaRejection is the body of a 400 answer: the action refused to run.
type rasaRejection struct {
	ActionName string `json:"action_name"`
	Error      string `json:"error"`
}

// decodeRasa reads a Rasa action server's answer to the action name,
// whose declaration lists outputs. A 400 is the action's rejection, a 404
// an action the server does not have; both are failures, as is any other
// status but 2xx (a 5xx may be retried).
func decodeRasa(name string, outputs []string, status int, statusText string, b []byte) (*RasaAnswer, bool, error) {
	switch {
	case status == 400 || status == 404:
		var rej rasaRejection
		if json.Unmarshal(b, &rej) == nil && rej.Error != "" {
			if status == 404 {
				return nil, false, fmt.Errorf("the action server has no action %q: %s", name, text.Clip(rej.Error, 200))
			}
			return nil, false, fmt.Errorf("the action server rejected action %q: %s", name, text.Clip(rej.Error, 200))
		}
		return nil, false, statusError(statusText, b)
	case status == 449:
		return nil, false, fmt.Errorf("status %s: the action server asked for the domain, which the request carried", statusText)
	case status < 200 || status > 299:
		// Rasa's SDK answers an action that raised with 500 and
		// {"error": ..., "request_body": ...}: the error is the news, the
		// request echoed back is not.
		var crash struct {
			Error string `json:"error"`
		}
		if json.Unmarshal(b, &crash) == nil && crash.Error != "" {
			return nil, status >= 500, fmt.Errorf("status %s: %s", statusText, text.Clip(crash.Error, 200))
		}
		return nil, status >= 500, statusError(statusText, b)
	}
	ans, err := parseRasaAnswer(name, outputs, b)
	if err != nil {
		return nil, false, fmt.Errorf("status %d, but %v", status, err)
	}
	return ans, false, nil
}

// ParseRasaAnswer decodes the body of a Rasa action server's 2xx answer
// to the action name ({"events": [...], "responses": [...]}), whose
// declaration lists outputs. Slot events become outputs; a
// reset_slots event clears every listed output; a bot event is a message,
// said after the responses; an action_execution_rejected event is a
// failure; other events are ignored, with a warning. Conversation test stubs written as Rasa's
// events go through the same reading.
func ParseRasaAnswer(name string, outputs []string, b []byte) (*RasaAnswer, error) {
	return parseRasaAnswer(name, outputs, b)
}

func parseRasaAnswer(name string, outputs []string, b []byte) (*RasaAnswer, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, errors.New("no answer: expected a JSON object with \"events\" and \"responses\"")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var raw struct {
		Events    []any `json:"events"`
		Responses []any `json:"responses"`
	}
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("the answer is not Rasa's {\"events\": [...], \"responses\": [...]}: %v (answer starts %q)", err, text.Clip(string(bytes.TrimSpace(b)), 80))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("the answer has data after its JSON object (answer starts %q)", text.Clip(string(bytes.TrimSpace(b)), 80))
	}
	ans := &RasaAnswer{Outputs: map[string]any{}}
	ignored := map[string]bool{}
	// A bot event (Rasa SDK's BotUttered) is said too, after the
	// responses, as Rasa sends the messages of an action's events after
	// those of its responses.
	var uttered []RasaMessage
	for i, e := range raw.Events {
		ev, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("event %d is a JSON %s, not an object", i+1, jsonval.Kind(e))
		}
		kind, _ := ev["event"].(string)
		switch kind {
		case "slot":
			slot, ok := ev["name"].(string)
			if !ok || slot == "" {
				return nil, fmt.Errorf("slot event %d has no slot \"name\"", i+1)
			}
			ans.Outputs[slot] = jsonval.Numbers(ev["value"])
		case "reset_slots":
			for _, o := range outputs {
				ans.Outputs[o] = nil
			}
			if !ignored[kind] {
				ignored[kind] = true
				ans.Warnings = append(ans.Warnings, fmt.Sprintf("action %q reset all slots: soni clears only the outputs its declaration lists", name))
			}
		case "bot":
			msg := map[string]any{"text": ev["text"]}
			if data, ok := ev["data"].(map[string]any); ok {
				for k, v := range data {
					if k != "text" {
						msg[k] = v
					}
				}
			}
			m, err := rasaMessage(msg)
			if err != nil {
				return nil, fmt.Errorf("bot event %d: %v", i+1, err)
			}
			if !m.empty() {
				uttered = append(uttered, m)
			}
		case "action_execution_rejected":
			msg := fmt.Sprintf("the action server rejected action %q", name)
			if n, _ := ev["name"].(string); n != "" && n != name {
				msg = fmt.Sprintf("the action server rejected action %q (for %q)", name, n)
			}
			return nil, errors.New(msg)
		case "":
			return nil, fmt.Errorf("event %d has no \"event\" kind", i+1)
		default:
			if !ignored[kind] {
				ignored[kind] = true
				ans.Warnings = append(ans.Warnings, fmt.Sprintf("action %q returned a %q event, which soni ignores", name, text.Clip(kind, 40)))
			}
		}
	}
	for i, r := range raw.Responses {
		m, err := rasaMessage(r)
		if err != nil {
			return nil, fmt.Errorf("response %d: %v", i+1, err)
		}
		ans.Messages = append(ans.Messages, m)
	}
	ans.Messages = append(ans.Messages, uttered...)
	return ans, nil
}

// empty reports whether a message has nothing to say.
func (m RasaMessage) empty() bool {
	return m.Text == "" && m.Response == "" && len(m.Buttons) == 0 && m.Image == "" && m.Custom == nil && m.Attachment == nil && len(m.Elements) == 0
}

// rasaMessage reads one item of an answer's responses.
func rasaMessage(v any) (RasaMessage, error) {
	var m RasaMessage
	obj, ok := v.(map[string]any)
	if !ok {
		return m, fmt.Errorf("a JSON %s, not an object", jsonval.Kind(v))
	}
	str := func(key string) (string, error) {
		switch x := obj[key].(type) {
		case nil:
			return "", nil
		case string:
			return x, nil
		default:
			return "", fmt.Errorf("%q is a JSON %s, not a string", key, jsonval.Kind(x))
		}
	}
	var err error
	if m.Text, err = str("text"); err != nil {
		return m, err
	}
	if m.Response, err = str("response"); err != nil {
		return m, err
	}
	if m.Response == "" {
		if m.Response, err = str("template"); err != nil {
			return m, err
		}
	}
	if m.Image, err = str("image"); err != nil {
		return m, err
	}
	if c, ok := obj["custom"]; ok && c != nil {
		if cm, isMap := c.(map[string]any); !isMap || len(cm) > 0 {
			m.Custom = jsonval.Numbers(c)
		}
	}
	if a, ok := obj["attachment"]; ok && a != nil {
		m.Attachment = jsonval.Numbers(a)
	}
	if els, ok := obj["elements"].([]any); ok && len(els) > 0 {
		m.Elements = jsonval.Numbers(els).([]any)
	}
	switch bs := obj["buttons"].(type) {
	case nil:
	case []any:
		for i, b := range bs {
			bm, ok := b.(map[string]any)
			if !ok {
				return m, fmt.Errorf("button %d is a JSON %s, not an object", i+1, jsonval.Kind(b))
			}
			title, _ := bm["title"].(string)
			payload, _ := bm["payload"].(string)
			if title == "" && payload == "" {
				return m, fmt.Errorf("button %d has neither a \"title\" nor a \"payload\"", i+1)
			}
			m.Buttons = append(m.Buttons, RasaButton{Title: title, Payload: payload})
		}
	default:
		return m, fmt.Errorf("\"buttons\" is a JSON %s, not a list", jsonval.Kind(bs))
	}
	return m, nil
}
