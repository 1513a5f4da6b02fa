package convtest

import (
	"errors"
	"fmt"
	"os"

	docs "github.com/soni-dev/soni/syntax"
)

// Update rewrites, in place, the bot steps of every turn whose replies
// differ from the expected ones, so that the file expects what the flows
// now say. It changes the file's document (syntax.TestFile) and writes it
// with syntax.EncodeTests, so that everything else stays byte for byte as
// it was: comments, key order, quoting, other steps. A bot step whose
// text differs gets the actual reply (in its own quoting style when the
// text allows it, else double quotes); a turn with more replies gets new
// bot steps after its last reply step, indented like it; a turn with
// fewer replies loses its surplus bot steps. bot_matches steps are never
// touched, nor is a turn that lists no reply step (its replies are not
// checked). It returns the files it changed, in order.
//
// A case it cannot rewrite (steps written as a flow list [...], a bot
// step whose value is not a string it can edit) is left as it is, and so
// is a file whose update would not parse or cannot be written; the other
// cases and files are still updated, and the error says what was left
// alone and why, one line each.
func Update(r *Report) ([]string, error) {
	var changed []string
	var problems []error
	for _, fr := range r.Files {
		if fr.target == nil {
			continue
		}
		f := fr.target.File
		edited := false
		for _, c := range fr.Cases {
			for i, replies := range c.replies {
				if i >= len(c.c.Turns) {
					break
				}
				edited = editTurn(c.c, c.c.Turns[i], replies) || edited
			}
		}
		if !edited {
			continue
		}
		out, err := docs.EncodeTests(f.Doc)
		for _, e := range caseErrors(err) {
			problems = append(problems, fmt.Errorf("%s: test case %q was left as it is: turn %d: %w", lineOf(e.Case.Pos), e.Case.Name, turnOf(f, e), e.Err))
		}
		if string(out) == string(f.Src) {
			continue
		}
		if _, ds := ParseFile(f.Path, out); ds.HasErrors() {
			problems = append(problems, fmt.Errorf("%s: the updated file would not parse (%s); it was left unchanged", f.Path, ds[0].Message))
			continue
		}
		mode := os.FileMode(0o644)
		if info, err := os.Stat(f.Path); err == nil {
			mode = info.Mode().Perm()
		}
		if err := os.WriteFile(f.Path, out, mode); err != nil {
			problems = append(problems, fmt.Errorf("cannot write %q: %s", f.Path, errText(err)))
			continue
		}
		changed = append(changed, f.Path)
	}
	return changed, errors.Join(problems...)
}

// caseErrors lists the cases EncodeTests left as they were.
func caseErrors(err error) []*docs.CaseError {
	var out []*docs.CaseError
	var join interface{ Unwrap() []error }
	if errors.As(err, &join) {
		for _, e := range join.Unwrap() {
			var ce *docs.CaseError
			if errors.As(e, &ce) {
				out = append(out, ce)
			}
		}
	}
	return out
}

// turnOf is the number of the turn of the step a CaseError names.
func turnOf(f *File, e *docs.CaseError) int {
	for _, c := range f.Cases {
		if c.doc != e.Case {
			continue
		}
		for _, t := range c.Turns {
			if t.User.doc == e.Step {
				return t.Index
			}
			for _, st := range t.Checks {
				if st.doc == e.Step {
					return t.Index
				}
			}
		}
	}
	return 0
}

// editTurn changes the document of a case so that one turn's reply
// steps match replies. It reports whether it changed anything.
func editTurn(c *Case, t *Turn, replies []string) bool {
	var steps []*Step
	for _, st := range t.Checks {
		if isReplyStep(st.Kind) {
			steps = append(steps, st)
		}
	}
	if len(steps) == 0 {
		// A turn that lists no reply does not check its replies, so it
		// never fails on them and --update leaves it alone.
		return false
	}
	same := len(steps) == len(replies)
	for i := 0; same && i < len(steps); i++ {
		if steps[i].Kind == StepBot && steps[i].Text != replies[i] {
			same = false
		}
	}
	if same {
		return false
	}
	dc := c.doc
	for i := 0; i < len(steps) && i < len(replies); i++ {
		if steps[i].Kind == StepBot {
			steps[i].doc.Text = replies[i]
		}
	}
	drop := map[*docs.TestStep]bool{}
	for _, st := range steps[min(len(replies), len(steps)):] {
		if st.Kind == StepBot {
			drop[st.doc] = true
		}
	}
	var added []*docs.TestStep
	for _, r := range replies[min(len(steps), len(replies)):] {
		added = append(added, &docs.TestStep{Kind: string(StepBot), Text: r})
	}
	anchor := steps[len(steps)-1].doc
	var out []*docs.TestStep
	for _, st := range dc.Steps {
		if !drop[st] {
			out = append(out, st)
		}
		if st == anchor {
			out = append(out, added...)
		}
	}
	dc.Steps = out
	return true
}
