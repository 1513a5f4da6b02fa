package llm

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/template"
	"time"
	"unicode/utf8"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/understand"
	"github.com/soni-dev/soni/understand/llm/replay"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func banking(t *testing.T) *ir.Program {
	t.Helper()
	r := compiler.Compile(filepath.Join("..", "..", "flows", "banking"), compiler.Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	return r.Program
}

// view is the View of a state, with its notes collected.
func view(m *vm.Machine, st *vm.State, notes *[]string) vm.View {
	v := m.View(st)
	v.Note = func(s string) { *notes = append(*notes, s) }
	return v
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if os.Getenv("SONI_UPDATE") != "" {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run with SONI_UPDATE=1 to write %s", path)
	assert.Equal(t, string(want), got, "%s is out of date: SONI_UPDATE=1 go test ./understand/llm", path)
}

// TestDefaultPromptGolden: the default prompt for the banking example,
// once with no flow active and once at a pending question, and the first
// asking for a JSON answer.
func TestDefaultPromptGolden(t *testing.T) {
	prog := banking(t)
	m, err := vm.New(prog, vm.Options{Understander: understand.New(prog)})
	require.NoError(t, err)
	p, err := ParsePrompt("")
	require.NoError(t, err)
	st := m.NewState("s")
	today := time.Date(2027, 3, 10, 12, 0, 0, 0, time.UTC)
	at := func(st *vm.State) vm.View { v := m.View(st); v.Now = today; return v }
	idle, err := RenderPrompt(p, at(st), "Transfer 100 euros to John", 6, AnswerText)
	require.NoError(t, err)
	res, err := m.Turn(context.Background(), st, vm.Input{Text: "I want to send money", Now: today})
	require.NoError(t, err)
	res, err = m.Turn(context.Background(), res.State, vm.Input{Text: "Ana", Now: today})
	require.NoError(t, err)
	asking, err := RenderPrompt(p, at(res.State), "no wait, make it Maria", 6, AnswerText)
	require.NoError(t, err)
	golden(t, filepath.Join("testdata", "prompt_banking.golden"), idle+"\n=====\n"+asking)
	again, err := RenderPrompt(p, at(st), "Transfer 100 euros to John", 6, AnswerText)
	require.NoError(t, err)
	assert.Equal(t, idle, again, "deterministic")

	// Asked for JSON (response_format json_schema), only the answer
	// instructions differ.
	asJSON, err := RenderPrompt(p, at(st), "Transfer 100 euros to John", 6, AnswerJSONSchema)
	require.NoError(t, err)
	golden(t, filepath.Join("testdata", "prompt_banking_json.golden"), asJSON)
	tail := func(s string) string { return s[strings.Index(s, "\n\nFlows:"):] }
	assert.Equal(t, tail(idle), tail(asJSON))
}

// TestCustomPrompt: a project's own template is used as written.
func TestCustomPrompt(t *testing.T) {
	prog := banking(t)
	m, err := vm.New(prog, vm.Options{})
	require.NoError(t, err)
	p, err := ParsePrompt(`{{len .Flows}} flows; message {{printf "%q" .Message}}`)
	require.NoError(t, err)
	got, err := RenderPrompt(p, m.View(m.NewState("s")), strings.Repeat("x", MaxMessage+50), 6, AnswerText)
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprintf("4 flows; message %q", strings.Repeat("x", MaxMessage)), got, "the message is cut to MaxMessage")
	_, err = ParsePrompt("{{.Nope")
	assert.Error(t, err)
	var bad *template.Template
	bad, err = ParsePrompt("{{.Nope}}")
	require.NoError(t, err)
	_, err = RenderPrompt(bad, m.View(m.NewState("s")), "hi", 6, AnswerText)
	assert.ErrorContains(t, err, "render the prompt")
}

// answer is a chat completions body with one choice.
func answer(content, finish string) string {
	return fmt.Sprintf(`{"choices":[{"index":0,"message":{"role":"assistant","content":%q},"finish_reason":%q}]}`, content, finish)
}

// askFake asks a model configured as cfg, behind a fake server that
// answers with respond, about "send 100 to John" in a new conversation.
func askFake(t *testing.T, m *vm.Machine, cfg Config, respond func(attempt int) (int, string)) ([]vm.Command, []string, *replay.Server) {
	t.Helper()
	fake := &replay.Server{Respond: func(_ replay.Request, a int) (int, string) { return respond(a) }}
	ts := httptest.NewServer(fake)
	t.Cleanup(ts.Close)
	cfg.BaseURL = ts.URL + "/v1"
	model, err := New(cfg)
	require.NoError(t, err)
	var notes []string
	cmds, err := model.Understand(context.Background(), "send 100 to John", view(m, m.NewState("s"), &notes))
	require.NoError(t, err)
	return cmds, notes, fake
}

// TestContract: the request's shape and headers, and what each failure
// of the endpoint becomes: one retry, then the fallback with the reason in
// the trace.
func TestContract(t *testing.T) {
	prog := banking(t)
	m, err := vm.New(prog, vm.Options{})
	require.NoError(t, err)
	tests := []struct {
		name    string
		respond func(attempt int) (int, string)
		want    []vm.CommandKind
		note    string
	}{
		{"ok", func(int) (int, string) { return 200, answer("start flow transfer_funds", "stop") }, []vm.CommandKind{vm.CmdStartFlow}, "llm: kept start_flow"},
		{"429 then ok", func(a int) (int, string) {
			if a == 1 {
				return 429, `{"error":{"message":"slow down"}}`
			}
			return 200, answer("start flow check_balance", "stop")
		}, []vm.CommandKind{vm.CmdStartFlow}, "attempt 1 failed"},
		{"500 twice", func(int) (int, string) { return 500, `{"error":{"message":"boom"}}` }, []vm.CommandKind{vm.CmdFallback}, "attempt 2 failed"},
		{"malformed body", func(int) (int, string) { return 200, `<html>` }, []vm.CommandKind{vm.CmdFallback}, "not chat completions JSON"},
		{"empty choices", func(int) (int, string) { return 200, `{"choices":[]}` }, []vm.CommandKind{vm.CmdFallback}, "no choices"},
		{"cut at max_tokens", func(int) (int, string) { return 200, answer("start flow transfer_funds\nset slot am", "length") }, []vm.CommandKind{vm.CmdStartFlow}, "kept start_flow"},
		{"prose around", func(int) (int, string) {
			return 200, answer("Sure! The user wants money moved.\n- start flow transfer_funds\n- set slot amount 100\nLet me know.", "stop")
		}, []vm.CommandKind{vm.CmdStartFlow}, `ignored "Sure! The user wants money moved."`},
		{"nothing valid", func(int) (int, string) { return 200, answer("start flow hack_the_bank", "stop") }, []vm.CommandKind{vm.CmdFallback}, `unknown flow "hack_the_bank"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmds, notes, fake := askFake(t, m, Config{Model: "m1", APIKey: "k3y"}, tt.respond)
			var kinds []vm.CommandKind
			for _, c := range cmds {
				kinds = append(kinds, c.Kind)
			}
			assert.Equal(t, tt.want, kinds)
			assert.Contains(t, strings.Join(notes, "\n"), tt.note)
			require.NotEmpty(t, fake.Requests)
			r := fake.Requests[0]
			assert.Equal(t, "m1", r.Model)
			assert.Equal(t, float64(0), r.Temperature)
			assert.Equal(t, 200, r.MaxTokens)
			require.Len(t, r.Messages, 1)
			assert.Contains(t, r.Messages[0].Content, "<<<\nsend 100 to John\n>>>")
			assert.Equal(t, "Bearer k3y", fake.Headers[0].Get("Authorization"))
			assert.LessOrEqual(t, len(fake.Requests), 2, "one retry at most")
		})
	}
}

// TestTimeout: an endpoint that never answers costs two timeouts, then the
// fallback.
func TestTimeout(t *testing.T) {
	prog := banking(t)
	m, err := vm.New(prog, vm.Options{})
	require.NoError(t, err)
	release := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer ts.Close()
	defer close(release) // before Close, which waits for the handlers
	model, err := New(Config{BaseURL: ts.URL, Model: "m", Timeout: 20 * time.Millisecond})
	require.NoError(t, err)
	var notes []string
	cmds, err := model.Understand(context.Background(), "hello", view(m, m.NewState("s"), &notes))
	require.NoError(t, err)
	assert.Equal(t, []vm.Command{{Kind: vm.CmdFallback}}, cmds)
	assert.Contains(t, strings.Join(notes, "\n"), "attempt 2 failed after")
	assert.Contains(t, strings.Join(notes, "\n"), "no answer within 20ms")
}

// TestHostileAnswers: whatever the model says, no slot gets a value its
// type refuses and no unknown flow starts; the VM applies only what
// Validate kept.
func TestHostileAnswers(t *testing.T) {
	prog := banking(t)
	m, err := vm.New(prog, vm.Options{})
	require.NoError(t, err)
	st := m.NewState("s")
	res, err := m.Turn(context.Background(), st, vm.Input{Commands: []vm.Command{{Kind: vm.CmdStartFlow, Flow: "transfer_funds"}}})
	require.NoError(t, err)
	asking := res.State // waits for the recipient
	tests := []struct {
		name, answer string
		want         []vm.Command
		note         string
	}{
		{"unknown flow", "start flow drain_accounts", []vm.Command{{Kind: vm.CmdFallback}}, `unknown flow "drain_accounts"`},
		{"unknown slot", "set slot balance 1000000", []vm.Command{{Kind: vm.CmdFallback}}, `slot "balance" is not one flow "transfer_funds" can see`},
		{"a type refused", "set slot amount lots", []vm.Command{{Kind: vm.CmdFallback}}, `value "lots" does not fit slot "amount" (number)`},
		{"categorical outside its values", "set slot account_type offshore", []vm.Command{{Kind: vm.CmdFallback}}, `does not fit slot "account_type"`},
		{"affirm with no confirm pending", "affirm", []vm.Command{{Kind: vm.CmdFallback}}, "no confirmation or yes/no question is pending"},
		{"another flow's slot", "set slot card_last4 1234\nset slot recipient Ana", []vm.Command{{Kind: vm.CmdSetSlot, Slot: "card_last4", Value: "1234"}, {Kind: vm.CmdSetSlot, Slot: "recipient", Value: "Ana"}}, ""},
		{"duplicates", "set slot recipient Ana\nset slot recipient Ana", []vm.Command{{Kind: vm.CmdSetSlot, Slot: "recipient", Value: "Ana"}}, ""},
		{"start with slots", "start flow check_balance\nset slot account_type savings", []vm.Command{{Kind: vm.CmdStartFlow, Flow: "check_balance", Slots: []vm.SlotValue{{Slot: "account_type", Value: "savings"}}}}, ""},
		{"clarify", "clarify check_balance transfer_funds nonsense", []vm.Command{{Kind: vm.CmdClarify, Flows: []string{"check_balance", "transfer_funds"}}}, `unknown flow "nonsense"`},
		{"clarify with one choice", "clarify check_balance", []vm.Command{{Kind: vm.CmdFallback}}, "fewer than two known flows"},
		{"chitchat and handoff", "chitchat\nhuman handoff", []vm.Command{{Kind: vm.CmdChitchat}, {Kind: vm.CmdHandoff}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raws, _ := ParseCommands(tt.answer)
			var notes []string
			cmds, dropped := Validate(raws, view(m, asking, &notes))
			assert.Equal(t, tt.want, cmds)
			if tt.note != "" {
				assert.Contains(t, strings.Join(dropped, "\n"), tt.note)
			}
			res, err := m.Turn(context.Background(), asking, vm.Input{Commands: cmds})
			require.NoError(t, err)
			for _, f := range res.State.Stack {
				assert.NotNil(t, prog.Flow(f.Flow))
			}
			if v, ok := res.State.Slots["account_type"]; ok {
				assert.Contains(t, []any{"checking", "savings"}, v)
			}
		})
	}
}

// TestWrongAnswerToTheQuestion: a value the pending slot's type refuses is
// given to the VM, which says the slot's invalid message and counts the
// attempt, as for a typed answer; the slot stays unset.
func TestWrongAnswerToTheQuestion(t *testing.T) {
	prog := banking(t)
	m, err := vm.New(prog, vm.Options{})
	require.NoError(t, err)
	res, err := m.Turn(context.Background(), m.NewState("s"), vm.Input{Commands: []vm.Command{
		{Kind: vm.CmdStartFlow, Flow: "transfer_funds", Slots: []vm.SlotValue{{Slot: "recipient", Value: "Ana"}}},
	}})
	require.NoError(t, err)
	require.Equal(t, "amount", res.Pending.Slot)
	raws, _ := ParseCommands("set slot amount lots")
	cmds, notes := Validate(raws, m.View(res.State))
	assert.Equal(t, []vm.Command{{Kind: vm.CmdSetSlot, Slot: "amount", Value: "lots"}}, cmds)
	assert.Contains(t, strings.Join(notes, "\n"), `value "lots" does not fit slot "amount" (number)`)
	res, err = m.Turn(context.Background(), res.State, vm.Input{Commands: cmds})
	require.NoError(t, err)
	assert.Equal(t, []string{"Please give an amount between 0.01 and 10000.", "How much?"}, res.Replies)
	_, set := res.State.Slots["amount"]
	assert.False(t, set)
	// Another slot's refused value is still dropped.
	raws, _ = ParseCommands("correct slot account_type offshore")
	cmds, _ = Validate(raws, m.View(res.State))
	assert.Equal(t, []vm.Command{{Kind: vm.CmdFallback}}, cmds)
}

// TestCorrectionWhileAPatternAsks: while a project's pattern_correction
// asks "Do you want to update the recipient to Eva?", a correction of the
// transfer's recipient is a new correction of the flow the pattern
// interrupted, as the rules read it, and the prompt shows that flow's
// slots; a slot of no flow on the stack is still dropped.
func TestCorrectionWhileAPatternAsks(t *testing.T) {
	r := compiler.Compile(filepath.Join("..", "..", "testdata", "patterns", "overrides"), compiler.Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	m, err := vm.New(r.Program, vm.Options{})
	require.NoError(t, err)
	res, err := m.Turn(context.Background(), m.NewState("s"), vm.Input{Commands: []vm.Command{
		{Kind: vm.CmdStartFlow, Flow: "transfer", Slots: []vm.SlotValue{{Slot: "recipient", Value: "Ana"}}},
	}})
	require.NoError(t, err)
	res, err = m.Turn(context.Background(), res.State, vm.Input{Commands: []vm.Command{{Kind: vm.CmdCorrectSlot, Slot: "recipient", Value: "Eva"}}})
	require.NoError(t, err)
	require.Equal(t, []string{"Do you want to update the recipient to Eva?"}, res.Replies)

	v := m.View(res.State)
	assert.Contains(t, promptData(v, "sorry, I meant Maria", 0).Slots, PromptSlotValue{Name: "recipient", Value: "Ana"})
	for _, answer := range []string{"correct slot recipient Maria", "set slot recipient Maria"} {
		raws, _ := ParseCommands(answer)
		cmds, notes := Validate(raws, v)
		assert.Equal(t, []vm.Command{{Kind: vm.CmdCorrectSlot, Slot: "recipient", Value: "Maria"}}, cmds, "%s: %v", answer, notes)
	}
	raws, _ := ParseCommands("correct slot rate 2")
	cmds, _ := Validate(raws, v)
	assert.Equal(t, []vm.Command{{Kind: vm.CmdFallback}}, cmds)

	raws, _ = ParseCommands("correct slot recipient Maria")
	cmds, _ = Validate(raws, v)
	res, err = m.Turn(context.Background(), res.State, vm.Input{Commands: cmds})
	require.NoError(t, err)
	assert.Equal(t, []string{"Do you want to update the recipient to Maria?"}, res.Replies)
}

// TestHybrid: a clean answer to the pending question never reaches the
// model; a message the rules do not understand does; when the model
// cannot be asked the rules' commands stand.
func TestHybrid(t *testing.T) {
	prog := banking(t)
	m, err := vm.New(prog, vm.Options{})
	require.NoError(t, err)
	calls := 0
	var prompts []string
	fake := &replay.Server{Respond: func(r replay.Request, _ int) (int, string) {
		calls++
		prompts = append(prompts, r.Messages[len(r.Messages)-1].Content)
		return 200, answer("start flow check_balance", "stop")
	}}
	ts := httptest.NewServer(fake)
	defer ts.Close()
	model, err := New(Config{BaseURL: ts.URL, Model: "m"})
	require.NoError(t, err)
	h := &Hybrid{Rules: understand.New(prog), Model: model}
	var notes []string
	cmds, err := h.Understand(context.Background(), "I want to send money", view(m, m.NewState("s"), &notes))
	require.NoError(t, err)
	assert.Equal(t, vm.CmdStartFlow, cmds[0].Kind)
	assert.Equal(t, "transfer_funds", cmds[0].Flow)
	assert.Zero(t, calls, "the rules are sure of a trigger phrase with stop words around it")
	cmds, err = h.Understand(context.Background(), "how much cash have I got", view(m, m.NewState("s"), &notes))
	require.NoError(t, err)
	assert.Equal(t, []vm.Command{{Kind: vm.CmdStartFlow, Flow: "check_balance"}}, cmds)
	assert.Equal(t, 1, calls)
	assert.Contains(t, strings.Join(notes, "\n"), "hybrid: rule fallback is not sure (no rule reads the message); asking the model")

	// A trigger that matched while the message says more than its
	// values (a word no flow knows) is not sure: the model is asked, and
	// what it says stands.
	var answered []vm.Understanding
	v := view(m, m.NewState("s"), &notes)
	v.Answered = func(u vm.Understanding) { answered = append(answered, u) }
	cmds, err = h.Understand(context.Background(), "send money to Ana, 40 euros, from savings, it's her birthday", v)
	require.NoError(t, err)
	assert.Equal(t, 2, calls, "the rules were not sure")
	assert.Equal(t, []vm.Command{{Kind: vm.CmdStartFlow, Flow: "check_balance"}}, cmds)
	require.Len(t, answered, 1)
	assert.Equal(t, "llm", answered[0].Layer)
	assert.Contains(t, answered[0].Reason, "the rules were not sure")
	assert.Equal(t, "trigger", answered[0].Rule, "the rule whose reading sent the message to the model")
	// The answer says what asking cost: one call, and the characters of
	// the prompt the model was sent (soni eval reports them).
	assert.Equal(t, 1, answered[0].ModelCalls)
	assert.Equal(t, utf8.RuneCountInString(prompts[len(prompts)-1]), answered[0].PromptChars)
	assert.Greater(t, answered[0].PromptChars, 1000)
	// An exact trigger phrase is sure: no model, and the rules answered.
	answered = nil
	v.Answered = func(u vm.Understanding) { answered = append(answered, u) }
	_, err = h.Understand(context.Background(), "send money", v)
	require.NoError(t, err)
	assert.Equal(t, 2, calls)
	require.Len(t, answered, 1)
	assert.Equal(t, vm.Understanding{Layer: "rules", Sure: true, Reason: "an exact trigger phrase of transfer_funds", Rule: "exact_trigger"}, answered[0])

	// Rules behind another layer (no Reader) still name their rule.
	answered = nil
	wrapped := &Hybrid{Rules: understand.WithPayloads(understand.New(prog)), Model: model}
	_, err = wrapped.Understand(context.Background(), "send money", v)
	require.NoError(t, err)
	require.Len(t, answered, 1)
	assert.Equal(t, vm.Understanding{Layer: "rules", Sure: true, Reason: "the rules' answer is not clean", Rule: "exact_trigger"}, answered[0])

	fake.Respond = func(replay.Request, int) (int, string) { return 503, `{}` }
	answered = nil
	v = view(m, m.NewState("s"), &notes)
	v.Answered = func(u vm.Understanding) { answered = append(answered, u) }
	cmds, err = h.Understand(context.Background(), "blorp", v)
	require.NoError(t, err)
	assert.Equal(t, []vm.Command{{Kind: vm.CmdFallback}}, cmds, "the rules' fallback stands")
	assert.Contains(t, strings.Join(notes, "\n"), "the rules' commands stand")
	require.Len(t, answered, 1)
	assert.Equal(t, "rules", answered[0].Layer)
	assert.Equal(t, "fallback", answered[0].Rule)
	assert.Equal(t, 2, answered[0].ModelCalls, "a failed request is retried once, and both count")
	assert.Greater(t, answered[0].PromptChars, 2000)
}

// TestFixtures: the fake answers from a fixture keyed by the request, and
// a missing fixture fails loudly and writes the request out.
func TestFixtures(t *testing.T) {
	prog := banking(t)
	m, err := vm.New(prog, vm.Options{})
	require.NoError(t, err)
	dir := t.TempDir()
	fake := &replay.Server{Dir: dir}
	ts := httptest.NewServer(fake)
	defer ts.Close()
	model, err := New(Config{BaseURL: ts.URL, Model: "m"})
	require.NoError(t, err)
	var notes []string
	cmds, _ := model.Understand(context.Background(), "how much do I have?", view(m, m.NewState("s"), &notes))
	assert.Equal(t, []vm.Command{{Kind: vm.CmdFallback}}, cmds)
	assert.Contains(t, strings.Join(notes, "\n"), "replay: no fixture")
	key := replay.Key(fake.Requests[0])
	_, err = os.Stat(filepath.Join(dir, key+".request.json"))
	require.NoError(t, err, "the request is written out for recording")
	require.NoError(t, os.WriteFile(filepath.Join(dir, key+".json"), []byte(`{"content": "start flow check_balance", "source": "hand"}`), 0o644))
	cmds, _ = model.Understand(context.Background(), "how much do I have?", view(m, m.NewState("s"), &notes))
	assert.Equal(t, []vm.Command{{Kind: vm.CmdStartFlow, Flow: "check_balance"}}, cmds)
}

// TestSelect: flags over the environment over the project; the key from
// the environment only; a prompt file relative to the project.
func TestSelect(t *testing.T) {
	src := `settings:
  understanding:
    mode: hybrid
    llm:
      base_url: ${MY_LLM}
      model: small
      api_key_env: MY_KEY
      timeout: 3s
      prompt: prompt.tmpl
flows:
  f:
    trigger: {intents: [go]}
    steps:
      - {step: s, type: say, message: hi}
`
	r := compiler.CompileSource("t.yaml", []byte(src), compiler.Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "prompt.tmpl"), []byte("custom {{.Message}}"), 0o644))
	env := map[string]string{"MY_LLM": "http://127.0.0.1:1/v1", "MY_KEY": "secret"}
	getenv := func(k string) string { return env[k] }

	u, mode, err := Select(r.Program, dir, Overrides{}, getenv)
	require.NoError(t, err)
	assert.Equal(t, "hybrid", mode)
	h := u.(*Hybrid)
	assert.Equal(t, "http://127.0.0.1:1/v1", h.Model.cfg.BaseURL)
	assert.Equal(t, "small", h.Model.cfg.Model)
	assert.Equal(t, "secret", h.Model.cfg.APIKey)
	assert.Equal(t, 3*time.Second, h.Model.cfg.Timeout)

	env["SONI_UNDERSTANDING"] = "llm"
	env["SONI_LLM_MODEL"] = "big"
	u, mode, err = Select(r.Program, dir, Overrides{BaseURL: "http://flag/v1"}, getenv)
	require.NoError(t, err)
	assert.Equal(t, "llm", mode)
	assert.Equal(t, "http://flag/v1", u.(*Model).cfg.BaseURL)
	assert.Equal(t, "big", u.(*Model).cfg.Model)

	_, mode, err = Select(r.Program, dir, Overrides{Mode: "rules"}, getenv)
	require.NoError(t, err)
	assert.Equal(t, "rules", mode)
	_, _, err = Select(r.Program, dir, Overrides{Mode: "psychic"}, getenv)
	assert.ErrorContains(t, err, `unknown understanding mode "psychic"`)
	delete(env, "MY_LLM")
	_, _, err = Select(r.Program, dir, Overrides{}, getenv)
	assert.ErrorContains(t, err, "needs a base URL and a model")
}
