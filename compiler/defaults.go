package compiler

import (
	"embed"
	"fmt"
	"path"
	"sync"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
)

// The default patterns and their responses are data: the YAML files under
// defaults/, written as a project would write them. patterns.yaml holds
// them all; the other files hold the flow a setting puts in place of one
// of them (chitchat_message, handoff). Each file is compiled once, and
// every program the compiler makes carries each default flow and
// response its project does not define, marked Builtin, so the VM and
// every front end see the same program.
//
//go:embed defaults/*.yaml
var defaultFiles embed.FS

// defaultSet is the compiled default patterns.
type defaultSet struct {
	// base is patterns.yaml, compiled.
	base *ir.Program
	// chitchat, handoffMsg and handoffFlow are the pattern_chitchat or
	// pattern_human_handoff that chitchat_message.yaml,
	// handoff_message.yaml and handoff_flow.yaml define.
	chitchat, handoffMsg, handoffFlow *ir.Flow
}

var (
	defaultsOnce sync.Once
	defaultsSet  defaultSet
)

// handoffTarget is the flow handoff_flow.yaml links to, standing for the
// flow the handoff setting names.
const handoffTarget = "handoff_target"

// defaults compiles the default patterns' files the first time it is
// called. They are part of soni, and TestDefaultPatterns compiles them:
// that they fail to compile is a defect of soni, not of any input.
func defaults() *defaultSet {
	defaultsOnce.Do(func() {
		d := &defaultsSet
		one := func(name string) *ir.Program {
			src, err := defaultFiles.ReadFile("defaults/" + name)
			if err != nil {
				panic(err)
			}
			r := compileInputs([]input{{name: ir.DefaultsDir + name, src: src}}, Options{}.withDefaults(), nil, true, false)
			if r.Program == nil {
				panic(fmt.Sprintf("soni's default patterns do not compile: %v", r.Diags.Err()))
			}
			for _, f := range r.Program.Flows {
				f.Builtin = true
			}
			for _, x := range r.Program.Responses {
				x.Builtin = true
			}
			return r.Program
		}
		flow := func(name, pattern string) *ir.Flow { return one(name).Flow(pattern) }
		d.base = one(path.Base(ir.DefaultsFile))
		d.chitchat = flow("chitchat_message.yaml", ir.PatternChitchat)
		d.handoffMsg = flow("handoff_message.yaml", ir.PatternHumanHandoff)
		d.handoffFlow = flow("handoff_flow.yaml", ir.PatternHumanHandoff)
	})
	return &defaultsSet
}

// addDefaults appends to a lowered program the default flow of every
// pattern and the default responses it does not define. The message settings
// give the texts of the responses they configure (at the setting's
// position when the project sets it; pos gives the settings' positions by
// name), and chitchat_message and handoff choose the flows of
// pattern_chitchat and pattern_human_handoff.
func addDefaults(p *ir.Program, pos map[string]diag.Pos) {
	d := defaults()
	s := p.Settings
	handoffFlow := s.Handoff != "" && p.Flow(s.Handoff) != nil
	handoffMsg := ""
	if s.Handoff != "" && !handoffFlow {
		handoffMsg = s.Handoff
	}
	// The message settings that give a default response its text.
	fromSetting := map[string]struct{ key, text string }{
		ir.ResponseAskRephrase:   {"fallback_message", s.FallbackMessage},
		ir.ResponseFlowCancelled: {"cancel_message", s.CancelMessage},
		ir.ResponseInternalError: {"action_error_message", s.ActionErrorMessage},
		ir.ResponseClarification: {"clarify_message", s.ClarifyMessage},
		ir.ResponseChitchat:      {"chitchat_message", s.ChitchatMessage},
		ir.ResponseHumanHandoff:  {"handoff", handoffMsg},
	}
	for _, r := range d.base.Responses {
		if p.Response(r.Name) != nil {
			continue
		}
		if set := fromSetting[r.Name]; set.text != "" {
			at, ok := pos[set.key]
			if !ok {
				at = r.Pos
			}
			v := &ir.Variation{Text: &ir.Template{Src: set.text, Pos: at}, Pos: at}
			r = &ir.Response{Name: r.Name, Variations: []*ir.Variation{v}, Builtin: true, Pos: at}
		}
		p.Responses = append(p.Responses, r)
	}
	for _, f := range d.base.Flows {
		if p.Flow(f.Name) != nil {
			continue
		}
		switch {
		case f.Name == ir.PatternChitchat && s.ChitchatMessage != "":
			f = d.chitchat
		case f.Name == ir.PatternHumanHandoff && handoffFlow:
			f = retarget(d.handoffFlow, s.Handoff)
		case f.Name == ir.PatternHumanHandoff && handoffMsg != "":
			f = d.handoffMsg
		}
		p.Flows = append(p.Flows, f)
	}
}

// settingPositions gives the position of each setting's value by name.
func settingPositions(p *project) map[string]diag.Pos {
	pos := make(map[string]diag.Pos, len(p.Settings))
	for _, st := range p.Settings {
		at := st.Pos
		if st.Text.Set {
			at = st.Text.Pos
		}
		pos[st.Key.V] = at
	}
	return pos
}

// retarget returns a copy of a flow whose links to handoffTarget go to
// target instead.
func retarget(f *ir.Flow, target string) *ir.Flow {
	out := *f
	out.Nodes = make([]*ir.Node, len(f.Nodes))
	for i, n := range f.Nodes {
		if n.Kind == ir.KindLink && n.Target == handoffTarget {
			c := *n
			c.Target = target
			n = &c
		}
		out.Nodes[i] = n
	}
	return &out
}

// AddDefaultPatterns adds soni's default patterns and their responses to
// a program built without the compiler (by hand, in tests), as [Compile]
// adds them to every program it makes: the default flow of every pattern
// and each default response the program does not define, configured by
// its message settings, after the program's own. p is changed.
func AddDefaultPatterns(p *ir.Program) { addDefaults(p, nil) }
