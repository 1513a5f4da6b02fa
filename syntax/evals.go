package syntax

import (
	"errors"
	"fmt"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/internal/yamlpos"
)

// EvalFile is an eval file (soni eval, docs/understanding.md): labelled
// messages, each with the commands an understanding layer should make of
// it. DecodeEvals reads one.
//
//	flows: ../flows/banking     # the project, relative to this file (or absolute)
//	now: 2027-03-10             # optional: when the messages are sent
//	eval_cases:
//	  - name: transfer_with_amount
//	    before: ["I want to send money"]   # optional: messages, or {commands: [...]}
//	    message: "Transfer 100 euros to John"
//	    expect:
//	      - {start_flow: {flow: transfer_funds, slots: {amount: 100, recipient: John}}}
//	    tags: [opening]                    # optional: the case's categories
type EvalFile struct {
	// Name is the file's name as given to DecodeEvals.
	Name     string
	Flows    string
	FlowsPos diag.Pos
	// Now is the now: key's value as written ("" when absent).
	Now    string
	NowPos diag.Pos
	Cases  []*EvalCase
}

// EvalCase is one labelled message.
type EvalCase struct {
	Name string
	// Pos is where the case starts.
	Pos diag.Pos
	// Before are the earlier messages: a string, or {commands: [...]}.
	Before  []*Data
	Message string
	// Expect are the commands expected, in the shapes of a test file's
	// commands.
	Expect []*Data
	Tags   []string
}

// EvalError is a problem DecodeEvals found, where it is.
type EvalError struct {
	Pos diag.Pos
	Msg string
}

func (e *EvalError) Error() string {
	if !e.Pos.IsValid() {
		return e.Msg
	}
	return fmt.Sprintf("[%d:%d] %s", e.Pos.Line, e.Pos.Col, e.Msg)
}

// The keys of eval files.
var (
	evalFileKeys = []string{"flows", "now", "eval_cases"}
	evalCaseKeys = []string{"name", "before", "message", "expect", "tags"}
)

// DecodeEvals reads an eval file. The error lists every problem found,
// one *EvalError each.
func DecodeEvals(name string, src []byte) (*EvalFile, error) {
	p := ParseTests(src)
	if errors.Is(p.err, errNotText) {
		return nil, &EvalError{Msg: "not UTF-8 text"}
	}
	file, err := p.whole()
	if err != nil {
		msg, pos := err.Error(), diag.Pos{}
		var yerr yaml.Error
		if errors.As(err, &yerr) {
			msg = yerr.GetMessage()
			if tk := yerr.GetToken(); tk != nil && tk.Position != nil {
				pos = diag.Pos{File: name, Line: tk.Position.Line, Col: tk.Position.Column}
			}
		}
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return nil, &EvalError{Pos: pos, Msg: "invalid YAML: " + strings.TrimSpace(msg)}
	}
	var body ast.Node
	for _, doc := range file.Docs {
		if b := doc.Body; b != nil {
			if _, ok := b.(*ast.CommentGroupNode); !ok {
				if body != nil {
					return nil, &EvalError{Pos: yamlpos.NodePos(name, b), Msg: "more than one YAML document"}
				}
				body = b
			}
		}
	}
	var ds diag.List
	d := &evalDecoder{f: &EvalFile{Name: name}, p: Problems{Diags: &ds}}
	d.file(dataOf(name, body))
	ds.Sort()
	var errs []error
	for _, dg := range ds {
		errs = append(errs, &EvalError{Pos: dg.Pos, Msg: dg.Message})
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return d.f, nil
}

// evalDecoder decodes one eval file.
type evalDecoder struct {
	f *EvalFile
	p Problems
}

// unknown reports a key the format does not have.
func (d *evalDecoder) unknown(e DataEntry, where string, allowed []string) {
	d.p.Errorf(e.KeyPos, TestUnknownKey, "unknown field %q in %s (the fields are %s)", e.Key, where, strings.Join(allowed, ", "))
}

func (d *evalDecoder) file(body *Data) {
	if body.IsNull() {
		return
	}
	entries, ok := d.p.Map(body, "an eval file")
	if !ok {
		return
	}
	for _, e := range entries {
		switch e.Key {
		case "flows":
			if s, ok := d.p.Text(e.Value, "flows"); ok {
				d.f.Flows, d.f.FlowsPos = s, e.Value.Pos
			}
		case "now":
			if s, ok := d.p.Text(e.Value, "now"); ok {
				d.f.Now, d.f.NowPos = s, e.Value.Pos
			}
		case "eval_cases":
			if e.Value.IsNull() {
				continue
			}
			items, ok := d.p.List(e.Value, "eval_cases")
			if !ok {
				continue
			}
			for _, item := range items {
				if c := d.evalCase(item); c != nil {
					d.f.Cases = append(d.f.Cases, c)
				}
			}
		default:
			d.unknown(e, "an eval file", evalFileKeys)
		}
	}
}

func (d *evalDecoder) evalCase(n *Data) *EvalCase {
	entries, ok := d.p.Map(n, "an eval case")
	if !ok {
		return nil
	}
	c := &EvalCase{Pos: n.Pos}
	list := func(v *Data, what string) []*Data {
		if v.IsNull() {
			return nil
		}
		items, _ := d.p.List(v, what)
		for _, it := range items {
			d.p.Value(it) // an alias is reported
		}
		return items
	}
	for _, e := range entries {
		switch e.Key {
		case "name":
			c.Name, _ = d.p.Text(e.Value, "name")
		case "message":
			c.Message, _ = d.p.Text(e.Value, "message")
		case "before":
			c.Before = list(e.Value, "before")
		case "expect":
			c.Expect = list(e.Value, "expect")
		case "tags":
			for _, t := range list(e.Value, "tags") {
				if s, ok := d.p.Text(t, "a tag"); ok {
					c.Tags = append(c.Tags, s)
				}
			}
		default:
			d.unknown(e, "an eval case", evalCaseKeys)
		}
	}
	return c
}
