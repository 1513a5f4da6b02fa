package compiler

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
)

// check_messages reports steps whose message is missing or given twice,
// and responses named where none is defined (E040), suggesting the
// nearest response name: a say needs a message or a response (E013),
// never both (E014); a collect with neither asks with the response
// utter_ask_SLOT, which must then exist.
func checkMessages(c *checker) {
	for _, f := range c.p.Flows {
		for _, s := range f.Steps {
			switch s.Kind {
			case ir.KindSay, ir.KindCollect, ir.KindConfirm:
			default:
				continue
			}
			if s.Message.Set && s.Response.Set {
				c.ds.Add(s.Response.Pos, diag.CodeInvalidValue, s.Response.Path,
					"%s has both message and response: keep one of the two", stepDesc(s))
			}
			if s.Kind == ir.KindSay && !s.Message.Set && !s.Response.Set && !c.misspelt(s, "message", "response") {
				c.ds.Add(s.Pos, diag.CodeMissingField, s.Path,
					"missing required field \"message\" in say step: give the message to say, or response: NAME to say a response")
			}
		}
	}
	var names []string // built on the first error only
	for _, name := range sortedKeys(c.respUses) {
		if c.p.responses[name] != nil || slices.Contains(ir.DefaultResponses, name) {
			// A response of the project, or one soni defines for its
			// default patterns (utter_can_do_something_else...).
			continue
		}
		if names == nil {
			names = make([]string, 0, len(c.p.responses))
			for n := range c.p.responses {
				names = append(names, n)
			}
			sort.Strings(names)
		}
		for _, u := range c.respUses[name] {
			var d *diag.Diagnostic
			if u.Implicit && c.misspelt(u.Step, "message", "response") {
				continue
			}
			if u.Implicit {
				d = c.ds.Add(u.Step.Pos, diag.CodeUnknownResponse, u.Step.Path,
					"collect step %q has no message, and there is no response %q to ask with: give it a message, or define the response", u.Step.ID.V, name)
			} else {
				d = c.ds.Add(u.Name.Pos, diag.CodeUnknownResponse, u.Name.Path,
					"unknown response %q: no response of the project has this name", name)
			}
			suggestInto(d, name, names)
		}
	}
}

// misspelt reports whether the schema found, in step s, an unknown key
// that is a misspelling of one of keys: the missing field is then
// reported once, as that misspelt key.
func (c *checker) misspelt(s *syntax.Step, keys ...string) bool {
	prefix := s.Path + "."
	for _, d := range *c.ds {
		if d.Code != diag.CodeUnknownKey || !strings.HasPrefix(d.Path, prefix) {
			continue
		}
		for _, k := range keys {
			if strings.Contains(d.Suggestion, strconv.Quote(k)) {
				return true
			}
		}
	}
	return false
}

// sortedKeys returns a map's keys, sorted.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
