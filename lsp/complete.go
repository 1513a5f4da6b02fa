package lsp

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/schema"
)

// stepKeys are the keys each step type allows, with their descriptions,
// read from soni's JSON Schema (the "<type>Step" definitions).
var stepKeys = sync.OnceValue(func() map[string]map[string]string {
	var doc struct {
		Defs map[string]struct {
			Properties map[string]struct {
				Description string `json:"description"`
			} `json:"properties"`
		} `json:"$defs"`
	}
	out := map[string]map[string]string{}
	if json.Unmarshal(schema.JSON(), &doc) != nil {
		return out
	}
	for _, k := range ir.Kinds {
		keys := map[string]string{}
		for name, p := range doc.Defs[string(k)+"Step"].Properties {
			keys[name] = p.Description
		}
		out[string(k)] = keys
	}
	return out
})

// The keys whose value names a thing of the project, by what they name.
var (
	slotKeys    = map[string]bool{"slot": true}
	stepRefKeys = map[string]bool{"jump_to": true, "next": true, "on_invalid": true, "exit_to": true, "on_error": true, "on_confirm": true, "on_deny": true}
	flowRefKeys = map[string]bool{"target": true, "flow_started": true, "flow_completed": true, "flow_cancelled": true, "start_flow": true, "flow": true}
	respKeys    = map[string]bool{"response": true, "bot_response": true}
	actionKeys  = map[string]bool{"ask_action": true, "action_executed": true}
	exprKeys    = map[string]bool{"condition": true, "evaluate": true, "if": true, "validation": true}
	keyValueRE  = regexp.MustCompile(`^\s*(?:-\s+)?(?:\{\s*)?("[^"]*"|'[^']*'|[A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*)$`)
	nameValueRE = regexp.MustCompile(`^["']?[A-Za-z0-9_-]*$`)
	// inlineKeyRE finds the last key of a flow mapping on the line:
	// commands: [{start_flow: che
	inlineKeyRE  = regexp.MustCompile(`[{,]\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(["']?[A-Za-z0-9_-]*)$`)
	comparisonRE = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_]*)\s*(?:==|!=)\s*["']?([A-Za-z0-9_-]*)$`)
)

func (s *Server) completion(_ *glsp.Context, p *protocol.CompletionParams) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	proj, path, ok := s.projectFor(p.TextDocument.URI)
	if !ok {
		return nil, errNoDocument
	}
	src := s.text(proj, path)
	ls := lines(src)
	n := int(p.Position.Line)
	if n >= len(ls) {
		return []protocol.CompletionItem{}, nil
	}
	line := ls[n]
	before := line[:utf16ToByte(line, int(p.Position.Character))]
	// While the file does not parse, its names come from the last
	// compile in which it did.
	view := *proj
	view.syms = proj.completionSymbols()
	proj = &view
	flow := s.flowAt(proj, path, n)
	items := s.complete(proj, ls, n, before, flow)
	if items == nil {
		items = []protocol.CompletionItem{}
	}
	return protocol.CompletionList{IsIncomplete: false, Items: items}, nil
}

// complete lists what may be written at the end of before, on line n.
func (s *Server) complete(proj *project, ls []string, n int, before, flow string) []protocol.CompletionItem {
	// Inside an unclosed {: a template reference to a slot.
	if i := strings.LastIndexByte(before, '{'); i >= 0 && !strings.Contains(before[i:], "}") && strings.Contains(before[:i], ":") && !flowMappingBrace(before[:i]) {
		return slotItems(proj, flow)
	}
	m := keyValueRE.FindStringSubmatch(before)
	parent, at := parentKey(ls, n, len(before)-len(strings.TrimLeft(before, " ")))
	if m == nil {
		if strings.Contains(before, ":") {
			return nil
		}
		if parent == "slots" && inStep(ls, at, ls[at]) {
			// A key of a set step's slots mapping names a slot.
			return slotItems(proj, flow)
		}
		return keyItems(ls, n, before)
	}
	key, value := m[1], m[2]
	if im := inlineKeyRE.FindStringSubmatch(before); im != nil && !exprKeys[key] {
		key, value = im[1], im[2]
	}
	if parent == "map_outputs" && nameValueRE.MatchString(value) {
		// An action's output goes into a slot.
		return slotItems(proj, flow)
	}
	if !exprKeys[key] && !nameValueRE.MatchString(value) {
		return nil
	}
	switch {
	case key == "type":
		var out []protocol.CompletionItem
		for _, k := range ir.Kinds {
			out = append(out, item(string(k), protocol.CompletionItemKindEnumMember, "step type"))
		}
		return out
	case slotKeys[key]:
		return slotItems(proj, flow)
	case stepRefKeys[key] || inCases(ls, n):
		out := kindItems(proj, compiler.SymbolStep, flow, protocol.CompletionItemKindReference)
		return sortItems(append(out, item(ir.EndStep, protocol.CompletionItemKindKeyword, "end the flow")))
	case flowRefKeys[key]:
		return kindItems(proj, compiler.SymbolFlow, "", protocol.CompletionItemKindModule)
	case key == "call":
		if stepType(ls, n) == string(ir.KindCall) {
			return kindItems(proj, compiler.SymbolFlow, "", protocol.CompletionItemKindModule)
		}
		return kindItems(proj, compiler.SymbolAction, "", protocol.CompletionItemKindFunction)
	case respKeys[key]:
		return kindItems(proj, compiler.SymbolResponse, "", protocol.CompletionItemKindText)
	case actionKeys[key]:
		return kindItems(proj, compiler.SymbolAction, "", protocol.CompletionItemKindFunction)
	case exprKeys[key]:
		if c := comparisonRE.FindStringSubmatch(before); c != nil {
			return valueItems(proj, flow, c[1], strings.ContainsAny(before[len(before)-len(c[2])-1:], `"'`))
		}
		return slotItems(proj, flow)
	}
	return nil
}

func item(label string, kind protocol.CompletionItemKind, detail string) protocol.CompletionItem {
	k := kind
	it := protocol.CompletionItem{Label: label, Kind: &k}
	if detail != "" {
		d := detail
		it.Detail = &d
	}
	return it
}

// slotItems are the slots a flow sees: the conversation's and its own.
func slotItems(proj *project, flow string) []protocol.CompletionItem {
	var out []protocol.CompletionItem
	if proj.syms == nil {
		return nil
	}
	for _, d := range proj.syms.Defs {
		if d.ID.Kind == compiler.SymbolSlot && (d.ID.Scope == "" || d.ID.Scope == flow) {
			detail := d.Type
			if d.ID.Scope == "" {
				detail += " (conversation slot)"
			}
			it := item(d.ID.Name, protocol.CompletionItemKindVariable, detail)
			if d.Description != "" {
				it.Documentation = d.Description
			}
			out = append(out, it)
		}
	}
	return sortItems(out)
}

// kindItems are the project's definitions of one kind (steps: of flow).
func kindItems(proj *project, kind compiler.SymbolKind, flow string, ck protocol.CompletionItemKind) []protocol.CompletionItem {
	var out []protocol.CompletionItem
	if proj.syms == nil {
		return nil
	}
	for _, d := range proj.syms.Defs {
		if d.ID.Kind != kind || (kind == compiler.SymbolStep && d.ID.Scope != flow) {
			continue
		}
		it := item(d.ID.Name, ck, string(kind))
		if d.Description != "" {
			it.Documentation = d.Description
		}
		out = append(out, it)
	}
	return sortItems(out)
}

// valueItems are a categorical slot's values, for a comparison in a
// condition; quoted says the author already opened the quote.
func valueItems(proj *project, flow, slot string, quoted bool) []protocol.CompletionItem {
	if proj.syms == nil {
		return nil
	}
	var def *compiler.Definition
	for _, d := range proj.syms.Defs {
		if d.ID.Kind == compiler.SymbolSlot && d.ID.Name == slot && (d.ID.Scope == "" || d.ID.Scope == flow) {
			def = d
			if d.ID.Scope == "" {
				break
			}
		}
	}
	if def == nil {
		return nil
	}
	var out []protocol.CompletionItem
	for _, v := range def.Values {
		it := item(v, protocol.CompletionItemKindEnumMember, "value of "+slot)
		if !quoted {
			text := "'" + v + "'"
			it.InsertText = &text
		}
		out = append(out, it)
	}
	return out
}

// keyItems are the keys a step may have, when the cursor is where a key
// of a step goes.
func keyItems(ls []string, n int, before string) []protocol.CompletionItem {
	if !inStep(ls, n, before) {
		return nil
	}
	keys := map[string]string{}
	if t := stepType(ls, n); t != "" && stepKeys()[t] != nil {
		keys = stepKeys()[t]
	} else {
		for _, ks := range stepKeys() {
			for k, d := range ks {
				keys[k] = d
			}
		}
	}
	var out []protocol.CompletionItem
	for k, d := range keys {
		it := item(k, protocol.CompletionItemKindProperty, "")
		if d != "" {
			it.Documentation = d
		}
		text := k + ": "
		it.InsertText = &text
		out = append(out, it)
	}
	return sortItems(out)
}

func sortItems(items []protocol.CompletionItem) []protocol.CompletionItem {
	sort.Slice(items, func(i, j int) bool { return items[i].Label < items[j].Label })
	return items
}

// indent returns the column where a line's content starts, after a list
// dash: "  - step: a" gives 4.
func indent(line string) int {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	if strings.HasPrefix(line[i:], "- ") {
		i += 2
		for i < len(line) && line[i] == ' ' {
			i++
		}
	}
	return i
}

func blank(line string) bool {
	t := strings.TrimSpace(line)
	return t == "" || strings.HasPrefix(t, "#")
}

// itemStart returns the line where the list item holding line n starts
// (a line "- ..." whose content is at n's indentation), or -1.
func itemStart(ls []string, n, ind int) int {
	for i := n; i >= 0; i-- {
		if blank(ls[i]) {
			continue
		}
		lead := len(ls[i]) - len(strings.TrimLeft(ls[i], " "))
		if strings.HasPrefix(strings.TrimLeft(ls[i], " "), "- ") && indent(ls[i]) == ind {
			return i
		}
		if lead < ind {
			return -1
		}
	}
	return -1
}

// inStep reports whether a key written at the end of before (on line n)
// belongs to a step: a list item under steps: or do:.
func inStep(ls []string, n int, before string) bool {
	ind := indent(before)
	start := itemStart(ls, n, ind)
	if start < 0 {
		return false
	}
	lead := len(ls[start]) - len(strings.TrimLeft(ls[start], " "))
	for i := start - 1; i >= 0; i-- {
		if blank(ls[i]) {
			continue
		}
		l := ls[i]
		if len(l)-len(strings.TrimLeft(l, " ")) < lead || (len(l)-len(strings.TrimLeft(l, " ")) == lead && !strings.HasPrefix(strings.TrimLeft(l, " "), "-")) {
			k := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "- "))
			return k == "steps:" || k == "do:"
		}
	}
	return false
}

// stepType returns the type: of the step that holds line n, or "".
func stepType(ls []string, n int) string {
	ind := indent(ls[n])
	start := itemStart(ls, n, ind)
	if start < 0 {
		return ""
	}
	for i := start; i < len(ls); i++ {
		if i > start && !blank(ls[i]) && (indent(ls[i]) < ind || (indent(ls[i]) == ind && strings.HasPrefix(strings.TrimLeft(ls[i], " "), "- "))) {
			break
		}
		t := strings.TrimSpace(ls[i])
		t = strings.TrimPrefix(t, "- ")
		if v, ok := strings.CutPrefix(t, "type:"); ok {
			v = strings.TrimSpace(v)
			if j := strings.Index(v, "#"); j >= 0 {
				v = strings.TrimSpace(v[:j])
			}
			return strings.Trim(v, `"'`)
		}
	}
	return ""
}

// parentKey returns the key of the mapping that holds a line whose
// content starts at column ind, and its line: the nearest line above with
// less indentation, or "" and -1.
func parentKey(ls []string, n, ind int) (string, int) {
	for i := n - 1; i >= 0; i-- {
		if blank(ls[i]) {
			continue
		}
		if lead := len(ls[i]) - len(strings.TrimLeft(ls[i], " ")); lead < ind {
			k := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(ls[i]), "- "))
			if j := strings.Index(k, "#"); j >= 0 {
				k = strings.TrimSpace(k[:j])
			}
			return strings.TrimSuffix(k, ":"), i
		}
	}
	return "", -1
}

// inCases reports whether line n is an entry of a branch step's cases.
func inCases(ls []string, n int) bool {
	ind := len(ls[n]) - len(strings.TrimLeft(ls[n], " "))
	for i := n - 1; i >= 0; i-- {
		if blank(ls[i]) {
			continue
		}
		lead := len(ls[i]) - len(strings.TrimLeft(ls[i], " "))
		if lead < ind {
			return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(ls[i]), "- ")) == "cases:"
		}
	}
	return false
}

// flowAt returns the flow whose definition holds line n of a file: the
// last flow defined in the file at or above it.
func (s *Server) flowAt(proj *project, path string, n int) string {
	best, bestLine := "", -1
	if proj.syms == nil {
		return ""
	}
	for _, o := range proj.syms.Occs {
		if o.Def && o.ID.Kind == compiler.SymbolFlow && o.Pos.File == path && o.Pos.Line-1 <= n && o.Pos.Line-1 > bestLine {
			best, bestLine = o.ID.Name, o.Pos.Line-1
		}
	}
	return best
}

// flowMappingBrace reports whether a '{' after prefix opens a YAML flow
// mapping ([{start_flow: x}]) rather than a template reference ("Hi
// {name}"): it comes where a value or an item starts.
func flowMappingBrace(prefix string) bool {
	t := strings.TrimRight(prefix, " \t")
	if t == "" {
		return true
	}
	switch t[len(t)-1] {
	case '[', ',', ':', '-', '{':
		return true
	}
	return false
}
