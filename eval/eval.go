// Package eval measures an understanding layer on a labelled set: each
// case reaches a conversation state (earlier messages or commands), gives
// one message, and says which commands it should become. soni eval prints
// the accuracy overall and per command kind, and the confusions.
package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/internal/cmdshape"
	"github.com/soni-dev/soni/internal/safefile"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
	"github.com/soni-dev/soni/understand"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// File is an eval file, as package syntax reads it (syntax.EvalFile):
//
//	flows: ../flows/banking     # the project, relative to this file (or absolute)
//	eval_cases:
//	  - name: transfer_with_amount
//	    before: ["I want to send money"]   # optional: messages, or {commands: [...]}
//	    message: "Transfer 100 euros to John"
//	    expect:
//	      - {start_flow: {flow: transfer_funds, slots: {amount: 100, recipient: John}}}
type File struct {
	Flows string
	// Now is when the messages are sent (a date, 2027-03-10, or an RFC
	// 3339 time), so that relative dates read the same on every run;
	// empty means the real clock.
	Now   string
	Cases []Case
	// Clock is Now, read (soni eval --now replaces it).
	Clock time.Time
}

// Case is one labelled message.
type Case struct {
	Name    string
	Before  []any
	Message string
	Expect  []any
	// Tags are the case's categories; without them its category is its
	// name up to the first underscore (opening_values_flight is
	// "opening").
	Tags []string
}

// Categories returns a case's categories: its tags, else the prefix of
// its name, else "other".
func (c Case) Categories() []string {
	if len(c.Tags) > 0 {
		return c.Tags
	}
	if i := strings.IndexByte(c.Name, '_'); i > 0 {
		return []string{c.Name[:i]}
	}
	if c.Name != "" {
		return []string{c.Name}
	}
	return []string{"other"}
}

// Result is what a run found.
type Result struct {
	File     string          `json:"file"`
	Total    int             `json:"total"`
	Correct  int             `json:"correct"`
	Accuracy float64         `json:"accuracy"`
	ByKind   map[string]Kind `json:"by_kind"`
	// ByCategory is the accuracy per category (tags, or name prefix).
	ByCategory map[string]Kind `json:"by_category"`
	// ByLayer is the accuracy per layer that answered (rules, llm,
	// clarify; "unknown" for a layer that does not say).
	ByLayer map[string]Kind `json:"by_layer"`
	// ByRule is, per rule of the built-in rules' table that read a case
	// (CaseResult.Rule), how many cases it read and the accuracy on
	// them; Model counts those of them the model answered (hybrid).
	ByRule map[string]Kind `json:"by_rule"`
	// ModelCases counts the cases the model answered, and ModelShare is
	// their share: the cost of hybrid.
	ModelCases int     `json:"model_cases"`
	ModelShare float64 `json:"model_share"`
	// SureCases counts the cases answered without the model by a layer
	// that was sure of its answer (the answers hybrid trusts), SureWrong
	// those of them that were wrong, and SureShare and SureWrongShare
	// their shares of all cases: a sure answer that is wrong is one no
	// model can repair.
	SureCases      int     `json:"sure_cases"`
	SureShare      float64 `json:"sure_share"`
	SureWrong      int     `json:"sure_wrong"`
	SureWrongShare float64 `json:"sure_wrong_share"`
	// ModelCalls counts the requests sent to the model (a retry is a
	// second) and PromptChars the characters of their prompts;
	// PromptCharsPerCall is their mean, and PromptTokensPerCall
	// estimates it in tokens (EstimateTokens).
	ModelCalls          int         `json:"model_calls"`
	PromptChars         int         `json:"prompt_chars"`
	PromptCharsPerCall  float64     `json:"prompt_chars_per_call"`
	PromptTokensPerCall float64     `json:"prompt_tokens_per_call"`
	Confusions          []Confusion `json:"confusions"`
	// Cases says, for every case in order, whether it was right and
	// which layer answered it, and why.
	Cases []CaseResult `json:"cases"`
}

// CaseResult is one case's outcome.
type CaseResult struct {
	Case   string `json:"case"`
	OK     bool   `json:"ok"`
	Layer  string `json:"layer"`
	Sure   bool   `json:"sure,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Rule names the rule of the built-in rules' table that read the
	// message: the one that answered, or in hybrid the one whose reading
	// was kept or sent the message to the model. Empty when no rule
	// read it (llm, a clarify answer).
	Rule string `json:"rule,omitempty"`
}

// Kind is the accuracy on the cases that expect a command of one kind
// (or of one category, layer or rule).
type Kind struct {
	Total    int     `json:"total"`
	Correct  int     `json:"correct"`
	Accuracy float64 `json:"accuracy"`
	// Model counts the cases the model answered (ByRule only).
	Model int `json:"model,omitempty"`
}

// Confusion is a case the layer got wrong.
type Confusion struct {
	Case     string `json:"case"`
	Message  string `json:"message"`
	Expected string `json:"expected"`
	Got      string `json:"got"`
	// Layer and Reason say which layer answered and why, and Rule which
	// rule of the rules' table read the message (CaseResult.Rule).
	Layer  string `json:"layer,omitempty"`
	Reason string `json:"reason,omitempty"`
	Rule   string `json:"rule,omitempty"`
}

// Hooks let a caller see each case before it is understood: the oracle
// answers with its labelled commands.
type Hooks struct {
	BeforeCase func(c Case, want []vm.Command)
	// BeforeCaseIn is BeforeCase with the case's index and the
	// conversation it is read in (the noisy oracle writes slot names
	// for the flow in question).
	BeforeCaseIn func(i int, c Case, want []vm.Command, v vm.View)
}

// Load reads an eval file and compiles its project.
func Load(path string) (*File, *ir.Program, string, error) {
	src, err := safefile.ReadFile(path, 16<<20)
	if err != nil {
		return nil, nil, "", fmt.Errorf("cannot read eval file %q: %v", path, err)
	}
	doc, err := syntax.DecodeEvals(filepath.ToSlash(path), src)
	if err != nil {
		return nil, nil, "", fmt.Errorf("eval file %q: %v", path, err)
	}
	f := File{Flows: doc.Flows, Now: doc.Now}
	for _, c := range doc.Cases {
		f.Cases = append(f.Cases, Case{Name: c.Name, Before: goValues(c.Before), Message: c.Message, Expect: goValues(c.Expect), Tags: c.Tags})
	}
	if f.Flows == "" || len(f.Cases) == 0 {
		return nil, nil, "", fmt.Errorf("eval file %q needs flows: (the project) and eval_cases", path)
	}
	if f.Now != "" {
		if f.Clock, err = values.ParseNow(f.Now); err != nil {
			return nil, nil, "", fmt.Errorf("eval file %q: now: %v", path, err)
		}
	}
	dir := filepath.FromSlash(f.Flows)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(filepath.Dir(path), dir)
	}
	r := compiler.Compile(dir, compiler.Options{})
	if r.Program == nil {
		return nil, nil, "", fmt.Errorf("the project %q of eval file %q has errors: %v", dir, path, r.Diags.Err())
	}
	return &f, r.Program, soni.ProjectDir(dir), nil
}

// goValues converts the free-form values of an eval case.
func goValues(ds []*syntax.Data) []any {
	if ds == nil {
		return nil
	}
	out := make([]any, 0, len(ds))
	for _, d := range ds {
		out = append(out, d.Go())
	}
	return out
}

// Run evaluates u on every case. The earlier messages of a case are
// understood by the built-in rules, so that every layer is measured from
// the same state.
// dir is the project directory, where its actions run.
func Run(ctx context.Context, path string, f *File, prog *ir.Program, dir string, u vm.Understander) (*Result, error) {
	return RunWith(ctx, path, f, prog, dir, u, Hooks{})
}

// RunWith is Run with hooks.
func RunWith(ctx context.Context, path string, f *File, prog *ir.Program, dir string, u vm.Understander, hooks Hooks) (*Result, error) {
	eng, err := soni.New(prog, soni.Options{Dir: dir, Understander: understand.New(prog)})
	if err != nil {
		return nil, err
	}
	res := &Result{File: filepath.ToSlash(path), ByKind: map[string]Kind{}, ByCategory: map[string]Kind{}, ByLayer: map[string]Kind{}, ByRule: map[string]Kind{}, Confusions: []Confusion{}}
	count := func(m map[string]Kind, k string, ok bool) {
		kk := m[k]
		kk.Total++
		if ok {
			kk.Correct++
		}
		m[k] = kk
	}
	for i, c := range f.Cases {
		name := c.Name
		if name == "" {
			name = fmt.Sprintf("case %d", i+1)
		}
		session := fmt.Sprintf("eval-%d", i)
		for j, b := range c.Before {
			in := vm.Input{Now: f.Clock}
			switch x := b.(type) {
			case string:
				in.Text = x
			case map[string]any:
				raw, _ := x["commands"].([]any)
				if in.Commands, err = cmdshape.Parse(prog, raw); err != nil || raw == nil {
					return nil, fmt.Errorf("%s: before %d: write a message or {commands: [...]}: %v", name, j+1, err)
				}
			default:
				return nil, fmt.Errorf("%s: before %d is neither a message nor {commands: [...]}", name, j+1)
			}
			if _, err := eng.Handle(ctx, session, in); err != nil {
				return nil, fmt.Errorf("%s: before %d: %w", name, j+1, err)
			}
		}
		want, err := cmdshape.Parse(prog, c.Expect)
		if err != nil {
			return nil, fmt.Errorf("%s: expect: %w", name, err)
		}
		st, _, err := eng.State(ctx, session)
		if err != nil {
			return nil, err
		}
		v := eng.Machine().View(st)
		v.Now = f.Clock
		var answered *vm.Understanding
		v.Answered = func(a vm.Understanding) { answered = &a }
		if hooks.BeforeCase != nil {
			hooks.BeforeCase(c, want)
		}
		if hooks.BeforeCaseIn != nil {
			hooks.BeforeCaseIn(i, c, want, v)
		}
		got, err := u.Understand(ctx, c.Message, v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if len(got) == 0 {
			got = []vm.Command{{Kind: vm.CmdFallback}}
		}
		wantS, gotS := describe(prog, v, want), describe(prog, v, got)
		ok := wantS == gotS
		res.Total++
		layer, reason, rule, sure := "unknown", "", "", false
		if answered != nil {
			layer, reason, rule, sure = answered.Layer, answered.Reason, answered.Rule, answered.Sure
			res.ModelCalls += answered.ModelCalls
			res.PromptChars += answered.PromptChars
		}
		res.Cases = append(res.Cases, CaseResult{Case: name, OK: ok, Layer: layer, Sure: sure, Reason: reason, Rule: rule})
		if layer == "llm" {
			res.ModelCases++
		} else if sure {
			res.SureCases++
			if !ok {
				res.SureWrong++
			}
		}
		count(res.ByLayer, layer, ok)
		if rule != "" {
			count(res.ByRule, rule, ok)
			if layer == "llm" {
				kk := res.ByRule[rule]
				kk.Model++
				res.ByRule[rule] = kk
			}
		}
		for _, cat := range c.Categories() {
			count(res.ByCategory, cat, ok)
		}
		if ok {
			res.Correct++
		} else {
			res.Confusions = append(res.Confusions, Confusion{Case: name, Message: c.Message, Expected: wantS, Got: gotS, Layer: layer, Reason: reason, Rule: rule})
		}
		seen := map[string]bool{}
		for _, w := range want {
			k := string(w.Kind)
			if seen[k] {
				continue
			}
			seen[k] = true
			kk := res.ByKind[k]
			kk.Total++
			if ok {
				kk.Correct++
			}
			res.ByKind[k] = kk
		}
		_ = eng.Reset(ctx, session)
	}
	res.finish()
	return res, nil
}

// finish computes a result's ratios from its counts.
func (r *Result) finish() {
	r.Accuracy = ratio(r.Correct, r.Total)
	r.ModelShare = ratio(r.ModelCases, r.Total)
	r.SureShare = ratio(r.SureCases, r.Total)
	r.SureWrongShare = ratio(r.SureWrong, r.Total)
	r.PromptCharsPerCall = ratio(r.PromptChars, r.ModelCalls)
	r.PromptTokensPerCall = EstimateTokens(r.PromptCharsPerCall)
	for _, m := range []map[string]Kind{r.ByKind, r.ByCategory, r.ByLayer, r.ByRule} {
		for k, v := range m {
			v.Accuracy = ratio(v.Correct, v.Total)
			m[k] = v
		}
	}
}

// EstimateTokens estimates how many tokens a prompt of chars characters
// is: a quarter of its characters, the usual measure for English text
// with the tokenizers of current models (a prompt in Spanish, or one
// full of JSON, costs somewhat more).
func EstimateTokens(chars float64) float64 {
	return chars / 4
}

// Overall adds several files' results into one, named "overall": the
// cases, the model's share and calls, the prompt size per call, and the
// accuracy per kind, category, layer and rule. Its Cases and Confusions are
// left empty: each file's result lists its own.
func Overall(rs []*Result) *Result {
	o := &Result{File: "overall", ByKind: map[string]Kind{}, ByCategory: map[string]Kind{}, ByLayer: map[string]Kind{}, ByRule: map[string]Kind{}, Confusions: []Confusion{}}
	for _, r := range rs {
		o.Total += r.Total
		o.Correct += r.Correct
		o.ModelCases += r.ModelCases
		o.SureCases += r.SureCases
		o.SureWrong += r.SureWrong
		o.ModelCalls += r.ModelCalls
		o.PromptChars += r.PromptChars
		for _, pair := range [][2]map[string]Kind{{o.ByKind, r.ByKind}, {o.ByCategory, r.ByCategory}, {o.ByLayer, r.ByLayer}, {o.ByRule, r.ByRule}} {
			for k, v := range pair[1] {
				kk := pair[0][k]
				kk.Total += v.Total
				kk.Correct += v.Correct
				kk.Model += v.Model
				pair[0][k] = kk
			}
		}
	}
	o.finish()
	return o
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// describe writes commands in a canonical form: values converted to their
// slot's type, a start_flow's slots sorted, the commands sorted.
func describe(prog *ir.Program, v vm.View, cmds []vm.Command) string {
	top := ""
	if n := len(v.Stack); n > 0 {
		top = v.Stack[n-1]
	}
	val := func(flow, slot string, x any) string {
		if def := prog.ResolveSlot(flow, slot); def != nil {
			// Compared by type, limits aside: 40 for a slot whose max is
			// 30 is the same answer whether written 40 or "40".
			loose := *def
			loose.Min, loose.Max = nil, nil
			if c, err := v.Converter().Convert(&loose, x); err == nil {
				x = c
			}
		}
		b, _ := json.Marshal(x)
		return string(b)
	}
	var parts []string
	for _, c := range cmds {
		s := string(c.Kind)
		switch c.Kind {
		case vm.CmdStartFlow:
			s += " " + c.Flow
			var slots []string
			for _, sv := range c.Slots {
				slots = append(slots, sv.Slot+"="+val(c.Flow, sv.Slot, sv.Value))
			}
			sort.Strings(slots)
			if len(slots) > 0 {
				s += " " + strings.Join(slots, " ")
			}
		case vm.CmdSetSlot, vm.CmdCorrectSlot:
			s += " " + c.Slot + "=" + val(top, c.Slot, c.Value)
		case vm.CmdClarify:
			fl := slices.Clone(c.Flows)
			sort.Strings(fl)
			s += " " + strings.Join(fl, " ")
		}
		parts = append(parts, s)
	}
	sort.Strings(parts)
	return "[" + strings.Join(parts, "; ") + "]"
}

// WriteText prints a result for people.
func WriteText(w io.Writer, r *Result) {
	fmt.Fprintf(w, "%s: accuracy %.1f%% (%d/%d)\n", r.File, 100*r.Accuracy, r.Correct, r.Total)
	for _, k := range slices.Sorted(maps.Keys(r.ByKind)) {
		v := r.ByKind[k]
		fmt.Fprintf(w, "  %-14s %5.1f%% (%d/%d)\n", k, 100*v.Accuracy, v.Correct, v.Total)
	}
	fmt.Fprintf(w, "  by category:\n")
	for _, k := range slices.Sorted(maps.Keys(r.ByCategory)) {
		v := r.ByCategory[k]
		fmt.Fprintf(w, "    %-16s %5.1f%% (%d/%d)\n", k, 100*v.Accuracy, v.Correct, v.Total)
	}
	fmt.Fprintf(w, "  by layer:\n")
	for _, k := range slices.Sorted(maps.Keys(r.ByLayer)) {
		v := r.ByLayer[k]
		fmt.Fprintf(w, "    %-16s %5.1f%% (%d/%d)\n", k, 100*v.Accuracy, v.Correct, v.Total)
	}
	if len(r.ByRule) > 0 {
		fmt.Fprintf(w, "  by rule (the rules' table, in order):\n")
		for _, k := range ruleOrder(r.ByRule) {
			v := r.ByRule[k]
			model := ""
			if v.Model > 0 {
				model = fmt.Sprintf(", %d to the model", v.Model)
			}
			fmt.Fprintf(w, "    %-22s %5.1f%% (%d/%d)%s\n", k, 100*v.Accuracy, v.Correct, v.Total, model)
		}
	}
	fmt.Fprintf(w, "  the model answered %.1f%% of the cases (%d/%d)\n", 100*r.ModelShare, r.ModelCases, r.Total)
	fmt.Fprintf(w, "  sure answers without the model: %.1f%% of the cases (%d/%d); sure but wrong: %.1f%% (%d/%d)\n", 100*r.SureShare, r.SureCases, r.Total, 100*r.SureWrongShare, r.SureWrong, r.Total)
	if r.ModelCalls > 0 {
		fmt.Fprintf(w, "  the model was asked %d times, with a prompt of %.0f characters (about %.0f tokens) per call\n", r.ModelCalls, r.PromptCharsPerCall, r.PromptTokensPerCall)
	}
	for _, c := range r.Confusions {
		rule := ""
		if c.Rule != "" {
			rule = ", rule " + c.Rule
		}
		fmt.Fprintf(w, "  confused %s %q: expected %s, got %s (%s%s: %s)\n", c.Case, c.Message, c.Expected, c.Got, c.Layer, rule, c.Reason)
	}
}

// ruleOrder lists the rules of m in the order of the rules' table
// (understand.RuleNames), then any other by name.
func ruleOrder(m map[string]Kind) []string {
	var out []string
	known := map[string]bool{}
	for _, name := range understand.RuleNames() {
		known[name] = true
		if _, ok := m[name]; ok {
			out = append(out, name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(m)) {
		if !known[name] {
			out = append(out, name)
		}
	}
	return out
}
