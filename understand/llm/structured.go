package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/soni-dev/soni/vm"
)

// AnswerFormat is how the model is asked to answer.
type AnswerFormat string

const (
	// AnswerText is the default: the line grammar of ParseCommands, which
	// every OpenAI-compatible server can give.
	AnswerText AnswerFormat = "text"
	// AnswerJSONSchema asks for a JSON object through the request's
	// response_format {type: json_schema}, for servers that support
	// structured outputs. The answer goes through ParseJSONCommands and
	// then the same validation as the line grammar.
	AnswerJSONSchema AnswerFormat = "json_schema"
)

// ParseAnswerFormat reads the response_format setting; "" is AnswerText.
func ParseAnswerFormat(s string) (AnswerFormat, error) {
	switch AnswerFormat(s) {
	case "", AnswerText:
		return AnswerText, nil
	case AnswerJSONSchema:
		return AnswerJSONSchema, nil
	}
	return "", fmt.Errorf("understanding.llm.response_format %q is not text or json_schema", s)
}

// commandKinds are the kinds a command may have, in the order the prompt
// lists them.
var commandKinds = []vm.CommandKind{vm.CmdStartFlow, vm.CmdSetSlot, vm.CmdCorrectSlot, vm.CmdCancelFlow, vm.CmdAffirm, vm.CmdDeny, vm.CmdClarify, vm.CmdChitchat, vm.CmdHandoff, vm.CmdHelp, vm.CmdRepeat, vm.CmdSkipQuestion, vm.CmdFallback}

// responseFormat is the request's response_format for AnswerJSONSchema:
// a strict schema (every field required, no other field), as OpenAI's
// structured outputs ask; unused fields are "" or [].
func responseFormat() json.RawMessage {
	str := map[string]any{"type": "string"}
	schema := map[string]any{
		"type":                 "object",
		"additionalProperties": false,
		"required":             []string{"commands"},
		"properties": map[string]any{
			"commands": map[string]any{
				"type": "array",
				"items": map[string]any{
					"type":                 "object",
					"additionalProperties": false,
					"required":             []string{"kind", "flow", "flows", "slot", "value"},
					"properties": map[string]any{
						"kind":  map[string]any{"type": "string", "enum": commandKinds},
						"flow":  str,
						"flows": map[string]any{"type": "array", "items": str},
						"slot":  str,
						"value": str,
					},
				},
			},
		},
	}
	b, _ := json.Marshal(map[string]any{
		"type":        "json_schema",
		"json_schema": map[string]any{"name": "soni_commands", "strict": true, "schema": schema},
	})
	return b
}

// ParseJSONCommands reads an answer given as JSON: {"commands": [...]},
// or the bare array. It is lenient where a model is sloppy and the
// meaning is plain: a code fence around the JSON, a kind written in
// another case or with a space ("Start Flow"), a number or boolean for
// a value. A command it cannot read (no known kind, a field of the wrong
// type) is returned in skipped, with its position, and the rest are
// kept; an answer that is not JSON of that shape is an error. Line is the
// command's position in the list, counting from 1, for the trace.
func ParseJSONCommands(answer string) (cmds []Raw, skipped []string, err error) {
	s := strings.TrimSpace(answer)
	if strings.HasPrefix(s, "```") {
		s = strings.TrimPrefix(s, "```")
		if i := strings.IndexByte(s, '\n'); i >= 0 && !strings.ContainsAny(s[:i], "{[") {
			s = s[i+1:] // the fence's language tag
		}
		s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "```"))
	}
	var items []json.RawMessage
	var obj struct {
		Commands *[]json.RawMessage `json:"commands"`
	}
	switch {
	case strings.HasPrefix(s, "["):
		err = json.Unmarshal([]byte(s), &items)
	case strings.HasPrefix(s, "{"):
		if err = json.Unmarshal([]byte(s), &obj); err == nil {
			if obj.Commands == nil {
				return nil, nil, fmt.Errorf("the JSON answer has no \"commands\" list: %s", cut(s, 120))
			}
			items = *obj.Commands
		}
	default:
		return nil, nil, fmt.Errorf("the answer is not JSON: %q", cut(s, 120))
	}
	if err != nil {
		return nil, nil, fmt.Errorf("the answer is not the JSON the schema asks for: %v", err)
	}
	for i, item := range items {
		c, ok := jsonCommand(item)
		if !ok {
			skipped = append(skipped, fmt.Sprintf("command %d: %s", i+1, cut(string(item), 120)))
			continue
		}
		c.Line = i + 1
		cmds = append(cmds, c)
	}
	return cmds, skipped, nil
}

// jsonCommand reads one command object.
func jsonCommand(item json.RawMessage) (Raw, bool) {
	var f struct {
		Kind  string          `json:"kind"`
		Flow  string          `json:"flow"`
		Flows []string        `json:"flows"`
		Slot  string          `json:"slot"`
		Value json.RawMessage `json:"value"`
	}
	if json.Unmarshal(item, &f) != nil {
		return Raw{}, false
	}
	kind := strings.ToLower(strings.Join(strings.Fields(strings.ReplaceAll(f.Kind, "-", " ")), "_"))
	if !slices.Contains(commandKinds, vm.CommandKind(kind)) {
		return Raw{}, false
	}
	c := Raw{Kind: kind}
	value, ok := jsonValue(f.Value)
	if !ok {
		return Raw{}, false
	}
	switch kind {
	case "start_flow":
		c.Flow, ok = f.Flow, nameRE().MatchString(f.Flow)
	case "set_slot", "correct_slot":
		c.Slot, c.Value, ok = f.Slot, value, nameRE().MatchString(f.Slot) && value != ""
	case "clarify":
		ok = len(f.Flows) > 0
		for _, fl := range f.Flows {
			ok = ok && nameRE().MatchString(fl)
		}
		c.Flows = f.Flows
	}
	return c, ok
}

// jsonValue reads a command's value: a string, a number or boolean
// written as JSON text, or a list of strings joined by commas; null and a
// missing value are "".
func jsonValue(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", true
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s), true
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String(), true
	}
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		return fmt.Sprint(b), true
	}
	// The values of a list slot written as a JSON list: one VALUE of
	// them separated by commas, as the prompt asks.
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		for i := range list {
			list[i] = strings.TrimSpace(list[i])
		}
		return strings.Join(list, ", "), true
	}
	return "", false
}
