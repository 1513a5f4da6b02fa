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
	"github.com/soni-dev/soni/vm"
)

// WriteTestCase writes a logged conversation (the records of
// [soni.Engine.Log]) as a conversation test file that
// soni test passes against the same flows: the user's messages (or
// commands), the replies as strict bot steps, and the actions stubbed
// with the outputs they returned. It returns warnings about what a test
// cannot replay exactly.
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
	q := func(v any) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	fmt.Fprintf(w, "# Session %q as logged (soni log --format test, or the inspector), %d turns.\n", session, len(recs))
	fmt.Fprintf(w, "# flows: is the project given to soni log, relative to where it ran:\n# save this file there, or adjust the path.\n")
	fmt.Fprintf(w, "flows: %s\n", q(filepath.ToSlash(project)))
	if len(stubs) > 0 {
		fmt.Fprintln(w, "stub_custom_actions:")
		for _, n := range slices.Sorted(maps.Keys(stubs)) {
			s := stubs[n]
			if s.err != "" {
				fmt.Fprintf(w, "  %s:\n    error: %s\n", n, q(s.err))
				continue
			}
			outputs := s.outputs
			if outputs == nil {
				outputs = map[string]any{}
			}
			fmt.Fprintf(w, "  %s:\n    outputs: %s\n", n, q(outputs))
		}
	}
	fmt.Fprintf(w, "test_cases:\n  - test_case: %s\n    steps:\n", q("session_"+session))
	for _, r := range recs {
		fmt.Fprintf(w, "      - user: %s\n", q(r.Text))
		if r.Given != nil {
			fmt.Fprintf(w, "        commands: %s\n", q(cmdshape.Format(r.Given)))
		}
		for _, t := range r.Replies {
			fmt.Fprintf(w, "      - bot: %s\n", q(t))
		}
	}
	return warnings
}
