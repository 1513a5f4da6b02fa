package llm

import (
	"regexp"
	"strings"
	"sync"
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
//	cancel flow [F]
//	affirm
//	deny
//	clarify F1 F2 ...
//	chitchat
//	human handoff
//	fallback
var (
	bulletRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(?:[-*•>]+|\d+[.)]|\(\d+\))\s*`) })
	nameRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`) })
)

// ParseCommands reads the model's answer. Lines that are no command (prose
// around them) are returned in skipped, with their line numbers, so the
// trace can say what was ignored.
func ParseCommands(answer string) (cmds []Raw, skipped []string) {
	for i, line := range strings.Split(answer, "\n") {
		n := i + 1
		l := cleanLine(line)
		if l == "" || strings.HasPrefix(l, "```") {
			continue
		}
		if parts, ok := several(l); ok {
			for _, c := range parts {
				c.Line = n
				cmds = append(cmds, c)
			}
			continue
		}
		c, ok := parseLine(l)
		if !ok {
			// A label before the command ("Answer: start flow x",
			// "Commands: 1. affirm"): the rest, when it is a command.
			raw := bulletRE().ReplaceAllString(strings.Trim(strings.TrimSpace(line), "`"), "")
			if m := labelRE().FindStringSubmatch(raw); m != nil {
				rest := cleanLine(m[1])
				if parts, many := several(rest); many {
					for _, c := range parts {
						c.Line = n
						cmds = append(cmds, c)
					}
					continue
				}
				c, ok = parseLine(rest)
			}
		}
		if !ok {
			if l != "" {
				skipped = append(skipped, strings.TrimSpace(line))
			}
			continue
		}
		c.Line = n
		cmds = append(cmds, c)
	}
	return cmds, skipped
}

// several reads a line of several commands, each after a semicolon or a
// comma outside quotes ("start flow transfer_funds; set slot amount
// 50"): ok only when every part is a command, so that a value with a
// comma (set slot address 1 Main St, Springfield) stays whole.
func several(l string) ([]Raw, bool) {
	var parts []string
	inQuote, start := rune(0), 0
	for i, r := range l {
		switch {
		case inQuote != 0:
			if r == inQuote || (inQuote == '“' && r == '”') {
				inQuote = 0
			}
		case r == '"' || r == '“' || r == '`':
			inQuote = r
		case r == ';' || r == ',':
			parts = append(parts, l[start:i])
			start = i + 1
		}
	}
	parts = append(parts, l[start:])
	if len(parts) < 2 {
		return nil, false
	}
	var out []Raw
	for _, p := range parts {
		c, ok := parseLine(cleanLine(p))
		if !ok {
			return nil, false
		}
		out = append(out, c)
	}
	return out, true
}

// labelRE is a label of a word or two and a colon before a command:
// "Answer: ", "Commands: ", "Final output: ".
var labelRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z]+(?: [A-Za-z]+)?\s*:\s*(\S.*)$`)
})

// cleanLine drops what is around a command on a line: spaces, backticks,
// a bullet or number, a remark, and punctuation at its end (a period, a
// semicolon or a comma, before or after a remark).
func cleanLine(line string) string {
	l := strings.TrimSpace(line)
	l = strings.Trim(l, "`")
	l = bulletRE().ReplaceAllString(l, "")
	l = trimEnd(l)
	l = stripComment(l)
	return trimEnd(l)
}

// trimEnd drops the punctuation a model ends a line with: a period, a
// semicolon, a comma, and the spaces around them.
func trimEnd(l string) string {
	return strings.TrimSpace(strings.TrimRight(strings.TrimSpace(l), ".;,"))
}

// parseLine reads one cleaned line as a command.
func parseLine(l string) (Raw, bool) {
	if c, ok := callForm(l); ok {
		return c, true
	}
	l = keywordRE().ReplaceAllString(l, "$1 $2")
	l = assignRE().ReplaceAllString(l, "$1 $2 ")
	l = toRE().ReplaceAllString(l, "$1 $2 ")
	l = colonRE().ReplaceAllString(l, "$1 ")
	fields := splitFields(l)
	if len(fields) == 0 {
		return Raw{}, false
	}
	kw := strings.ToLower(fields[0])
	two := ""
	if len(fields) > 1 {
		two = kw + " " + strings.ToLower(fields[1])
	}
	name := func(k int) (string, bool) {
		if k >= len(fields) || !nameRE().MatchString(fields[k]) {
			return "", false
		}
		return fields[k], true
	}
	// spaced reads a flow name written in words ("start flow
	// Transfer Funds"): the words from k on, joined by underscores.
	spaced := func(k int) (string, bool) {
		for j := k; j < len(fields); j++ {
			if _, ok := name(j); !ok {
				return "", false
			}
		}
		return strings.Join(fields[k:], "_"), true
	}
	var c Raw
	ok := false
	switch {
	case two == "start flow" && len(fields) >= 3:
		c.Kind = "start_flow"
		c.Flow, ok = spaced(2)
	case (two == "set slot" || two == "correct slot") && len(fields) >= 4:
		c.Kind = strings.ReplaceAll(two, " ", "_")
		c.Slot, ok = name(2)
		c.Value = strings.Join(fields[3:], " ")
	case two == "cancel flow" && len(fields) == 2:
		c.Kind, ok = "cancel_flow", true
	case two == "cancel flow" && len(fields) >= 3:
		// "cancel flow book_flight": the flow to cancel, wherever it
		// is on the stack.
		c.Kind = "cancel_flow"
		c.Flow, ok = spaced(2)
	case two == "human handoff" && len(fields) == 2:
		c.Kind, ok = "human_handoff", true
	case len(fields) == 1 && kw == "repeat":
		c.Kind, ok = "repeat_bot_messages", true
	case len(fields) == 1 && kw == "skip":
		c.Kind, ok = "skip_question", true
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
	case len(fields) == 1 && (kw == "affirm" || kw == "deny" || kw == "chitchat" || kw == "fallback" || kw == "help"):
		c.Kind, ok = kw, true
	}
	return c, ok
}

// keywordRE reads the two-word keywords written as one: start_flow,
// set-slot, humanHandoff.
var keywordRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?i)(start|set|correct|cancel|human)[_-]?(flow|slot|handoff)\b`)
})

// assignRE reads "set slot amount=50" and "set slot amount: 50";
// colonRE "start flow: transfer_funds".
var (
	assignRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?i)((?:set|correct) slot)\s+([A-Za-z_][A-Za-z0-9_-]*)\s*[=:]\s*`)
	})
	colonRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?i)(start flow|clarify|set slot|correct slot)\s*:\s*`)
	})
)

// toRE reads "set slot amount to 50": "to" between a slot and its
// value, unquoted, as a model writes it in a sentence.
var toRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?i)((?:set|correct) slot)\s+([A-Za-z_][A-Za-z0-9_-]*)\s+to\s+`)
})

// bareSetRE is a set or correct line that names a slot and gives no value.
var bareSetRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?i)(?:set|correct)[ _-]?slot\s*:?\s*[A-Za-z_][A-Za-z0-9_-]*\s*[=:]?$`)
})

// callRE reads Rasa's older command forms: StartFlow(transfer_funds),
// SetSlot(amount, 50), CancelFlow().
var callRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z_]+)\((.*)\)$`) })

// callForm reads a command written as a call.
func callForm(l string) (Raw, bool) {
	m := callRE().FindStringSubmatch(l)
	if m == nil {
		return Raw{}, false
	}
	var args []string
	if a := strings.TrimSpace(m[2]); a != "" {
		for _, part := range strings.SplitN(a, ",", 2) {
			args = append(args, strings.Trim(strings.TrimSpace(part), `"'`))
		}
	}
	name := func(s string) bool { return nameRE().MatchString(s) }
	switch strings.ToLower(strings.ReplaceAll(m[1], "_", "")) {
	case "startflow":
		if len(args) == 1 && name(args[0]) {
			return Raw{Kind: "start_flow", Flow: args[0]}, true
		}
	case "setslot", "correctslot":
		if len(args) == 2 && name(args[0]) {
			kind := "set_slot"
			if strings.HasPrefix(strings.ToLower(m[1]), "correct") {
				kind = "correct_slot"
			}
			return Raw{Kind: kind, Slot: args[0], Value: args[1]}, true
		}
	case "cancelflow":
		if len(args) == 1 && name(args[0]) {
			return Raw{Kind: "cancel_flow", Flow: args[0]}, true
		}
		return Raw{Kind: "cancel_flow"}, len(args) == 0
	case "humanhandoff", "handoff":
		return Raw{Kind: "human_handoff"}, len(args) == 0
	case "repeatbotmessages", "repeat":
		return Raw{Kind: "repeat_bot_messages"}, len(args) == 0
	case "skipquestion", "skip":
		return Raw{Kind: "skip_question"}, len(args) == 0
	case "chitchat", "affirm", "deny", "fallback", "help":
		return Raw{Kind: strings.ToLower(strings.ReplaceAll(m[1], "_", ""))}, len(args) == 0
	case "clarify":
		var flows []string
		for _, f := range strings.Split(m[2], ",") {
			f = strings.Trim(strings.TrimSpace(f), `"'`)
			if !name(f) {
				return Raw{}, false
			}
			flows = append(flows, f)
		}
		return Raw{Kind: "clarify", Flows: flows}, len(flows) > 0
	}
	return Raw{}, false
}

// stripComment drops a remark after a command, outside quotes: "# ...",
// "// ...", "-- ..." or a dash with a space on both sides ("- ...",
// "– ...", "— ...") after a space, and a last group in parentheses after
// a space ("set slot amount 50 (from the user's message)").
func stripComment(l string) string {
	inQuote := byte(0)
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case inQuote != 0:
			if c == inQuote {
				inQuote = 0
			}
		case c == '"':
			inQuote = c
		case i > 0 && l[i-1] == ' ' && (c == '#' || strings.HasPrefix(l[i:], "//") || strings.HasPrefix(l[i:], "-- ") || dashRemark(l[i:])):
			return strings.TrimSpace(l[:i])
		}
	}
	return stripRemark(l)
}

// dashRemark reports whether s starts with a dash and a space: a remark
// after a command ("start flow x - the user wants x").
func dashRemark(s string) bool {
	for _, d := range []string{"- ", "– ", "— "} {
		if strings.HasPrefix(s, d) {
			return true
		}
	}
	return false
}

// stripRemark drops a last group in parentheses that follows a space,
// outside quotes, when something is left before it: "start flow x (the
// user asked)" is "start flow x", while SetSlot(amount, 50), whose
// parenthesis follows no space, stays whole.
func stripRemark(l string) string {
	t := strings.TrimSpace(l)
	if !strings.HasSuffix(t, ")") {
		return l
	}
	depth := 0
	for i := len(t) - 1; i >= 0; i-- {
		switch t[i] {
		case ')':
			depth++
		case '(':
			depth--
			if depth == 0 {
				if i == 0 || t[i-1] != ' ' || strings.Count(t[:i], `"`)%2 == 1 {
					return l
				}
				// The group is the value itself ("set slot note (none
				// yet)") when nothing would be left of the value.
				if rest := strings.TrimSpace(t[:i]); rest != "" && !bareSetRE().MatchString(rest) {
					return rest
				}
				return l
			}
		}
	}
	return l
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
		if q, closing, ok := opening(l); ok {
			// The closing quote that ends a field (followed by a space or
			// the end), so that an apostrophe inside stays: ‘it’s late’.
			rest := l[len(q):]
			for at := 0; ; {
				end := strings.Index(rest[at:], closing)
				if end < 0 {
					break
				}
				end += at
				after := rest[end+len(closing):]
				if after == "" || after[0] == ' ' || after[0] == '\t' {
					out = append(out, rest[:end])
					l = after
					goto next
				}
				at = end + len(closing)
			}
		}
		{
			end := strings.IndexAny(l, " \t")
			if end < 0 {
				end = len(l)
			}
			out = append(out, strings.Trim(l[:end], "\"'`“”‘’«»"))
			l = l[end:]
		}
	next:
	}
	return out
}

// quotePairs are the quotes a model puts around a value, each with its
// closing quote: straight ones, backticks, typographic ones (“…”, ‘…’,
// „…“) and guillemets.
var quotePairs = [][2]string{{`"`, `"`}, {"'", "'"}, {"`", "`"}, {"“", "”"}, {"‘", "’"}, {"„", "“"}, {"«", "»"}, {"”", "”"}}

// opening reports the quote a field starts with and its closing quote.
func opening(l string) (string, string, bool) {
	for _, p := range quotePairs {
		if strings.HasPrefix(l, p[0]) {
			return p[0], p[1], true
		}
	}
	return "", "", false
}
