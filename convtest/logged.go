package convtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/internal/cmdshape"
	docs "github.com/soni-dev/soni/syntax"
	"github.com/soni-dev/soni/vm"
)

// WriteTestCase writes a logged conversation (the records of
// [soni.Engine.Log]) as a conversation test file that
// soni test passes against the same flows: the user's messages (or
// commands), the replies as strict bot steps, and the actions stubbed
// with the outputs they returned. The file is built as a
// syntax.TestFile and written by syntax.EncodeTests. It returns warnings
// about what a test cannot replay exactly.
func WriteTestCase(w io.Writer, session, project string, recs []soni.TurnRecord) []string {
	var warnings []string
	type stub struct {
		outputs map[string]any
		err     string
	}
	stubs := map[string]stub{}
	for _, r := range recs {
		for _, ev := range r.Events {
			var s stub
			switch ev.Type {
			case vm.EventActionExecuted:
				s = stub{outputs: ev.Outputs}
			case vm.EventActionFailed:
				s = stub{err: ev.Error}
			default:
				continue
			}
			if prev, seen := stubs[ev.Action]; seen {
				a, _ := json.Marshal(prev.outputs)
				b, _ := json.Marshal(s.outputs)
				if !bytes.Equal(a, b) || prev.err != s.err {
					warnings = append(warnings, fmt.Sprintf("action %q answered differently in this conversation; the test stubs its first answer", ev.Action))
				}
				continue
			}
			stubs[ev.Action] = s
		}
	}
	doc := &docs.TestFile{
		Comments: []string{fmt.Sprintf("Session %q as logged (soni log --format test, or the inspector), %d turns.\n"+
			"flows: is the project given to soni log, relative to where it ran:\nsave this file there, or adjust the path.", session, len(recs))},
		Flows:    filepath.ToSlash(project),
		HasFlows: true,
	}
	for _, n := range slices.Sorted(maps.Keys(stubs)) {
		s := stubs[n]
		st := &docs.Stub{Action: n}
		if s.err != "" {
			st.Error, st.Fails = s.err, true
		} else {
			st.Outputs = docs.NewData(jsonValue(s.outputs), true)
			if s.outputs == nil {
				st.Outputs = docs.NewData(map[string]any{}, true)
			}
		}
		doc.Stubs = append(doc.Stubs, st)
	}
	c := &docs.TestCase{Name: "session_" + session}
	for _, r := range recs {
		user := &docs.TestStep{Kind: string(StepUser), Text: r.Text}
		if r.Given != nil {
			user.HasCommands, user.Commands = true, []*docs.Command{}
			for _, shape := range cmdshape.Format(r.Given) {
				switch x := shape.(type) {
				case string:
					user.Commands = append(user.Commands, &docs.Command{Kind: x})
				case map[string]any:
					for k, v := range x {
						user.Commands = append(user.Commands, &docs.Command{Kind: k, Arg: docs.NewData(jsonValue(v), true)})
					}
				}
			}
		}
		c.Steps = append(c.Steps, user)
		for _, t := range r.Replies {
			c.Steps = append(c.Steps, &docs.TestStep{Kind: string(StepBot), Text: t})
		}
	}
	doc.Cases = []*docs.TestCase{c}
	out, _ := docs.EncodeTests(doc)
	_, _ = w.Write(out)
	return warnings
}

// jsonValue is v as JSON reads it back (numbers as json.Number), so that
// any value an action or a slot holds is written as the test file's
// YAML reads it.
func jsonValue(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return string(b)
	}
	return out
}
