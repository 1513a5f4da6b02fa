package diag

import (
	"io"
	"strconv"
	"strings"
)

// WriteGitHub writes l as GitHub Actions workflow commands, one per line:
//
//	::error file=F,line=L,col=C,title=CODE name::message (suggestion)
//
// Warnings use ::warning. Unknown parts of the position are left out, and
// the title is the bare code when the catalogue does not know it. Values
// are escaped as the runner expects (see EscapeGitHubData and
// EscapeGitHubProperty), so a message can never end the command early or
// inject another one.
func WriteGitHub(w io.Writer, l List) error {
	var b strings.Builder
	for _, d := range l {
		b.WriteString("::")
		b.WriteString(d.Severity.String())
		var props []string
		if d.Pos.File != "" {
			props = append(props, "file="+EscapeGitHubProperty(d.Pos.File))
		}
		if d.Pos.Line > 0 {
			props = append(props, "line="+strconv.Itoa(d.Pos.Line))
			if d.Pos.Col > 0 {
				props = append(props, "col="+strconv.Itoa(d.Pos.Col))
			}
		}
		title := d.Code
		if r := RuleOf(d.Code); r != nil {
			title += " " + r.Name
		}
		if title != "" {
			props = append(props, "title="+EscapeGitHubProperty(title))
		}
		if len(props) > 0 {
			b.WriteByte(' ')
			b.WriteString(strings.Join(props, ","))
		}
		b.WriteString("::")
		b.WriteString(EscapeGitHubData(messageWithSuggestion(d)))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// githubData escapes the message of a workflow command.
var githubData = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")

// githubProperty escapes a property value of a workflow command.
var githubProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")

// EscapeGitHubData escapes the message part of a GitHub workflow command:
// % becomes %25, CR %0D and LF %0A.
func EscapeGitHubData(s string) string { return githubData.Replace(s) }

// EscapeGitHubProperty escapes a property value of a GitHub workflow
// command: as EscapeGitHubData, and also : becomes %3A and , becomes %2C.
func EscapeGitHubProperty(s string) string { return githubProperty.Replace(s) }
