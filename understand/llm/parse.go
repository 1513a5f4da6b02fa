package llm

import (
	"regexp"
	"strings"
)

// Raw is one command as the model wrote it, before validation.
type Raw struct {
	// Kind is start_flow, set_slot, correct_slot, cancel_flow, affirm,
	// deny, clarify, chitchat, human_handoff or fallback.
	Kind  string
	Flow  string
	Flows []string
	Slot  string
	Value string
	// Line is the line of the answer it came from, counting from 1.
	Line int
}

// The grammar of the model's answer, one command a line (case, bullets,
// numbering and quotes do not matter):
//
//	start flow F
//	set slot S V
//	correct slot S V
//	cancel flow
//	affirm
//	deny
//	clarify F1 F2 ...
//	chitchat
//	human handoff
//	fallback
var (
	bulletRE = regexp.MustCompile(`^\s*(?:[-*•>]+|\d+[.)]|\(\d+\))\s*`)
	nameRE   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)
)

// ParseCommands reads the model's answer. Lines that are no command (prose
// around them) are returned in skipped, with their line numbers, so the
// trace can say what was ignored.
func ParseCommands(answer string) (cmds []Raw, skipped []string) {
	for i, line := range strings.Split(answer, "\n") {
		n := i + 1
		l := strings.TrimSpace(line)
		l = strings.Trim(l, "`")
		l = bulletRE.ReplaceAllString(l, "")
		l = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(l), "."))
		if l == "" || strings.HasPrefix(l, "```") {
			continue
		}
		fields := splitFields(l)
		if len(fields) == 0 {
			continue
		}
		kw := strings.ToLower(fields[0])
		two := ""
		if len(fields) > 1 {
			two = kw + " " + strings.ToLower(fields[1])
		}
		name := func(k int) (string, bool) {
			if k >= len(fields) || !nameRE.MatchString(fields[k]) {
				return "", false
			}
			return fields[k], true
		}
		var c Raw
		ok := false
		switch {
		case two == "start flow" && len(fields) == 3:
			c.Kind = "start_flow"
			c.Flow, ok = name(2)
		case (two == "set slot" || two == "correct slot") && len(fields) >= 4:
			c.Kind = strings.ReplaceAll(two, " ", "_")
			c.Slot, ok = name(2)
			c.Value = strings.Join(fields[3:], " ")
		case two == "cancel flow" && len(fields) == 2:
			c.Kind, ok = "cancel_flow", true
		case two == "human handoff" && len(fields) == 2:
			c.Kind, ok = "human_handoff", true
		case kw == "clarify" && len(fields) >= 2:
			c.Kind, ok = "clarify", true
			for k := 1; k < len(fields); k++ {
				f, good := name(k)
				if !good {
					ok = false
					break
				}
				c.Flows = append(c.Flows, f)
			}
		case len(fields) == 1 && (kw == "affirm" || kw == "deny" || kw == "chitchat" || kw == "fallback"):
			c.Kind, ok = kw, true
		}
		if !ok {
			skipped = append(skipped, strings.TrimSpace(line))
			continue
		}
		c.Line = n
		cmds = append(cmds, c)
	}
	return cmds, skipped
}

// splitFields splits a line on spaces, keeping a quoted value ("New
// York", 'Ana') as one field without its quotes.
func splitFields(l string) []string {
	var out []string
	for len(l) > 0 {
		l = strings.TrimLeft(l, " \t")
		if l == "" {
			break
		}
		if q := l[0]; q == '"' || q == '\'' {
			if end := strings.IndexByte(l[1:], q); end >= 0 {
				out = append(out, l[1:1+end])
				l = l[2+end:]
				continue
			}
		}
		end := strings.IndexAny(l, " \t")
		if end < 0 {
			end = len(l)
		}
		out = append(out, strings.Trim(l[:end], `"'`))
		l = l[end:]
	}
	return out
}
