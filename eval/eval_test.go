package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/soni-dev/soni/understand"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func golden(t *testing.T, path, got string) {
	t.Helper()
	if os.Getenv("SONI_UPDATE") != "" {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run with SONI_UPDATE=1 to write %s", path)
	assert.Equal(t, string(want), got, "%s is out of date: SONI_UPDATE=1 go test ./eval", path)
}

// TestRulesOnTheSmallSet pins the whole report, text and JSON, of the
// built-in rules on a small set.
func TestRulesOnTheSmallSet(t *testing.T) {
	path := "testdata/small.eval.yaml"
	f, prog, dir, err := Load(path)
	require.NoError(t, err)
	r, err := Run(context.Background(), path, f, prog, dir, understand.New(prog))
	require.NoError(t, err)
	assert.Equal(t, 8, r.Total)
	var text bytes.Buffer
	WriteText(&text, r)
	golden(t, "testdata/small.golden.txt", text.String())
	js, err := json.MarshalIndent(r, "", "  ")
	require.NoError(t, err)
	golden(t, "testdata/small.golden.json", string(js)+"\n")
}

// always answers every message with the same commands.
type always []vm.Command

func (a always) Understand(context.Context, string, vm.View) ([]vm.Command, error) {
	return a, nil
}

// TestScoring: a layer that always says fallback is right once, and
// every other case is a confusion; one that says nothing is a fallback.
func TestScoring(t *testing.T) {
	path := "testdata/small.eval.yaml"
	f, prog, dir, err := Load(path)
	require.NoError(t, err)
	for _, u := range []vm.Understander{always{{Kind: vm.CmdFallback}}, always{}} {
		r, err := Run(context.Background(), path, f, prog, dir, u)
		require.NoError(t, err)
		assert.Equal(t, 1, r.Correct)
		assert.InDelta(t, 1.0/8, r.Accuracy, 1e-9)
		assert.Len(t, r.Confusions, 7)
		assert.Equal(t, Kind{Total: 1, Correct: 1, Accuracy: 1}, r.ByKind["fallback"])
		assert.Equal(t, Kind{Total: 4, Correct: 0, Accuracy: 0}, r.ByKind["start_flow"])
		assert.Equal(t, "[fallback]", r.Confusions[0].Got)
	}
	// Extra commands are wrong too: the answer is compared whole.
	r, err := Run(context.Background(), path, f, prog, dir, always{{Kind: vm.CmdFallback}, {Kind: vm.CmdChitchat}})
	require.NoError(t, err)
	assert.Equal(t, 0, r.Correct)
}

// TestBadFiles: every mistake in an eval file is named.
func TestBadFiles(t *testing.T) {
	tests := []struct {
		name, body, err string
	}{
		{"not yaml", "flows: [", "eval file"},
		{"unknown field", "flows: ../../flows/banking\ncases: []\n", `unknown field "cases"`},
		{"no cases", "flows: ../../flows/banking\n", "needs flows: (the project) and eval_cases"},
		{"no project", "flows: nowhere\neval_cases: [{message: hi, expect: [fallback]}]\n", "has errors"},
		{"bad before", "flows: ../../flows/banking\neval_cases: [{message: hi, before: [3], expect: [fallback]}]\n", "before 1 is neither a message nor {commands: [...]}"},
		{"bad commands", "flows: ../../flows/banking\neval_cases: [{message: hi, before: [{commands: [{start_flow: nope}]}], expect: [fallback]}]\n", `before 1`},
		{"bad expect", "flows: ../../flows/banking\neval_cases: [{message: hi, expect: [{set_slot: 3}]}]\n", "expect"},
		{"unknown flow expected", "flows: ../../flows/banking\neval_cases: [{message: hi, expect: [{start_flow: nope}]}]\n", `"nope"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			banking, err := filepath.Abs("../flows/banking")
			require.NoError(t, err)
			path := filepath.Join(t.TempDir(), "bad.eval.yaml")
			body := strings.ReplaceAll(tt.body, "../../flows/banking", filepath.ToSlash(banking))
			require.NoError(t, os.WriteFile(path, []byte(body), 0o644))
			f, prog, dir, err := Load(path)
			if err == nil {
				_, err = Run(context.Background(), path, f, prog, dir, understand.New(prog))
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.err)
		})
	}
}

// costly answers fallback and says it asked a model: twice (a retry) with
// prompts of 1000 characters for a message that mentions money, never
// for another.
type costly struct{}

func (costly) Understand(_ context.Context, msg string, v vm.View) ([]vm.Command, error) {
	if strings.Contains(msg, "0") {
		v.Answer(vm.Understanding{Layer: "llm", ModelCalls: 2, PromptChars: 2000})
	} else {
		v.Answer(vm.Understanding{Layer: "rules"})
	}
	return []vm.Command{{Kind: vm.CmdFallback}}, nil
}

// TestModelCost: a result counts the model's calls and the characters of
// their prompts, and says the prompt's size per call in characters and
// estimated tokens; Overall adds files up.
func TestModelCost(t *testing.T) {
	path := "testdata/small.eval.yaml"
	f, prog, dir, err := Load(path)
	require.NoError(t, err)
	r, err := Run(context.Background(), path, f, prog, dir, costly{})
	require.NoError(t, err)
	asked := 0
	for _, c := range f.Cases {
		if strings.Contains(c.Message, "0") {
			asked++
		}
	}
	require.Positive(t, asked)
	require.Less(t, asked, r.Total)
	assert.Equal(t, asked, r.ModelCases)
	assert.Equal(t, 2*asked, r.ModelCalls)
	assert.Equal(t, 2000*asked, r.PromptChars)
	assert.InDelta(t, 1000, r.PromptCharsPerCall, 1e-9)
	assert.InDelta(t, 250, r.PromptTokensPerCall, 1e-9)
	var text bytes.Buffer
	WriteText(&text, r)
	assert.Contains(t, text.String(), "\n  the model was asked "+strconv.Itoa(2*asked)+" times, with a prompt of 1000 characters (about 250 tokens) per call\n")

	rules, err := Run(context.Background(), path, f, prog, dir, understand.New(prog))
	require.NoError(t, err)
	assert.Zero(t, rules.ModelCalls)
	text.Reset()
	WriteText(&text, rules)
	assert.NotContains(t, text.String(), "the model was asked")

	o := Overall([]*Result{r, rules})
	assert.Equal(t, "overall", o.File)
	assert.Equal(t, 2*r.Total, o.Total)
	assert.Equal(t, r.Correct+rules.Correct, o.Correct)
	assert.InDelta(t, float64(asked)/float64(2*r.Total), o.ModelShare, 1e-9)
	assert.InDelta(t, 1000, o.PromptCharsPerCall, 1e-9)
	assert.Equal(t, r.ByKind["fallback"].Total+rules.ByKind["fallback"].Total, o.ByKind["fallback"].Total)
	assert.InDelta(t, float64(o.ByLayer["llm"].Correct)/float64(o.ByLayer["llm"].Total), o.ByLayer["llm"].Accuracy, 1e-9)
}

// unsureToModel is hybrid with a model that says fallback: the rules'
// sure readings stand, the others go to the "model", each naming the
// rule that read the message.
type unsureToModel struct{ rules *understand.Rules }

func (u unsureToModel) Understand(ctx context.Context, msg string, v vm.View) ([]vm.Command, error) {
	rd, err := u.rules.Read(ctx, msg, v)
	if err != nil {
		return nil, err
	}
	if rd.Sure {
		v.Answer(vm.Understanding{Layer: "rules", Sure: true, Reason: rd.Reason, Rule: rd.Rule})
		return rd.Commands, nil
	}
	v.Answer(vm.Understanding{Layer: "llm", Reason: rd.Reason, Rule: rd.Rule, ModelCalls: 1})
	return []vm.Command{{Kind: vm.CmdFallback}}, nil
}

// TestByRule: a result counts the cases per rule that read them, with
// the accuracy and how many went to the model; the text lists them in
// the table's order, and each confusion names its rule; Overall adds
// them up.
func TestByRule(t *testing.T) {
	path := "testdata/small.eval.yaml"
	f, prog, dir, err := Load(path)
	require.NoError(t, err)
	r, err := Run(context.Background(), path, f, prog, dir, unsureToModel{understand.New(prog)})
	require.NoError(t, err)
	total, model := 0, 0
	for _, c := range r.Cases {
		require.NotEmpty(t, c.Rule, c.Case)
		assert.Contains(t, understand.RuleNames(), c.Rule)
	}
	for name, k := range r.ByRule {
		total += k.Total
		model += k.Model
		n, correct, m := 0, 0, 0
		for _, c := range r.Cases {
			if c.Rule == name {
				n++
				if c.OK {
					correct++
				}
				if c.Layer == "llm" {
					m++
				}
			}
		}
		assert.Equal(t, Kind{Total: n, Correct: correct, Accuracy: float64(correct) / float64(n), Model: m}, k, name)
	}
	assert.Equal(t, r.Total, total)
	assert.Equal(t, r.ModelCases, model)
	require.Positive(t, model)

	var text bytes.Buffer
	WriteText(&text, r)
	var listed []string
	_, section, ok := strings.Cut(text.String(), "  by rule (the rules' table, in order):\n")
	require.True(t, ok, text.String())
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "    ") {
			break
		}
		listed = append(listed, strings.Fields(line)[0])
	}
	var order []string
	for _, name := range understand.RuleNames() {
		if r.ByRule[name].Total > 0 {
			order = append(order, name)
		}
	}
	assert.Equal(t, order, listed, "the text lists the rules in the table's order")
	for _, c := range r.Confusions {
		assert.Contains(t, text.String(), "("+c.Layer+", rule "+c.Rule+": ")
	}

	o := Overall([]*Result{r, r})
	for name, k := range r.ByRule {
		assert.Equal(t, Kind{Total: 2 * k.Total, Correct: 2 * k.Correct, Accuracy: k.Accuracy, Model: 2 * k.Model}, o.ByRule[name], name)
	}
}

// sureFallback answers fallback, sure of it, without a model, except for
// a message that mentions money, which it says the model answered.
type sureFallback struct{}

func (sureFallback) Understand(_ context.Context, msg string, v vm.View) ([]vm.Command, error) {
	if strings.Contains(msg, "0") {
		v.Answer(vm.Understanding{Layer: "llm", Sure: true})
	} else {
		v.Answer(vm.Understanding{Layer: "rules", Sure: true})
	}
	return []vm.Command{{Kind: vm.CmdFallback}}, nil
}

// TestSureButWrong: a result counts the sure answers given without the
// model and those of them that are wrong, says both in the report, and
// Overall adds them up; a model's answer is never counted as sure.
func TestSureButWrong(t *testing.T) {
	path := "testdata/small.eval.yaml"
	f, prog, dir, err := Load(path)
	require.NoError(t, err)
	r, err := Run(context.Background(), path, f, prog, dir, sureFallback{})
	require.NoError(t, err)
	sure, wrong := 0, 0
	for _, c := range f.Cases {
		if strings.Contains(c.Message, "0") {
			continue
		}
		sure++
		if c.Name != "fallback" {
			wrong++
		}
	}
	require.Positive(t, wrong)
	require.Less(t, sure, r.Total)
	assert.Equal(t, sure, r.SureCases)
	assert.Equal(t, wrong, r.SureWrong)
	assert.InDelta(t, float64(wrong)/float64(r.Total), r.SureWrongShare, 1e-9)
	var text bytes.Buffer
	WriteText(&text, r)
	assert.Contains(t, text.String(), fmt.Sprintf("\n  sure answers without the model: %.1f%% of the cases (%d/%d); sure but wrong: %.1f%% (%d/%d)\n",
		100*float64(sure)/float64(r.Total), sure, r.Total, 100*float64(wrong)/float64(r.Total), wrong, r.Total))

	o := Overall([]*Result{r, r})
	assert.Equal(t, 2*wrong, o.SureWrong)
	assert.Equal(t, 2*sure, o.SureCases)
	assert.InDelta(t, r.SureWrongShare, o.SureWrongShare, 1e-9)
}
