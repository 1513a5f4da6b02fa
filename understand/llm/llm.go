// Package llm understands messages with a language model behind any
// OpenAI-compatible chat completions endpoint, and trusts nothing it says:
// its answer is a list of commands in a small grammar (ParseCommands),
// each checked against the program and the conversation (Validate) before
// it reaches the VM. In hybrid mode the built-in rules go first and the
// model is asked only when they do not understand the message.
package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"text/template"
	"time"
	"unicode/utf8"

	"github.com/soni-dev/soni/understand"
	"github.com/soni-dev/soni/vm"
)

// Config configures the model.
type Config struct {
	// BaseURL is the endpoint's base, such as http://127.0.0.1:8080/v1;
	// the request goes to BaseURL/chat/completions.
	BaseURL string
	Model   string
	// APIKey, when set, is sent as a bearer token. Read it from the
	// environment; never keep it in a file.
	APIKey string
	// Timeout bounds one request; default 10s.
	Timeout time.Duration
	// MaxHistory is how many recent messages go in the prompt; default 6.
	MaxHistory int
	// MaxTokens bounds the answer; default 200.
	MaxTokens int
	// Prompt is the prompt template; nil is the default (ParsePrompt).
	Prompt *template.Template
	// Client sends the requests; default http.DefaultClient's transport.
	Client *http.Client
	// Answer is how the model is asked to answer: AnswerText (the
	// default, the line grammar) or AnswerJSONSchema (structured outputs).
	Answer AnswerFormat
	// OnHealth, when set, is told when the model stops answering (the
	// first failed request of an outage: refused, timed out, an HTTP
	// error) and when it answers again: once per change, from the
	// goroutine of the turn that saw it. See Health.
	OnHealth func(Health)
}

// Model asks the model and validates its answer. It is a vm.Understander
// (the llm mode): when the model cannot be asked (a timeout, an HTTP
// error, a malformed answer, after one retry) the message is the fallback,
// and the trace says why.
type Model struct {
	cfg    Config
	health health
}

// New returns a model understander.
func New(cfg Config) (*Model, error) {
	if cfg.BaseURL == "" || cfg.Model == "" {
		return nil, errors.New("llm understanding needs a base URL and a model: set understanding.llm.base_url and model, --llm-url and --llm-model, or SONI_LLM_BASE_URL and SONI_LLM_MODEL")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	if cfg.MaxHistory <= 0 {
		cfg.MaxHistory = 6
	}
	if cfg.MaxTokens <= 0 {
		cfg.MaxTokens = 200
	}
	if cfg.Prompt == nil {
		p, err := ParsePrompt("")
		if err != nil {
			return nil, err
		}
		cfg.Prompt = p
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{}
	}
	if cfg.Answer == "" {
		cfg.Answer = AnswerText
	}
	if _, err := ParseAnswerFormat(string(cfg.Answer)); err != nil {
		return nil, err
	}
	cfg.BaseURL = strings.TrimSuffix(cfg.BaseURL, "/")
	return &Model{cfg: cfg}, nil
}

// Understand asks the model; see Model.
func (m *Model) Understand(ctx context.Context, msg string, v vm.View) ([]vm.Command, error) {
	cmds, cost, ok := m.ask(ctx, msg, v)
	if !ok {
		v.Answer(vm.Understanding{Layer: "llm", Reason: "the model could not be asked: the fallback", ModelCalls: cost.calls, PromptChars: cost.chars})
		return []vm.Command{{Kind: vm.CmdFallback}}, nil
	}
	v.Answer(vm.Understanding{Layer: "llm", Reason: "the model's answer", ModelCalls: cost.calls, PromptChars: cost.chars})
	return cmds, nil
}

func note(v vm.View, s string) {
	if v.Note != nil {
		v.Note(s)
	}
}

// cost is what asking the model took: the requests sent and the
// characters of their prompts.
type cost struct{ calls, chars int }

// ask renders the prompt, calls the model (one retry) and validates the
// answer; ok is false when no answer could be had.
func (m *Model) ask(ctx context.Context, msg string, v vm.View) ([]vm.Command, cost, bool) {
	var spent cost
	prompt, err := RenderPrompt(m.cfg.Prompt, v, msg, m.cfg.MaxHistory, m.cfg.Answer)
	if err != nil {
		note(v, "llm: "+err.Error())
		return nil, spent, false
	}
	var raws []Raw
	var skipped []string
	for attempt := 1; ; attempt++ {
		start := time.Now()
		var answer string
		spent.calls++
		spent.chars += utf8.RuneCountInString(prompt)
		answer, err = m.complete(ctx, prompt)
		m.observe(ctx, err)
		d := time.Since(start).Round(time.Millisecond)
		if err == nil {
			note(v, fmt.Sprintf("llm: answered in %s: %q", d, answer))
			raws, skipped, err = m.parse(answer)
			if err == nil {
				break
			}
		}
		note(v, fmt.Sprintf("llm: attempt %d failed after %s: %v", attempt, d, err))
		if attempt == 2 || ctx.Err() != nil {
			return nil, spent, false
		}
	}
	for _, s := range skipped {
		note(v, fmt.Sprintf("llm: ignored %q: not a command", cut(s, 120)))
	}
	cmds, notes := ValidateMessage(raws, v, msg)
	for _, n := range notes {
		note(v, "llm: "+n)
	}
	// The grammar's chitchat says no kind: the message says which small
	// talk it is ("thanks", "bye"), so that pattern_chitchat answers it
	// in kind.
	for i := range cmds {
		if cmds[i].Kind == vm.CmdChitchat && cmds[i].SmallTalk == "" {
			cmds[i].SmallTalk = understand.SmallTalkKind(msg)
		}
	}
	var kept []string
	for _, c := range cmds {
		kept = append(kept, string(c.Kind))
	}
	note(v, "llm: kept "+strings.Join(kept, ", "))
	return cmds, spent, true
}

type chatRequest struct {
	Model          string          `json:"model"`
	Messages       []chatMessage   `json:"messages"`
	Temperature    float64         `json:"temperature"`
	MaxTokens      int             `json:"max_tokens"`
	ResponseFormat json.RawMessage `json:"response_format,omitempty"`
}

// parse reads an answer in the configured format. The line grammar
// cannot fail: lines that are no command are skipped.
func (m *Model) parse(answer string) ([]Raw, []string, error) {
	if m.cfg.Answer == AnswerJSONSchema {
		return ParseJSONCommands(answer)
	}
	raws, skipped := ParseCommands(answer)
	return raws, skipped, nil
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatResponse struct {
	Choices []struct {
		Message      chatMessage `json:"message"`
		FinishReason string      `json:"finish_reason"`
	} `json:"choices"`
}

// complete makes one chat completions request.
func (m *Model) complete(ctx context.Context, prompt string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, m.cfg.Timeout)
	defer cancel()
	cr := chatRequest{Model: m.cfg.Model, Messages: []chatMessage{{Role: "user", Content: prompt}}, Temperature: 0, MaxTokens: m.cfg.MaxTokens}
	if m.cfg.Answer == AnswerJSONSchema {
		cr.ResponseFormat = responseFormat()
	}
	body, _ := json.Marshal(cr)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, m.cfg.BaseURL+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return "", fmt.Errorf("the endpoint %q is not a URL", m.cfg.BaseURL)
	}
	req.Header.Set("Content-Type", "application/json")
	if m.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+m.cfg.APIKey)
	}
	resp, err := m.cfg.Client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return "", &unreachable{fmt.Errorf("no answer within %s", m.cfg.Timeout)}
		}
		return "", &unreachable{fmt.Errorf("request failed: %v", errors.Unwrap(err))}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return "", &unreachable{fmt.Errorf("reading the answer: %v", err)}
	}
	if resp.StatusCode != http.StatusOK {
		return "", &unreachable{fmt.Errorf("status %d: %s", resp.StatusCode, cut(strings.TrimSpace(string(b)), 200))}
	}
	var r chatResponse
	if err := json.Unmarshal(b, &r); err != nil {
		return "", fmt.Errorf("the answer is not chat completions JSON: %s", cut(string(b), 120))
	}
	if len(r.Choices) == 0 {
		return "", errors.New("the answer has no choices")
	}
	c := r.Choices[0]
	if c.FinishReason == "length" {
		if m.cfg.Answer == AnswerJSONSchema {
			return "", errors.New("the answer was cut at max_tokens: its JSON is incomplete (raise max_tokens)")
		}
		// A cut answer may end inside a command: keep its whole lines.
		if i := strings.LastIndexByte(c.Message.Content, '\n'); i >= 0 {
			return c.Message.Content[:i], nil
		}
		return "", errors.New("the answer was cut at max_tokens before its first command ended")
	}
	return c.Message.Content, nil
}

// Hybrid runs the rules first and asks the model whenever they are not
// sure of their answer (understand.Reading): only an exact trigger
// phrase, an exact answer to the pending question, a value of a typed
// pending slot, a short yes or no at a confirmation, small talk with
// nothing asked or a cancel word skips the model (docs/understanding.md,
// "The routing rule"). Rules that do not say how sure they are (any other
// vm.Understander) are trusted when their answer is clean: no fallback,
// and, with a question pending, exactly its answer or a cancel. When the
// model cannot be asked, the rules' commands stand.
type Hybrid struct {
	Rules vm.Understander
	Model *Model
}

// Reader is rules that say how sure they are: *understand.Rules.
type Reader interface {
	Read(ctx context.Context, msg string, v vm.View) (understand.Reading, error)
}

// Understand is the hybrid mode; see Hybrid.
func (h *Hybrid) Understand(ctx context.Context, msg string, v vm.View) ([]vm.Command, error) {
	var cmds []vm.Command
	var sure bool
	var rule string // the rule of the table that read the message
	why := "the rules' answer is not clean"
	if rd, ok := h.Rules.(Reader); ok {
		r, err := rd.Read(ctx, msg, v)
		if err != nil {
			return nil, err
		}
		cmds, sure, why, rule = r.Commands, r.Sure, r.Reason, r.Rule
	} else {
		inner := v
		inner.Answered = func(u vm.Understanding) { rule = u.Rule }
		var err error
		if cmds, err = h.Rules.Understand(ctx, msg, inner); err != nil {
			return nil, err
		}
		sure = clean(cmds, v)
	}
	if sure {
		v.Answer(vm.Understanding{Layer: "rules", Sure: true, Reason: why, Rule: rule})
		return cmds, nil
	}
	who := "the rules are"
	if rule != "" {
		who = "rule " + rule + " is"
	}
	note(v, "hybrid: "+who+" not sure ("+why+"); asking the model")
	got, spent, ok := h.Model.ask(ctx, msg, v)
	if !ok {
		note(v, "hybrid: the model could not be asked; the rules' commands stand")
		v.Answer(vm.Understanding{Layer: "rules", Reason: why + "; the model could not be asked", Rule: rule, ModelCalls: spent.calls, PromptChars: spent.chars})
		return cmds, nil
	}
	v.Answer(vm.Understanding{Layer: "llm", Reason: "the rules were not sure: " + why, Rule: rule, ModelCalls: spent.calls, PromptChars: spent.chars})
	return got, nil
}

// clean reports whether the rules understood the message well enough to
// skip the model: no fallback, and, when a question is pending, exactly
// its answer (the pending slot set, or a yes or no to a confirmation), or
// a cancel.
func clean(cmds []vm.Command, v vm.View) bool {
	if len(cmds) == 0 {
		return false
	}
	for _, c := range cmds {
		if c.Kind == vm.CmdFallback {
			return false
		}
	}
	p := v.Pending
	if p == nil {
		return true
	}
	if len(cmds) != 1 {
		return false
	}
	c := cmds[0]
	switch {
	case c.Kind == vm.CmdCancelFlow:
		return true
	case p.Kind == vm.PendingConfirm:
		return c.Kind == vm.CmdAffirm || c.Kind == vm.CmdDeny
	default:
		return c.Kind == vm.CmdSetSlot && c.Slot == p.Slot
	}
}
