package compiler

import (
	"math"
	"strconv"
	"strings"

	"github.com/soni-dev/soni/internal/yamlpos"

	"github.com/soni-dev/soni/values"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
)

// decoder turns one file's YAML tree into the typed model. It is lenient:
// values of the wrong shape are skipped, because the schema pass has
// already reported them with a better message.
type decoder struct {
	p     *parsed
	file  string
	lines [][]byte
	ds    *diag.List
	proj  *project
}

type entry struct {
	key   posStr
	value ast.Node
	// bool is true when the key is a YAML boolean (true, True, FALSE...).
	bool bool
}

// unwrap follows anchors, tags and aliases to the node that holds the value.
func (d *decoder) unwrap(n ast.Node) ast.Node {
	for i := 0; i < 64 && n != nil; i++ {
		switch x := n.(type) {
		case *ast.AnchorNode:
			n = x.Value
		case *ast.TagNode:
			n = x.Value
		case *ast.AliasNode:
			if x.Value == nil {
				return nil
			}
			n = d.p.anchors[x.Value.GetToken().Value]
		default:
			return n
		}
	}
	return n
}

func (d *decoder) pos(n ast.Node) diag.Pos { return yamlpos.NodePos(d.file, n) }

// entries lists a mapping's entries in order, expanding merge keys and
// reporting duplicate keys with both positions. It returns nil for a node
// that is not a mapping.
func (d *decoder) entries(n ast.Node, path string) []entry {
	m, ok := d.unwrap(n).(*ast.MappingNode)
	if !ok {
		return nil
	}
	out := make([]entry, 0, len(m.Values))
	seen := make(map[string]diag.Pos, len(m.Values))
	var merged []entry
	for _, mv := range m.Values {
		if _, isMerge := mv.Key.(*ast.MergeKeyNode); isMerge {
			v := d.unwrap(mv.Value)
			if seq, ok := v.(*ast.SequenceNode); ok {
				for _, item := range seq.Values {
					merged = append(merged, d.entries(item, path)...)
				}
			} else {
				merged = append(merged, d.entries(v, path)...)
			}
			continue
		}
		k := d.scalarStr(mv.Key, "")
		k.Path = join(path, k.V)
		if prev, dup := seen[k.V]; dup {
			d.ds.Add(k.Pos, diag.CodeDuplicateKey, k.Path, "key %q is already defined at %d:%d: remove or rename one of the two, as YAML keeps only one", k.V, prev.Line, prev.Col)
			continue
		}
		seen[k.V] = k.Pos
		_, isBool := d.unwrap(mv.Key).(*ast.BoolNode)
		out = append(out, entry{key: k, value: mv.Value, bool: isBool})
	}
	for _, e := range merged {
		if _, dup := seen[e.key.V]; !dup {
			seen[e.key.V] = e.key.Pos
			e.key.Path = join(path, e.key.V)
			out = append(out, e)
		}
	}
	return out
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// items returns a sequence's items, or nil.
func (d *decoder) items(n ast.Node) []ast.Node {
	if s, ok := d.unwrap(n).(*ast.SequenceNode); ok {
		return s.Values
	}
	return nil
}

// itemPos returns the position of a sequence item's '-' when there is one.
func (d *decoder) itemPos(seq ast.Node, i int, item ast.Node) diag.Pos {
	if s, ok := d.unwrap(seq).(*ast.SequenceNode); ok && i < len(s.Entries) && s.Entries[i] != nil && s.Entries[i].Start != nil && s.Entries[i].Start.Position != nil {
		p := s.Entries[i].Start.Position
		return diag.Pos{File: d.file, Line: p.Line, Col: p.Column}
	}
	return d.pos(item)
}

// scalar returns a scalar node's value as Go data: string, int64, uint64,
// float64, bool or nil. ok is false for collections.
func (d *decoder) scalar(n ast.Node) (any, bool) {
	switch x := d.unwrap(n).(type) {
	case nil, *ast.NullNode:
		return nil, true
	case *ast.StringNode:
		return x.Value, true
	case *ast.LiteralNode:
		return x.Value.Value, true
	case *ast.IntegerNode:
		switch v := x.Value.(type) {
		case int64:
			return v, true
		case uint64:
			return v, true
		}
		return x.Value, true
	case *ast.FloatNode:
		return x.Value, true
	case *ast.BoolNode:
		return x.Value, true
	case *ast.InfinityNode:
		return x.Value, true
	case *ast.NanNode:
		return x.GetToken().Value, true
	}
	return nil, false
}

// scalarStr returns a scalar as a positioned string; numbers and booleans
// are written as in the source. Set is false for collections and nulls.
func (d *decoder) scalarStr(n ast.Node, path string) posStr {
	s := posStr{Path: path, Pos: d.pos(n)}
	u := d.unwrap(n)
	switch x := u.(type) {
	case *ast.StringNode:
		s.V, s.Set = x.Value, true
		tk := x.GetToken()
		if tk != nil && tk.Position != nil {
			switch tk.Type {
			case token.DoubleQuoteType:
				s.Pos.Col++
				if !strings.ContainsAny(tk.Origin, "\\\n") {
					s.Mode = ModeInline
				}
			case token.SingleQuoteType:
				s.Pos.Col++
				if !strings.ContainsAny(tk.Origin, "\n") && !strings.Contains(tk.Value, "'") {
					s.Mode = ModeInline
				}
			default:
				if !strings.Contains(strings.TrimSpace(tk.Origin), "\n") {
					s.Mode = ModeInline
				}
			}
			if u != n {
				// Through an alias: positions are those of the anchor's value.
				s.Pos = d.pos(x)
				if tk.Type == token.DoubleQuoteType || tk.Type == token.SingleQuoteType {
					s.Pos.Col++
				}
			}
			if s.Mode == ModeApprox {
				origin := tk.Origin
				if tk.Type == token.DoubleQuoteType {
					// goccy's Origin drops the digits of a \u escape:
					// read the string from the file.
					origin = d.quoted(tk.Position.Line, tk.Position.Column)
				}
				d.mapRunes(&s, origin, tk.Position.Line, tk.Position.Column)
			}
		}
	case *ast.LiteralNode:
		s.V, s.Set = x.Value.Value, true
		if x.Start != nil && x.Start.Position != nil && x.Start.Value != "" && x.Start.Value[0] == '|' {
			line := x.Start.Position.Line + 1
			if line-1 < len(d.lines) {
				// The block's indentation: the first line with text in the
				// file, less the spaces the value keeps on it (more with an
				// indentation indicator such as |2).
				ind, k := 0, 0
				vlines := strings.Split(s.V, "\n")
				for ; k < len(vlines) && line-1+k < len(d.lines); k++ {
					if strings.TrimSpace(vlines[k]) != "" {
						l := d.lines[line-1+k]
						for ind < len(l) && l[ind] == ' ' {
							ind++
						}
						ind -= len(vlines[k]) - len(strings.TrimLeft(vlines[k], " "))
						break
					}
				}
				s.Pos = diag.Pos{File: d.file, Line: line, Col: max(ind, 0) + 1}
				s.Mode = ModeBlock
			}
		} else if x.Start != nil && x.Start.Position != nil && x.Value != nil {
			// A folded block (>): its lines are joined, so each rune is
			// looked up in the block's text, which starts on the next line.
			if vt := x.Value.GetToken(); vt != nil {
				d.mapRunes(&s, vt.Origin, x.Start.Position.Line+1, 1)
			}
		}
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode:
		s.V, s.Set = x.GetToken().Value, true
		s.Mode = ModeInline
	}
	return s
}

// quoted returns the source text of the double-quoted string whose
// opening quote is at line:col (1-based; col counts runes), up to and
// including its closing quote, or "" when it cannot be read.
func (d *decoder) quoted(line, col int) string {
	if line < 1 || line > len(d.lines) {
		return ""
	}
	var b strings.Builder
	first := []rune(string(d.lines[line-1]))
	if col < 1 || col > len(first) || first[col-1] != '"' {
		return ""
	}
	b.WriteRune('"')
	esc := false
	rest := first[col:]
	for l := line; ; {
		for _, r := range rest {
			b.WriteRune(r)
			switch {
			case esc:
				esc = false
			case r == '\\':
				esc = true
			case r == '"':
				return b.String()
			}
		}
		l++
		if l > len(d.lines) {
			return ""
		}
		b.WriteByte('\n')
		esc = false
		rest = []rune(string(d.lines[l-1]))
	}
}

// mapRunes gives s the file position of each rune of its value, for a
// scalar whose characters do not sit one for one in the file (escapes,
// folded or continued lines). origin is the scalar's source text; its
// first character that is not white space is at line:col. Each rune of the
// value that is not white space is found at the next equal character of
// the source; one that is not there (an escape such as \u00e9) takes the
// current place. White space takes the current place. Names, braces and
// operators, which diagnostics point at, are so found exactly.
func (d *decoder) mapRunes(s *posStr, origin string, line, col int) {
	src := []rune(origin)
	i := 0
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	if i == len(src) {
		return
	}
	// Positions of the source runes from i on.
	pos := make([]filePos, len(src)-i)
	l, c := line, col
	for j := i; j < len(src); j++ {
		pos[j-i] = filePos{int32(l), int32(c)}
		if src[j] == '\n' {
			l, c = l+1, 1
		} else {
			c++
		}
	}
	src = src[i:]
	at := make([]filePos, 0, len(s.V))
	cur := 0
	for _, r := range s.V {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
			at = append(at, pos[min(cur, len(pos)-1)])
			continue
		}
		j := cur
		for j < len(src) && src[j] != r {
			j++
		}
		if j < len(src) {
			at = append(at, pos[j])
			cur = j + 1
			continue
		}
		at = append(at, pos[min(cur, len(pos)-1)])
	}
	s.at = &at
	s.Mode = ModeMapped
}

// boolean returns a scalar bool.
func (d *decoder) boolean(n ast.Node) bool {
	v, _ := d.scalar(n)
	b, _ := v.(bool)
	return b
}

// number returns a scalar number.
func (d *decoder) number(n ast.Node) (float64, bool) {
	v, _ := d.scalar(n)
	return values.Float64(v)
}

// count reads a whole number and where it is written; a value that is
// not a whole number (the schema reports it) reads as not set.
func (d *decoder) count(n ast.Node) posCount {
	f, ok := d.number(n)
	if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<31 {
		return posCount{}
	}
	return posCount{V: int(f), Set: true, Pos: d.pos(n)}
}

// strList reads a list of strings; a single string counts as a list of one.
func (d *decoder) strList(n ast.Node, path string) []posStr {
	items := d.items(n)
	if items == nil {
		if s := d.scalarStr(n, path); s.Set {
			return []posStr{s}
		}
		return nil
	}
	out := make([]posStr, 0, len(items))
	for i, it := range items {
		if s := d.scalarStr(it, index(path, i)); s.Set {
			out = append(out, s)
		}
	}
	return out
}

// decodeFile adds one file's definitions to the project.
func (d *decoder) decodeFile() {
	for _, e := range d.entries(d.p.body, "") {
		switch e.key.V {
		case "version":
			d.version(e.value)
		case "settings":
			for _, s := range d.entries(e.value, "settings") {
				v, _ := d.scalar(s.value)
				if _, ok := d.scalar(s.value); !ok {
					v = d.generic(s.value)
				}
				st := &setting{Key: s.key, Value: v, Pos: s.key.Pos}
				if _, isStr := v.(string); isStr {
					st.Text = d.scalarStr(s.value, s.key.Path)
				}
				d.proj.Settings = append(d.proj.Settings, st)
			}
		case "slots":
			for _, s := range d.entries(e.value, "slots") {
				slot := d.slot(s.value, s.key, s.key.Path)
				d.proj.Slots = append(d.proj.Slots, slot)
			}
		case "actions":
			for _, a := range d.entries(e.value, "actions") {
				d.proj.Actions = append(d.proj.Actions, d.action(a))
			}
		case "validators":
			for _, a := range d.entries(e.value, "validators") {
				d.proj.Validators = append(d.proj.Validators, d.action(a))
			}
		case "flows":
			for _, f := range d.entries(e.value, "flows") {
				d.proj.Flows = append(d.proj.Flows, d.flow(f))
			}
		case "responses":
			for _, r := range d.entries(e.value, "responses") {
				d.proj.Responses = append(d.proj.Responses, d.response(r))
			}
		}
	}
}

// version reports a version other than "1.0" (E010). The string must be
// "1.0"; a number must equal 1.0 (1, 1.0 and 1.00 are the same number). A
// list, a mapping or null is the schema's wrong type (E012), not reported
// here.
func (d *decoder) version(n ast.Node) {
	raw, ok := d.scalar(n)
	if !ok || raw == nil {
		return
	}
	switch x := raw.(type) {
	case string:
		if x == "1.0" {
			return
		}
	case int64:
		if x == 1 {
			return
		}
	case uint64:
		if x == 1 {
			return
		}
	case float64:
		if x == 1 {
			return
		}
	}
	v := d.scalarStr(n, "version")
	d.ds.Add(v.Pos, diag.CodeVersion, "version", "unsupported version %q: this soni supports version \"1.0\"", v.V)
}

// generic converts any node to Go data (for compatibility settings).
func (d *decoder) generic(n ast.Node) any {
	if v, ok := d.scalar(n); ok {
		return v
	}
	if items := d.items(n); items != nil {
		out := make([]any, len(items))
		for i, it := range items {
			out[i] = d.generic(it)
		}
		return out
	}
	m := map[string]any{}
	for _, e := range d.entries(n, "") {
		m[e.key.V] = d.generic(e.value)
	}
	return m
}

var typeAliases = map[string]ir.SlotType{
	"text": ir.TypeText, "string": ir.TypeText, "str": ir.TypeText,
	"integer": ir.TypeInteger, "int": ir.TypeInteger,
	"number": ir.TypeNumber, "float": ir.TypeNumber,
	"boolean": ir.TypeBoolean, "bool": ir.TypeBoolean,
	"categorical": ir.TypeCategorical,
	"date":        ir.TypeDate,
	"any":         ir.TypeAny,
	"list":        ir.TypeList,
}

// slot decodes a slot definition mapping.
func (d *decoder) slot(n ast.Node, name posStr, path string) *slotDef {
	s := &slotDef{Name: name, Pos: name.Pos, Path: path, Resolved: ir.TypeText}
	for _, e := range d.entries(n, path) {
		switch e.key.V {
		case "name":
			if s.Name.V == "" {
				s.Name = d.scalarStr(e.value, e.key.Path)
			}
		case "type":
			s.Type = d.scalarStr(e.value, e.key.Path)
		case "description":
			s.Description = d.scalarStr(e.value, e.key.Path)
		case "label":
			s.Label = d.scalarStr(e.value, e.key.Path)
		case "values":
			s.ValuesSet = true
			if items := d.items(e.value); items != nil {
				for i, it := range items {
					if v := d.scalarStr(it, index(e.key.Path, i)); v.Set {
						s.Values = append(s.Values, ir.Value{Value: v.V})
					}
				}
			} else {
				for _, ve := range d.entries(e.value, e.key.Path) {
					val := ir.Value{Value: ve.key.V}
					syns := ve.value
					// {label: "premium economy", synonyms: [...]}
					if fields := d.entries(ve.value, ve.key.Path); fields != nil {
						syns = nil
						for _, f := range fields {
							switch f.key.V {
							case "label":
								val.Label = d.scalarStr(f.value, f.key.Path).V
							case "synonyms":
								syns = f.value
							}
						}
					}
					if syns != nil {
						for _, syn := range d.strList(syns, ve.key.Path) {
							val.Synonyms = append(val.Synonyms, syn.V)
						}
					}
					s.Values = append(s.Values, val)
				}
			}
		case "min":
			if f, ok := d.number(e.value); ok {
				s.Min = &f
			}
		case "max":
			if f, ok := d.number(e.value); ok {
				s.Max = &f
			}
		case "pattern":
			s.Pattern = d.scalarStr(e.value, e.key.Path)
		case "min_items":
			s.MinItems = d.count(e.value)
		case "max_items":
			s.MaxItems = d.count(e.value)
		case "validation":
			s.Validation = d.scalarStr(e.value, e.key.Path)
		case "invalid_message":
			s.Invalid, s.InvalidResp = d.message(e)
		case "initial":
			s.Initial = d.generic(e.value)
			s.HasInitial = true
			s.InitialPos = d.pos(e.value)
		}
	}
	if s.Type.Set {
		if t, ok := typeAliases[strings.ToLower(s.Type.V)]; ok {
			s.Resolved = t
		}
	} else if s.ValuesSet {
		s.Resolved = ir.TypeCategorical
	}
	return s
}

// action decodes an action declaration.
func (d *decoder) action(e entry) *action {
	a := &action{Name: e.key, Pos: e.key.Pos, Path: e.key.Path}
	for _, f := range d.entries(e.value, e.key.Path) {
		switch f.key.V {
		case "description":
			a.Description = d.scalarStr(f.value, f.key.Path)
		case "inputs":
			for i, it := range d.items(f.value) {
				p := index(f.key.Path, i)
				if s := d.scalarStr(it, p); s.Set {
					a.Inputs = append(a.Inputs, s)
					continue
				}
				var name posStr
				req := false
				for _, g := range d.entries(it, p) {
					switch g.key.V {
					case "name":
						name = d.scalarStr(g.value, g.key.Path)
					case "required":
						req = d.boolean(g.value)
					}
				}
				if name.Set {
					a.Inputs = append(a.Inputs, name)
					if req {
						a.Required = append(a.Required, name)
					}
				}
			}
		case "required":
			a.Required = append(a.Required, d.strList(f.value, f.key.Path)...)
		case "outputs":
			a.Outputs = d.strList(f.value, f.key.Path)
		case "required_outputs":
			a.RequiredOutputs = d.strList(f.value, f.key.Path)
		case "run":
			a.Run = d.run(f.value, f.key.Path, &a.Durations)
		}
	}
	return a
}

// run decodes an action's run block.
func (d *decoder) run(n ast.Node, path string, durations *[]posStr) *ir.Run {
	dur := func(n ast.Node, path string) string {
		s := d.scalarStr(n, path)
		if s.Set {
			*durations = append(*durations, s)
		}
		return s.V
	}
	r := &ir.Run{}
	for _, e := range d.entries(n, path) {
		switch e.key.V {
		case "exec":
			if s := d.scalarStr(e.value, e.key.Path); s.Set {
				r.Exec = strings.Fields(s.V)
			} else {
				for _, s := range d.strList(e.value, e.key.Path) {
					r.Exec = append(r.Exec, s.V)
				}
			}
		case "env":
			for _, s := range d.strList(e.value, e.key.Path) {
				r.Env = append(r.Env, s.V)
			}
		case "timeout":
			r.Timeout = dur(e.value, e.key.Path)
		case "http":
			r.HTTP = d.httpRun(e.value, e.key.Path, dur)
		case "rasa":
			r.Rasa = d.httpRun(e.value, e.key.Path, dur)
		}
	}
	return r
}

// httpRun decodes an http or rasa block of a run block; dur decodes a
// duration.
func (d *decoder) httpRun(n ast.Node, path string, dur func(ast.Node, string) string) *ir.HTTP {
	h := &ir.HTTP{}
	for _, g := range d.entries(n, path) {
		switch g.key.V {
		case "url":
			h.URL = d.scalarStr(g.value, g.key.Path).V
		case "timeout":
			h.Timeout = dur(g.value, g.key.Path)
		case "headers":
			h.Headers = map[string]string{}
			for _, hh := range d.entries(g.value, g.key.Path) {
				h.Headers[hh.key.V] = d.scalarStr(hh.value, hh.key.Path).V
			}
		case "retry":
			rt := &ir.Retry{}
			for _, rr := range d.entries(g.value, g.key.Path) {
				switch rr.key.V {
				case "attempts":
					f, _ := d.number(rr.value)
					rt.Attempts = int(f)
				case "backoff":
					rt.Backoff = dur(rr.value, rr.key.Path)
				}
			}
			h.Retry = rt
		}
	}
	return h
}

// flow decodes a flow definition.
func (d *decoder) flow(e entry) *flow {
	f := &flow{Name: e.key, Pos: e.key.Pos, Path: e.key.Path, steps: map[string]*step{}, slots: map[string]*slotDef{}}
	var inline []*step
	for _, g := range d.entries(e.value, e.key.Path) {
		switch g.key.V {
		case "description":
			f.Description = d.scalarStr(g.value, g.key.Path)
		case "name":
			f.Label = d.scalarStr(g.value, g.key.Path)
		case "if":
			f.If = d.scalarStr(g.value, g.key.Path)
		case "trigger":
			for _, t := range d.entries(g.value, g.key.Path) {
				switch t.key.V {
				case "intents":
					f.Triggers = append(f.Triggers, d.strList(t.value, t.key.Path)...)
				case "min_confidence":
					if v, ok := d.number(t.value); ok {
						f.MinConfidence = v
					}
				}
			}
		case "slots":
			for i, it := range d.items(g.value) {
				p := index(g.key.Path, i)
				s := d.slot(it, posStr{Pos: d.itemPos(g.value, i, it), Path: p}, p)
				if s.Name.Set {
					s.Pos = s.Name.Pos
				}
				s.Flow = f
				f.Slots = append(f.Slots, s)
			}
		case "steps":
			for i, it := range d.items(g.value) {
				st := d.step(f, it, d.itemPos(g.value, i, it), index(g.key.Path, i), &inline)
				f.Steps = append(f.Steps, st)
			}
		}
	}
	f.Main = len(f.Steps)
	f.Steps = append(f.Steps, inline...)
	for i, s := range f.Steps {
		s.Index = i
	}
	return f
}

// step decodes one step; inline while-body steps are appended to inline.
func (d *decoder) step(f *flow, n ast.Node, pos diag.Pos, path string, inline *[]*step) *step {
	s := newStep(f, pos, path)
	str := func(e entry) posStr { return d.scalarStr(e.value, e.key.Path) }
	// jump reads a jump target: the Python framework's __end_flow__ is
	// read as __end__, with a warning.
	jump := func(v posStr, field string) posStr {
		if v.V == "__end_flow__" {
			d.ds.Add(v.Pos, diag.CodeEndFlow, v.Path, "%s: __end_flow__ is the Python framework's name for __end__: soni reads it as __end__ (ends the flow normally); write __end__", field)
			v.V = ir.EndStep
		}
		return v
	}
	var slotKey, evalKey *posStr
	for _, e := range d.entries(n, path) {
		switch e.key.V {
		case "slot":
			slotKey = &e.key
		case "evaluate":
			evalKey = &e.key
		}
		switch e.key.V {
		case "step":
			s.ID = str(e)
		case "type":
			s.Type = str(e)
			if isKnownKind(s.Type.V) {
				s.Kind = ir.Kind(s.Type.V)
			}
		case "jump_to":
			s.JumpTo = jump(str(e), "jump_to")
		case "replaces":
			s.Replaces = d.strList(e.value, e.key.Path)
		case "message":
			s.Message = str(e)
		case "response":
			s.Response = str(e)
		case "rephrase":
			s.Rephrase = d.boolean(e.value)
		case "slot":
			s.Slot = str(e)
		case "validator":
			s.collect().Validator = str(e)
		case "validation_error_message":
			s.collect().ErrorMessage, s.collect().ErrorResp = d.message(e)
		case "force":
			s.collect().Force = d.boolean(e.value)
		case "max_attempts":
			if f, ok := d.number(e.value); ok {
				s.collect().MaxAttempts = int(f)
			}
		case "on_invalid":
			s.collect().OnInvalid = jump(str(e), "on_invalid")
		case "ask_action":
			s.collect().AskAction = str(e)
		case "slots":
			for _, a := range d.entries(e.value, e.key.Path) {
				s.set().Assign = append(s.Assign, d.assign(a))
			}
		case "condition":
			s.Condition = str(e)
		case "evaluate":
			s.branch().Evaluate = str(e)
		case "cases":
			for _, c := range d.entries(e.value, e.key.Path) {
				pat := c.key
				if c.bool {
					// True: or FALSE: is a YAML boolean, and means the
					// pattern true or false (as for the Python framework,
					// whose YAML reader saw a boolean key).
					pat.V = strings.ToLower(pat.V)
				}
				s.branch().Cases = append(s.Cases, &branchCase{Pattern: pat, Target: jump(d.scalarStr(c.value, c.key.Path), "branch case")})
			}
		case "do":
			for i, it := range d.items(e.value) {
				p := index(e.key.Path, i)
				if ref := d.scalarStr(it, p); ref.Set {
					s.while().Do = append(s.Do, &doEntry{Ref: ref})
					continue
				}
				if _, ok := d.unwrap(it).(*ast.MappingNode); ok {
					body := d.step(f, it, d.itemPos(e.value, i, it), p, inline)
					body.Inline = true
					*inline = append(*inline, body)
					s.while().Do = append(s.Do, &doEntry{Ref: body.ID, Step: body})
				}
			}
		case "exit_to":
			s.while().ExitTo = jump(str(e), "exit_to")
		case "call":
			s.action().Call = str(e)
		case "map_outputs":
			for _, m := range d.entries(e.value, e.key.Path) {
				s.action().MapOutputs = append(s.MapOutputs, &mapping{Output: m.key, Slot: d.scalarStr(m.value, m.key.Path)})
			}
		case "on_error":
			s.action().OnError = jump(str(e), "on_error")
		case "target":
			s.link().Target = str(e)
		case "on_confirm":
			s.confirm().OnConfirm = jump(str(e), "on_confirm")
		case "on_deny":
			s.confirm().OnDeny = jump(str(e), "on_deny")
		}
	}
	if s.Kind == ir.KindBranch {
		switch {
		case slotKey == nil && evalKey == nil:
			d.ds.Add(pos, diag.CodeMissingField, path,
				"missing required field \"slot\" or \"evaluate\" in branch step: give the slot whose value the cases test, or an expression")
		case slotKey != nil && evalKey != nil:
			d.ds.Add(evalKey.Pos, diag.CodeInvalidValue, evalKey.Path,
				"branch step has both \"slot\" and \"evaluate\": keep exactly one")
		}
	}
	return s
}

// assign decodes one entry of a set step's slots.
func (d *decoder) assign(e entry) *assign {
	a := &assign{Slot: e.key, Pos: d.pos(e.value)}
	if ents := d.entries(e.value, e.key.Path); ents != nil {
		for _, x := range ents {
			if x.key.V == "expr" {
				a.Kind = ir.AssignExpr
				a.Src = d.scalarStr(x.value, x.key.Path)
				a.Pos = a.Src.Pos
			}
		}
		if a.Kind == "" {
			a.Kind = ir.AssignLiteral
			a.Value = d.generic(e.value)
			if len(ents) == 1 && isExprTypo(ents[0].key.V) {
				k := ents[0].key
				dg := d.ds.Add(k.Pos, diag.CodeUnknownKey, k.Path, "unknown key %q in an {expr: ...} value", k.V)
				dg.Suggestion = `did you mean "expr"?`
			}
		}
		return a
	}
	v, ok := d.scalar(e.value)
	if !ok {
		a.Kind = ir.AssignLiteral
		a.Value = d.generic(e.value)
		return a
	}
	switch x := v.(type) {
	case nil:
		a.Kind = ir.AssignClear
	case string:
		if strings.ContainsAny(x, "{}") {
			a.Kind = ir.AssignTemplate
			a.Src = d.scalarStr(e.value, e.key.Path)
		} else {
			a.Kind = ir.AssignLiteral
			a.Value = x
		}
	default:
		a.Kind = ir.AssignLiteral
		a.Value = v
	}
	return a
}

// isExprTypo reports whether the only key of a mapping set as a value is
// a misspelt expr ("exp", "Expr", "expression"), not a mapping literal's key.
func isExprTypo(key string) bool {
	return key != "expr" && exprTypos[strings.ToLower(key)]
}

var exprTypos = map[string]bool{"expr": true, "exp": true, "exprs": true, "exrp": true, "epxr": true, "expression": true, "eval": true}
