package compiler

import (
	"strings"
	"unicode/utf8"

	"github.com/soni-dev/soni/diag"
)

// check_mixed_logic warns about an expression that mixes and and or at
// one level of parentheses (W016). soni reads and before or, as Python and
// expr do; the Python framework read its conditions from left to right, so
// `a OR b AND c` meant `(a OR b) AND c` there. The warning shows both
// readings and asks for parentheses, which mean the same everywhere.
func checkMixedLogic(c *checker) {
	for _, u := range c.exprs {
		for _, g := range logicGroups(u.Src.V) {
			ands, ors := 0, 0
			for _, op := range g.ops {
				if op.and {
					ands++
				} else {
					ors++
				}
			}
			if ands == 0 || ors == 0 {
				continue
			}
			// Point at the first operator of the other kind than the first.
			at := g.ops[0]
			for _, op := range g.ops {
				if op.and != g.ops[0].and {
					at = op
					break
				}
			}
			line, col := exprLineCol(u.Src.V, at.off)
			soni, python := g.readings(u.Src.V)
			text := strings.Join(strings.Fields(u.Src.V[g.start:g.end]), " ")
			msg := "%q mixes and and or without parentheses: soni reads it as %q, the Python framework read it as %q; add parentheses to say which you mean"
			if soni == python {
				msg = "%q mixes and and or without parentheses: soni reads it as %q, as the Python framework did (%q), but the reading is easy to get wrong; add parentheses"
			}
			c.ds.Add(u.Src.At(line, col), diag.CodeMixedLogic, u.Src.Path, msg, text, soni, python)
		}
	}
}

// logicOp is an and or or operator of an expression.
type logicOp struct {
	off, end int
	and      bool
}

// logicGroup is one run of an expression at one level of parentheses,
// between brackets, commas, ? or :, with its and/or operators.
type logicGroup struct {
	start, end int
	ops        []logicOp
}

// readings returns how soni reads the group (and binds tighter) and how
// the Python framework read it (left to right), each with parentheses.
func (g logicGroup) readings(src string) (soni, python string) {
	var operands []string
	from := g.start
	for _, op := range g.ops {
		operands = append(operands, strings.Join(strings.Fields(src[from:op.off]), " "))
		from = op.end
	}
	operands = append(operands, strings.Join(strings.Fields(src[from:g.end]), " "))
	word := func(op logicOp) string { return strings.TrimSpace(src[op.off:op.end]) }

	// soni: the or-separated runs of and, each parenthesised when longer
	// than one operand.
	var parts []string
	run := []string{operands[0]}
	flush := func() {
		p := strings.Join(run, "")
		if len(run) > 1 {
			p = "(" + p + ")"
		}
		parts = append(parts, p)
	}
	for i, op := range g.ops {
		if op.and {
			run = append(run, " "+word(op)+" "+operands[i+1])
			continue
		}
		flush()
		parts = append(parts, " "+word(op)+" ")
		run = []string{operands[i+1]}
	}
	flush()
	soni = strings.Join(parts, "")

	// Python framework: left to right, parenthesised at each change of
	// operator.
	python = operands[0]
	for i, op := range g.ops {
		python += " " + word(op) + " " + operands[i+1]
		if i+1 < len(g.ops) && g.ops[i+1].and != op.and {
			python = "(" + python + ")"
		}
	}
	return soni, python
}

// logicGroups splits an expression into its groups and finds their and/or
// operators (and, or, AND, OR, &&, ||), outside string literals.
func logicGroups(src string) []logicGroup {
	var (
		out   []logicGroup
		stack = []logicGroup{{start: 0}}
		quote byte
	)
	closeTop := func(end int) {
		g := stack[len(stack)-1]
		g.end = end
		if len(g.ops) > 1 {
			out = append(out, g)
		}
	}
	for i := 0; i < len(src); i++ {
		ch := src[i]
		if quote != 0 {
			if ch == '\\' {
				i++
			} else if ch == quote {
				quote = 0
			}
			continue
		}
		top := &stack[len(stack)-1]
		switch ch {
		case '"', '\'', '`':
			quote = ch
		case '(', '[', '{':
			stack = append(stack, logicGroup{start: i + 1})
		case ')', ']', '}':
			if len(stack) > 1 {
				closeTop(i)
				stack = stack[:len(stack)-1]
			}
		case ',', '?', ':':
			closeTop(i)
			*top = logicGroup{start: i + 1}
		case '&', '|':
			if i+1 < len(src) && src[i+1] == ch {
				top.ops = append(top.ops, logicOp{off: i, end: i + 2, and: ch == '&'})
				i++
			}
		default:
			if !isWordByte(ch) || (i > 0 && (isWordByte(src[i-1]) || src[i-1] == '.')) {
				continue
			}
			j := i
			for j < len(src) && isWordByte(src[j]) {
				j++
			}
			switch w := src[i:j]; {
			case strings.EqualFold(w, "and"):
				top.ops = append(top.ops, logicOp{off: i, end: j, and: true})
			case strings.EqualFold(w, "or"):
				top.ops = append(top.ops, logicOp{off: i, end: j})
			}
			i = j - 1
		}
	}
	for len(stack) > 0 {
		closeTop(len(src))
		stack = stack[:len(stack)-1]
	}
	return out
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// exprLineCol converts a byte offset of src to the 1-based line and 0-based
// rune column that Str.At takes.
func exprLineCol(src string, off int) (line, col int) {
	line = 1
	start := 0
	for i := 0; i < off; i++ {
		if src[i] == '\n' {
			line++
			start = i + 1
		}
	}
	return line, utf8.RuneCountInString(src[start:off])
}
