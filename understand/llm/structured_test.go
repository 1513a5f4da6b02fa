package llm

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseJSONCommands: the structured answer, read leniently where the
// meaning is plain and refused where it is not.
func TestParseJSONCommands(t *testing.T) {
	tests := []struct {
		name, answer string
		want         []Raw
		skipped      int
		err          string
	}{
		{"every kind", `{"commands": [
			{"kind": "start_flow", "flow": "transfer_funds", "flows": [], "slot": "", "value": ""},
			{"kind": "set_slot", "flow": "", "flows": [], "slot": "amount", "value": "100"},
			{"kind": "correct_slot", "flow": "", "flows": [], "slot": "recipient", "value": "New York"},
			{"kind": "clarify", "flow": "", "flows": ["a", "b"], "slot": "", "value": ""},
			{"kind": "cancel_flow"}, {"kind": "affirm"}, {"kind": "deny"}, {"kind": "chitchat"},
			{"kind": "human_handoff"}, {"kind": "fallback"}]}`, []Raw{
			{Kind: "start_flow", Flow: "transfer_funds", Line: 1},
			{Kind: "set_slot", Slot: "amount", Value: "100", Line: 2},
			{Kind: "correct_slot", Slot: "recipient", Value: "New York", Line: 3},
			{Kind: "clarify", Flows: []string{"a", "b"}, Line: 4},
			{Kind: "cancel_flow", Line: 5}, {Kind: "affirm", Line: 6}, {Kind: "deny", Line: 7},
			{Kind: "chitchat", Line: 8}, {Kind: "human_handoff", Line: 9}, {Kind: "fallback", Line: 10},
		}, 0, ""},
		{"a fence, a bare array, loose kinds and a number value", "```json\n[{\"kind\": \"Start Flow\", \"flow\": \"f\"}, {\"kind\": \"set-slot\", \"slot\": \"amount\", \"value\": 12.5}]\n```",
			[]Raw{{Kind: "start_flow", Flow: "f", Line: 1}, {Kind: "set_slot", Slot: "amount", Value: "12.5", Line: 2}}, 0, ""},
		{"no commands", `{"commands": []}`, nil, 0, ""},
		{"unknown kind and bad names are skipped", `{"commands": [{"kind": "drop_table"}, {"kind": "start_flow", "flow": "a b"}, {"kind": "set_slot", "slot": "amount", "value": ""}, {"kind": "set_slot", "slot": "x", "value": {"a": 1}}, {"kind": "clarify", "flows": []}, {"kind": "affirm"}]}`,
			[]Raw{{Kind: "affirm", Line: 6}}, 5, ""},
		{"a command that is no object", `{"commands": ["start flow f", 3]}`, nil, 2, ""},
		{"prose", "start flow transfer_funds", nil, 0, "the answer is not JSON"},
		{"no commands field", `{"command": []}`, nil, 0, `no "commands" list`},
		{"cut JSON", `{"commands": [{"kind": "affirm"`, nil, 0, "not the JSON the schema asks for"},
		{"commands is not a list", `{"commands": "affirm"}`, nil, 0, "not the JSON the schema asks for"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, skipped, err := ParseJSONCommands(tt.answer)
			if tt.err != "" {
				assert.ErrorContains(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.Len(t, skipped, tt.skipped)
		})
	}
}

// TestJSONSchemaAnswers: with response_format json_schema the request
// carries a strict schema and a prompt that asks for JSON, and the answer
// goes through the same validation as the line grammar; nonsense gets one
// retry, then the fallback.
func TestJSONSchemaAnswers(t *testing.T) {
	prog := banking(t)
	m, err := vm.New(prog, vm.Options{})
	require.NoError(t, err)
	tests := []struct {
		name    string
		respond func(attempt int) (int, string)
		want    []vm.Command
		note    string
	}{
		{"ok", func(int) (int, string) {
			return 200, answer(`{"commands": [{"kind": "start_flow", "flow": "transfer_funds", "flows": [], "slot": "", "value": ""}, {"kind": "set_slot", "flow": "", "flows": [], "slot": "amount", "value": "100"}]}`, "stop")
		}, []vm.Command{{Kind: vm.CmdStartFlow, Flow: "transfer_funds", Slots: []vm.SlotValue{{Slot: "amount", Value: float64(100)}}}}, "llm: kept start_flow"},
		{"validated as the grammar is", func(int) (int, string) {
			return 200, answer(`{"commands": [{"kind": "start_flow", "flow": "drain_accounts", "flows": [], "slot": "", "value": ""}]}`, "stop")
		}, []vm.Command{{Kind: vm.CmdFallback}}, `unknown flow "drain_accounts"`},
		{"prose, then JSON", func(a int) (int, string) {
			if a == 1 {
				return 200, answer("Sure! start flow transfer_funds", "stop")
			}
			return 200, answer(`{"commands": [{"kind": "start_flow", "flow": "check_balance", "flows": [], "slot": "", "value": ""}]}`, "stop")
		}, []vm.Command{{Kind: vm.CmdStartFlow, Flow: "check_balance"}}, "attempt 1 failed"},
		{"nonsense twice", func(int) (int, string) { return 200, answer(`{"commands": "yes"}`, "stop") }, []vm.Command{{Kind: vm.CmdFallback}}, "attempt 2 failed"},
		{"cut at max_tokens", func(int) (int, string) { return 200, answer(`{"commands": [{"kind": "sta`, "length") }, []vm.Command{{Kind: vm.CmdFallback}}, "its JSON is incomplete"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmds, notes, fake := askFake(t, m, Config{Model: "m1", Answer: AnswerJSONSchema}, tt.respond)
			assert.Equal(t, tt.want, cmds)
			assert.Contains(t, strings.Join(notes, "\n"), tt.note)
			require.NotEmpty(t, fake.Requests)
			var rf struct {
				Type       string `json:"type"`
				JSONSchema struct {
					Name   string          `json:"name"`
					Strict bool            `json:"strict"`
					Schema json.RawMessage `json:"schema"`
				} `json:"json_schema"`
			}
			require.NoError(t, json.Unmarshal(fake.Requests[0].ResponseFormat, &rf))
			assert.Equal(t, "json_schema", rf.Type)
			assert.Equal(t, "soni_commands", rf.JSONSchema.Name)
			assert.True(t, rf.JSONSchema.Strict)
			assert.Contains(t, string(rf.JSONSchema.Schema), `"enum":["start_flow","set_slot","correct_slot","cancel_flow","affirm","deny","clarify","chitchat","human_handoff","help","repeat_bot_messages","skip_question","fallback"]`)
			assert.Contains(t, fake.Requests[0].Messages[0].Content, `Answer with one JSON object, {"commands": [...]}`)
			assert.NotContains(t, fake.Requests[0].Messages[0].Content, "one per line")
		})
	}
}

// TestTextRequestsHaveNoResponseFormat: the default request is unchanged,
// so recorded fixtures keep their keys.
func TestTextRequestsHaveNoResponseFormat(t *testing.T) {
	prog := banking(t)
	m, err := vm.New(prog, vm.Options{})
	require.NoError(t, err)
	_, _, fake := askFake(t, m, Config{Model: "m"}, func(int) (int, string) { return 200, answer("chitchat", "stop") })
	require.Len(t, fake.Requests, 1)
	assert.Nil(t, fake.Requests[0].ResponseFormat)
	_, err = New(Config{BaseURL: "http://127.0.0.1:1", Model: "m", Answer: "xml"})
	assert.ErrorContains(t, err, `response_format "xml" is not text or json_schema`)
}

// TestSelectResponseFormat: the project's response_format reaches the
// model; an unknown one is refused by the schema before it gets there.
func TestSelectResponseFormat(t *testing.T) {
	src := func(format string) string {
		return `settings:
  understanding:
    mode: llm
    llm: {base_url: "http://127.0.0.1:1/v1", model: m, response_format: ` + format + `}
flows:
  f:
    trigger: {intents: [go]}
    steps:
      - {step: s, type: say, message: hi}
`
	}
	r := compiler.CompileSource("t.yaml", []byte(src("json_schema")), compiler.Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	u, _, err := Select(r.Program, t.TempDir(), Overrides{}, func(string) string { return "" })
	require.NoError(t, err)
	assert.Equal(t, AnswerJSONSchema, u.(*Model).cfg.Answer)
	r = compiler.CompileSource("t.yaml", []byte(src("xml")), compiler.Options{})
	assert.Nil(t, r.Program)
	assert.Contains(t, fmt.Sprint(r.Diags), `"xml" is not one of text, json_schema`)
}
