package llm

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/soni-dev/soni/vm"
)

// FormatCommands writes commands in the answer grammar, one per line, as
// a model would answer: the inverse of ParseCommands. A start_flow's slots
// follow it as set slot lines. Values are written as text, quoted when
// they hold a space or a quote; a value that has both kinds of quote gets
// its double quotes changed to single ones, the one loss.
func FormatCommands(cmds []vm.Command) string {
	var b strings.Builder
	line := func(s string) {
		b.WriteString(s)
		b.WriteByte('\n')
	}
	for _, c := range cmds {
		switch c.Kind {
		case vm.CmdStartFlow:
			line("start flow " + c.Flow)
			for _, sv := range c.Slots {
				line("set slot " + sv.Slot + " " + formatValue(sv.Value))
			}
		case vm.CmdSetSlot, vm.CmdCorrectSlot:
			line(strings.ReplaceAll(string(c.Kind), "_", " ") + " " + c.Slot + " " + formatValue(c.Value))
		case vm.CmdCancelFlow:
			line(strings.TrimSpace("cancel flow " + c.Flow))
		case vm.CmdHandoff:
			line("human handoff")
		case vm.CmdRepeat:
			line("repeat")
		case vm.CmdSkipQuestion:
			line("skip")
		case vm.CmdClarify:
			line("clarify " + strings.Join(c.Flows, " "))
		default:
			line(string(c.Kind))
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func formatValue(v any) string {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case nil:
		s = ""
	case bool, float64, float32, int, int64, json.Number:
		s = fmt.Sprint(x)
	default:
		b, _ := json.Marshal(x)
		s = string(b)
	}
	s = strings.Join(strings.Fields(s), " ")
	switch {
	case s == "":
		return `""`
	case !strings.ContainsAny(s, " \"'`") && !strings.HasSuffix(s, "."):
		return s
	case !strings.Contains(s, `"`):
		return `"` + s + `"`
	case !strings.Contains(s, "'"):
		return "'" + s + "'"
	default:
		return `"` + strings.ReplaceAll(s, `"`, "'") + `"`
	}
}
