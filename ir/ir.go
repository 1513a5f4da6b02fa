// Package ir defines the compiled form of a soni project: an immutable graph
// of nodes per flow, with resolved successor edges and the source position
// of every node. A Program is produced by package compiler, encoded as
// canonical JSON, and executed by package vm, which never needs the YAML.
//
// Successor edges are node indexes within the flow; [End] means the flow
// ends there. Expressions and templates are kept as source text with their
// positions; the VM compiles them once when it loads the program.
package ir

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/soni-dev/soni/diag"
)

// Version is the IR version. It changes whenever the encoding changes in a
// way an older decoder could misread.
const Version = 1

// End is the successor index that ends the flow (the __end__ target).
const End = -1

// EndStep is the reserved step id that ends a flow.
const EndStep = "__end__"

// Kind is the type of a node.
type Kind string

// The node kinds, one per step type.
const (
	KindSay     Kind = "say"
	KindCollect Kind = "collect"
	KindSet     Kind = "set"
	KindBranch  Kind = "branch"
	KindWhile   Kind = "while"
	KindAction  Kind = "action"
	KindLink    Kind = "link"
	KindCall    Kind = "call"
	KindConfirm Kind = "confirm"
)

// Kinds lists every node kind.
var Kinds = []Kind{KindSay, KindCollect, KindSet, KindBranch, KindWhile, KindAction, KindLink, KindCall, KindConfirm}

// WaitsForUser reports whether nodes of this kind may raise need_input.
func (k Kind) WaitsForUser() bool { return k == KindCollect || k == KindConfirm }

// Program is a compiled project. It is immutable once built and safe to
// share between goroutines.
type Program struct {
	IRVersion int      `json:"ir_version"`
	Settings  Settings `json:"settings"`
	// Slots are the conversation slots, sorted by name.
	Slots []*Slot `json:"slots"`
	// Actions are the declared actions, sorted by name.
	Actions []*Action `json:"actions"`
	// Validators are the declared named validators, sorted by name. A
	// validator declaration has the shape of an action's (a name, a
	// description and a run block) with no inputs or outputs: it is called
	// with one value and answers with a verdict.
	Validators []*Action `json:"validators,omitempty"`
	// Flows are sorted by name. They include a default flow for every
	// conversation-repair pattern the project does not define itself
	// (see [Patterns]); those have Builtin set.
	Flows []*Flow `json:"flows"`
	// Responses are the responses, sorted by name: the project's, and
	// the built-in ones the default patterns say that the project does
	// not define (see [DefaultResponses]), marked Builtin. The compiler
	// adds the default flows and responses from compiler/defaults/.
	Responses []*Response `json:"responses,omitempty"`
}

// Settings are the project settings with defaults applied.
type Settings struct {
	IdleMessage        string `json:"idle_message"`
	FallbackMessage    string `json:"fallback_message"`
	CancelMessage      string `json:"cancel_message"`
	ActionErrorMessage string `json:"action_error_message"`
	MaxStepsPerTurn    int    `json:"max_steps_per_turn"`
	MaxStackDepth      int    `json:"max_stack_depth"`
	HistorySize        int    `json:"history_size"`
	// SessionExpiration, a Go duration, makes a conversation idle for
	// longer start afresh on its next message; "" never expires.
	SessionExpiration string `json:"session_expiration,omitempty"`
	// DropSlotsOnExpiry (carry_over_slots: false) also resets the
	// conversation slots of an expired conversation.
	DropSlotsOnExpiry bool `json:"drop_slots_on_expiry,omitempty"`
	// ChitchatMessage answers small talk (a chitchat command); "" says
	// the fallback message.
	ChitchatMessage string `json:"chitchat_message,omitempty"`
	// Handoff is what a request for a person does: the name of a flow to
	// start, or a message to say; "" says the fallback message.
	Handoff string `json:"handoff,omitempty"`
	// ClarifyMessage asks which flow was meant; {options} lists them.
	ClarifyMessage string `json:"clarify_message,omitempty"`
	// DateOrder says how an all-numeric date that reads both ways
	// (12/04/2026) is read: "dmy" (day first) or "mdy" (month first);
	// "" refuses it and asks for the month in words.
	DateOrder string `json:"date_order,omitempty"`
	// VersionPolicy says what a session saved with another version of the
	// program does (version_policy): "finish" (the default, ""),
	// "upgrade" or "restart"; see docs/serve.md, "Deploying new flows".
	VersionPolicy string `json:"version_policy,omitempty"`
	// Language is the project's default language: the language of a
	// session whose language slot and metadata name none. "" means the
	// responses' texts as written, never a translation.
	Language string `json:"language,omitempty"`
	// Understanding is the understanding block, or nil (the rules).
	Understanding *Understanding `json:"understanding,omitempty"`
	// Extra holds the compatibility settings (rephrase_responses, llm, ...),
	// kept as given.
	Extra map[string]any `json:"extra,omitempty"`
}

// Understanding says how messages become commands: mode rules (the
// default), llm or hybrid, and the model. Strings may hold ${VAR}
// references, read from the environment when the engine starts.
type Understanding struct {
	Mode string `json:"mode,omitempty"`
	// BaseURL and Model name the OpenAI-compatible endpoint and model.
	BaseURL string `json:"base_url,omitempty"`
	Model   string `json:"model,omitempty"`
	// APIKeyEnv names the environment variable that holds the key; the
	// key itself is never in a file.
	APIKeyEnv string `json:"api_key_env,omitempty"`
	// Timeout is a Go duration; MaxHistory the messages in the prompt.
	Timeout    string `json:"timeout,omitempty"`
	MaxHistory int    `json:"max_history,omitempty"`
	// Prompt is a prompt template file, relative to the project.
	Prompt string `json:"prompt,omitempty"`
	// ResponseFormat is how the model answers: text (the default, the
	// line grammar) or json_schema (structured outputs).
	ResponseFormat string `json:"response_format,omitempty"`
	// Lexicon extends the rules' built-in lexicon: each word with the
	// words and phrases that mean the same.
	Lexicon map[string][]string `json:"lexicon,omitempty"`
}

// DefaultSettings returns the settings used when a project sets none.
func DefaultSettings() Settings {
	return Settings{
		IdleMessage:        "How can I help?",
		FallbackMessage:    "Sorry, I didn't understand that.",
		CancelMessage:      "Okay, I've cancelled that.",
		ActionErrorMessage: "Sorry, something went wrong while trying to {action}.",
		MaxStepsPerTurn:    1000,
		MaxStackDepth:      32,
		HistorySize:        20,
	}
}

// SlotType is the type of a slot's value.
type SlotType string

// The slot types. Aliases (string, float, bool) are resolved by the compiler.
const (
	TypeText        SlotType = "text"
	TypeInteger     SlotType = "integer"
	TypeNumber      SlotType = "number"
	TypeBoolean     SlotType = "boolean"
	TypeCategorical SlotType = "categorical"
	TypeDate        SlotType = "date"
	TypeAny         SlotType = "any"
	// TypeList holds several values from one answer ("pepperoni and
	// mushrooms"): a list of strings, each a canonical value when the
	// slot declares values, else a trimmed item of text.
	TypeList SlotType = "list"
)

// Slot is a typed variable of the conversation or of a flow.
type Slot struct {
	Name        string   `json:"name"`
	Type        SlotType `json:"type"`
	Description string   `json:"description,omitempty"`
	// Label is a short name end users may see ("departure date").
	Label string `json:"label,omitempty"`
	// Values are the categorical values with their synonyms; for a list
	// slot, the values each item may take.
	Values  []Value  `json:"values,omitempty"`
	Min     *float64 `json:"min,omitempty"`
	Max     *float64 `json:"max,omitempty"`
	Pattern string   `json:"pattern,omitempty"`
	// MinItems and MaxItems bound the number of items of a list slot's
	// value; zero means no bound.
	MinItems       int       `json:"min_items,omitempty"`
	MaxItems       int       `json:"max_items,omitempty"`
	Validation     *Expr     `json:"validation,omitempty"`
	InvalidMessage *Template `json:"invalid_message,omitempty"`
	// Initial is the value at conversation start (conversation slots only).
	Initial any      `json:"initial,omitempty"`
	Pos     diag.Pos `json:"pos"`
}

// Value is one categorical value, its synonyms and its display label.
type Value struct {
	Value string `json:"value"`
	// Label is what users see for the value in replies, buttons and
	// confirmations ("premium economy" for premium_economy); empty
	// shows the value itself. Users may also type it.
	Label    string   `json:"label,omitempty"`
	Synonyms []string `json:"synonyms,omitempty"`
}

// Shown is what users see for a value of the slot: the label of a
// categorical value that has one, a list slot's items joined as "a, b
// and c" (each by its label), else v itself.
func (s *Slot) Shown(v any) any {
	if s != nil && s.Type == TypeList {
		return s.shownList(v)
	}
	if s == nil || s.Type != TypeCategorical {
		return v
	}
	if str, ok := v.(string); ok {
		for i := range s.Values {
			if s.Values[i].Value == str && s.Values[i].Label != "" {
				return s.Values[i].Label
			}
		}
	}
	return v
}

// shownList is a list slot's value as users read it: its items, each
// value's label when it has one, joined as "a, b and c". A value that is
// not a list is shown as it is.
func (s *Slot) shownList(v any) any {
	var items []string
	switch x := v.(type) {
	case []any:
		items = make([]string, 0, len(x))
		for _, it := range x {
			str, ok := it.(string)
			if !ok {
				return v
			}
			items = append(items, str)
		}
	case []string:
		items = x
	default:
		return v
	}
	shown := make([]string, len(items))
	for i, it := range items {
		shown[i] = it
		for j := range s.Values {
			if s.Values[j].Value == it {
				shown[i] = s.Values[j].ShownValue()
				break
			}
		}
	}
	return JoinAnd(shown)
}

// JoinAnd joins items as a sentence lists them: "a", "a and b", "a, b
// and c".
func JoinAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// ShownValue is the label of a categorical value, or the value itself.
func (v Value) ShownValue() string {
	if v.Label != "" {
		return v.Label
	}
	return v.Value
}

// Action is a declared action.
type Action struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Inputs are the slots sent to the action. Required inputs must be set.
	Inputs   []string `json:"inputs,omitempty"`
	Required []string `json:"required,omitempty"`
	Outputs  []string `json:"outputs,omitempty"`
	// RequiredOutputs are the outputs the action must return: a call that
	// leaves one out fails. Any other output it leaves out is not set.
	RequiredOutputs []string `json:"required_outputs,omitempty"`
	Run             *Run     `json:"run,omitempty"`
	Pos             diag.Pos `json:"pos"`
}

// Run says how an action runs outside Go: a command or an HTTP endpoint.
type Run struct {
	Exec []string `json:"exec,omitempty"`
	// Env lists the environment variables passed to an exec command.
	Env  []string `json:"env,omitempty"`
	HTTP *HTTP    `json:"http,omitempty"`
	// Rasa is a Rasa action server (docs/actions.md): its webhook gets
	// Rasa's request and answers with events and responses.
	Rasa *HTTP `json:"rasa,omitempty"`
	// Timeout is a Go duration string; empty means the default.
	Timeout string `json:"timeout,omitempty"`
}

// HTTP is an HTTP action endpoint, or a Rasa action server.
type HTTP struct {
	URL     string            `json:"url"`
	Timeout string            `json:"timeout,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Retry   *Retry            `json:"retry,omitempty"`
}

// Retry is an HTTP retry policy.
type Retry struct {
	Attempts int    `json:"attempts"`
	Backoff  string `json:"backoff,omitempty"`
}

// UnsureConfidence is the confidence the rules report for a reading they
// are not sure of (a sure one is 1), which a flow's MinConfidence is
// compared with.
const UnsureConfidence = 0.5

// Flow is a compiled flow: its nodes in step order, with node 0 the entry.
type Flow struct {
	Name string `json:"name"`
	// Label is the flow's name for people ("transfer money"), as a
	// pattern's context shows it; "" means the name with its underscores
	// as spaces (see [Flow.Title]).
	Label       string   `json:"label,omitempty"`
	Description string   `json:"description,omitempty"`
	Triggers    []string `json:"triggers,omitempty"`
	// MinConfidence is the confidence the understanding must have to
	// start the flow from a message (trigger.min_confidence; 0: any). The
	// rules report 1 for a sure reading and [UnsureConfidence] for one
	// they are not sure of.
	MinConfidence float64 `json:"min_confidence,omitempty"`
	// If is the flow's guard: the flow can only start while it holds.
	If *Expr `json:"if,omitempty"`
	// Builtin is true for a pattern's default flow, which soni provides
	// because the project does not define a flow of that name.
	Builtin bool `json:"builtin,omitempty"`
	// Slots are the flow slots, declared or implicit, sorted by name.
	Slots []*Slot  `json:"slots,omitempty"`
	Nodes []*Node  `json:"nodes"`
	Pos   diag.Pos `json:"pos"`
}

// Node is one step of a flow. Which fields are set depends on Kind.
type Node struct {
	ID   string   `json:"id"`
	Kind Kind     `json:"kind"`
	Pos  diag.Pos `json:"pos"`
	// Next is the successor after the node has run normally.
	Next int `json:"next"`
	// Replaces are the ids this step had in earlier versions of the flow
	// (replaces:): a session paused at one of them resumes here, so a
	// renamed step is a compatible change.
	Replaces []string `json:"replaces,omitempty"`

	// say, collect, confirm
	Message *Template `json:"message,omitempty"`
	// collect, confirm, branch on a slot
	Slot string `json:"slot,omitempty"`
	// collect
	Validator    *Validator `json:"validator,omitempty"`
	ErrorMessage *Template  `json:"error_message,omitempty"`
	Force        bool       `json:"force,omitempty"`
	MaxAttempts  int        `json:"max_attempts,omitempty"`
	// OnInvalid is where a collect goes after MaxAttempts invalid answers; End cancels.
	OnInvalid *int `json:"on_invalid,omitempty"`
	// AskAction is the action that asks a collect's question, each time
	// it is asked: what it says is the question (Rasa's action_ask_SLOT).
	// Message, when set, asks instead if the action fails.
	AskAction string `json:"ask_action,omitempty"`
	// set
	Assign []Assign `json:"assign,omitempty"`
	// set (optional) and while
	Condition *Expr `json:"condition,omitempty"`
	// branch
	Evaluate *Expr  `json:"evaluate,omitempty"`
	Cases    []Case `json:"cases,omitempty"`
	// while: the first body node, and where to go when the condition is false.
	Body *int `json:"body,omitempty"`
	Exit *int `json:"exit,omitempty"`
	// action
	Action     string    `json:"action,omitempty"`
	MapOutputs []Mapping `json:"map_outputs,omitempty"`
	OnError    *int      `json:"on_error,omitempty"`
	// link, call
	Target string `json:"target,omitempty"`
	// confirm
	OnConfirm *int `json:"on_confirm,omitempty"`
	OnDeny    *int `json:"on_deny,omitempty"`
}

// Template is a message template as written, with its position, or a
// reference to a response: when Response is set, the message is that
// response's, and Src is empty.
type Template struct {
	Src      string   `json:"src"`
	Response string   `json:"response,omitempty"`
	Pos      diag.Pos `json:"pos"`
}

// Expr is an expression as written, with its position.
type Expr struct {
	Src string   `json:"src"`
	Pos diag.Pos `json:"pos"`
}

// Validator is a collect step's validator: a built-in name, a named
// validator (declared under validators, or provided at run time), or an
// expression. Exactly one field is set.
type Validator struct {
	Builtin string `json:"builtin,omitempty"`
	Name    string `json:"name,omitempty"`
	Expr    *Expr  `json:"expr,omitempty"`
}

// AssignKind says how a set value is computed.
type AssignKind string

// The kinds of set values.
const (
	AssignLiteral  AssignKind = "literal"
	AssignTemplate AssignKind = "template"
	AssignExpr     AssignKind = "expr"
	AssignClear    AssignKind = "clear"
)

// Assign is one slot assignment of a set step.
type Assign struct {
	Slot     string     `json:"slot"`
	Kind     AssignKind `json:"kind"`
	Value    any        `json:"value,omitempty"`
	Template *Template  `json:"template,omitempty"`
	Expr     *Expr      `json:"expr,omitempty"`
}

// Case is one branch case: a pattern and the node it jumps to.
type Case struct {
	Pattern string `json:"pattern"`
	Target  int    `json:"target"`
}

// Mapping maps an action output to a slot.
type Mapping struct {
	Output string `json:"output"`
	Slot   string `json:"slot"`
}

// Flow returns the flow with the given name, or nil.
func (p *Program) Flow(name string) *Flow {
	for _, f := range p.Flows {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Action returns the declared action with the given name, or nil.
func (p *Program) Action(name string) *Action {
	for _, a := range p.Actions {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// BuiltinValidators are the names of the built-in validators of a collect
// step, sorted.
var BuiltinValidators = []string{"email", "iban", "not_empty", "phone", "positive"}

// IsBuiltinValidator reports whether name is a built-in validator.
func IsBuiltinValidator(name string) bool {
	return slices.Contains(BuiltinValidators, name)
}

// Response returns the response with the given name, or nil.
func (p *Program) Response(name string) *Response {
	for _, r := range p.Responses {
		if r.Name == name {
			return r
		}
	}
	return nil
}

// Title returns the flow's name for people: its label, or its name with
// underscores as spaces.
func (f *Flow) Title() string {
	if f.Label != "" {
		return f.Label
	}
	return strings.ReplaceAll(f.Name, "_", " ")
}

// Validator returns the declared validator with the given name, or nil.
func (p *Program) Validator(name string) *Action {
	for _, a := range p.Validators {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// Slot returns the conversation slot with the given name, or nil.
func (p *Program) Slot(name string) *Slot {
	for _, s := range p.Slots {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Slot returns the flow slot with the given name, or nil.
func (f *Flow) Slot(name string) *Slot {
	for _, s := range f.Slots {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Index returns the index of the node with the given step id, or -1.
func (f *Flow) Index(id string) int {
	for i, n := range f.Nodes {
		if n.ID == id {
			return i
		}
	}
	return -1
}

// ResolveSlot returns the definition of a slot as seen from a flow: a
// conversation slot of that name if one is declared (a name declared at the
// top level always means the conversation slot), else the flow's own slot,
// else nil.
func (p *Program) ResolveSlot(flow, name string) *Slot {
	if s := p.Slot(name); s != nil {
		return s
	}
	if f := p.Flow(flow); f != nil {
		return f.Slot(name)
	}
	return nil
}

// ParseDuration reads a duration of an action's run block: a Go duration
// ("5s", "250ms", "1m30s") or a plain number of seconds ("5", "2.5"). It
// must be positive.
func ParseDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || math.IsNaN(f) || math.IsInf(f, 0) || f > math.MaxInt64/float64(time.Second) {
			return 0, fmt.Errorf("invalid duration %q: write a number of seconds or a duration such as 10s or 500ms", s)
		}
		d = time.Duration(f * float64(time.Second))
	}
	if d <= 0 {
		return 0, fmt.Errorf("invalid duration %q: it must be positive", s)
	}
	return d, nil
}

// Callees maps each flow slot of the flows a flow calls, directly or
// through other calls, that the flow itself does not have (nor the
// conversation), to the first flow that has it, in breadth-first order
// of the calls and by name within a level. A start_flow of the flow may
// give values for these slots: the VM holds them until the called flow
// asks for them.
func (p *Program) Callees(flow string) map[string]string {
	f := p.Flow(flow)
	if f == nil {
		return nil
	}
	var out map[string]string
	seen := map[string]bool{flow: true}
	level := []*Flow{f}
	for len(level) > 0 {
		var next []string
		for _, cur := range level {
			for _, n := range cur.Nodes {
				if n != nil && n.Kind == KindCall && !seen[n.Target] && p.Flow(n.Target) != nil {
					seen[n.Target] = true
					next = append(next, n.Target)
				}
			}
		}
		slices.Sort(next)
		level = level[:0]
		for _, name := range next {
			callee := p.Flow(name)
			level = append(level, callee)
			for _, s := range callee.Slots {
				if f.Slot(s.Name) != nil || p.Slot(s.Name) != nil {
					continue
				}
				if _, taken := out[s.Name]; !taken {
					if out == nil {
						out = map[string]string{}
					}
					out[s.Name] = name
				}
			}
		}
	}
	return out
}
