package actions

import (
	"fmt"
	"slices"

	"github.com/soni-dev/soni/internal/jsonval"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/vm"
)

// MessagesKey is the key of an action's answer that holds the messages it
// asks the bot to say (docs/actions.md, "Actions that speak"), unless the
// declaration lists an output of that name.
const MessagesKey = "messages"

// sayMessages takes the messages out of an answer's outputs, when the
// declaration does not list an output named messages, and says them
// through req.Say, in order. Each message has the shape of an item of a
// Rasa action server's "responses": text, response (a response's name),
// buttons, image, custom. A malformed message fails the call, as a bad
// output does.
func sayMessages(req vm.ActionRequest, decl *ir.Action, out map[string]any) error {
	raw, ok := out[MessagesKey]
	if !ok || (decl != nil && slices.Contains(decl.Outputs, MessagesKey)) {
		return nil
	}
	delete(out, MessagesKey)
	items, ok := raw.([]any)
	if !ok {
		if raw == nil {
			return nil
		}
		return fmt.Errorf("action %q: %q must be a list of messages, not a JSON %s", req.Action, MessagesKey, jsonval.Kind(raw))
	}
	msgs := make([]vm.ActionMessage, 0, len(items))
	for i, it := range items {
		m, err := rasaMessage(it)
		if err != nil {
			return fmt.Errorf("action %q: message %d: %v", req.Action, i+1, err)
		}
		if m.Text == "" && m.Response == "" && m.Image == "" && m.Custom == nil && len(m.Buttons) == 0 && m.Attachment == nil && len(m.Elements) == 0 {
			return fmt.Errorf("action %q: message %d says nothing: give it a text, a response, buttons, an image or a custom payload", req.Action, i+1)
		}
		msgs = append(msgs, m.ActionMessage())
	}
	if req.Say != nil {
		for _, m := range msgs {
			req.Say(m)
		}
	}
	return nil
}
