package tmpl

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Spec is a format spec after a reference's colon, {amount:,.2f}: the
// common subset of Python's format mini-language, for the files of the
// Python Soni framework, which formatted with str.format:
//
//	[[fill]align][sign][0][width][,|_][.precision][type]
//
// align is < > ^ or = (= pads after the sign, numbers only), sign is + -
// or space, type is s (text), d (integer), f or F (fixed point), e or E
// (exponent) or % (percent). Without a type, a number keeps soni's usual
// form (with grouping when asked; with a precision, like Python's
// general format), and text is text. '#', 'z', conversions (!r) and the
// types b, c, g, n, o, x, X are not supported: Parse reports them.
type Spec struct {
	// Src is the spec as written, after the colon.
	Src       string
	Fill      rune
	Align     byte
	Sign      byte
	Zero      bool
	Width     int
	Group     byte
	Precision int // -1 when absent
	Type      byte
}

// maxWidth bounds width and precision, so that a template cannot ask for
// a reply of a gigabyte.
const maxWidth = 1000

// parseSpec parses the spec of the reference ref (for messages).
func parseSpec(ref, src string) (*Spec, error) {
	fail := func(why string) (*Spec, error) {
		return nil, fmt.Errorf("format spec %q of {%s} is not supported: %s; soni supports [[fill]align][sign][0][width][,|_][.precision][type] with type s, d, f, F, e, E or %%, as in {amount:,.2f} or {name:>10}", src, ref, why)
	}
	sp := &Spec{Src: src, Fill: ' ', Precision: -1}
	rs := []rune(src)
	i := 0
	isAlign := func(r rune) bool { return r == '<' || r == '>' || r == '^' || r == '=' }
	switch {
	case len(rs) >= 2 && isAlign(rs[1]):
		if rs[0] == '{' || rs[0] == '}' {
			return fail("a brace cannot be the fill character")
		}
		sp.Fill, sp.Align, i = rs[0], byte(rs[1]), 2
	case len(rs) >= 1 && isAlign(rs[0]):
		sp.Align, i = byte(rs[0]), 1
	}
	if i < len(rs) && (rs[i] == '+' || rs[i] == '-' || rs[i] == ' ') {
		sp.Sign = byte(rs[i])
		i++
	}
	if i < len(rs) && (rs[i] == '#' || rs[i] == 'z') {
		return fail(fmt.Sprintf("the %q option is not", string(rs[i])))
	}
	if i < len(rs) && rs[i] == '0' {
		sp.Zero = true
		i++
	}
	digits := func() (int, bool) {
		start := i
		for i < len(rs) && rs[i] >= '0' && rs[i] <= '9' {
			i++
		}
		if i == start {
			return 0, false
		}
		n, err := strconv.Atoi(string(rs[start:i]))
		if err != nil || n > maxWidth {
			return maxWidth + 1, true
		}
		return n, true
	}
	if n, ok := digits(); ok {
		if n > maxWidth {
			return fail(fmt.Sprintf("a width over %d", maxWidth))
		}
		sp.Width = n
	}
	if i < len(rs) && (rs[i] == ',' || rs[i] == '_') {
		sp.Group = byte(rs[i])
		i++
	}
	if i < len(rs) && rs[i] == '.' {
		i++
		n, ok := digits()
		switch {
		case !ok:
			return fail("a '.' must be followed by the precision")
		case n > maxWidth:
			return fail(fmt.Sprintf("a precision over %d", maxWidth))
		}
		sp.Precision = n
	}
	if i < len(rs) {
		switch rs[i] {
		case 's', 'd', 'f', 'F', 'e', 'E', '%':
			sp.Type = byte(rs[i])
			i++
		default:
			return fail(fmt.Sprintf("the type %q is not", string(rs[i])))
		}
	}
	if i < len(rs) {
		return fail(fmt.Sprintf("%q after the type", string(rs[i:])))
	}
	switch {
	case sp.Type == 's' && (sp.Sign != 0 || sp.Group != 0 || sp.Align == '='):
		return fail("text (type s) takes no sign, grouping or '=' alignment")
	case sp.Type == 'd' && sp.Precision >= 0:
		return fail("an integer (type d) takes no precision")
	}
	return sp, nil
}

// Apply formats a value with the spec. A number written as text (an
// untyped slot's "12.5") is formatted as the number. A value that is no
// number under a numeric spec is shown as Format shows it, padded to the
// width: a reply never fails because of a format.
func (sp *Spec) Apply(v any) string {
	f, isInt, i, ok := numberOf(v)
	if !ok || sp.Type == 's' {
		s := Format(v)
		if sp.Precision >= 0 && (sp.Type == 's' || sp.Type == 0) && utf8.RuneCountInString(s) > sp.Precision {
			s = string([]rune(s)[:sp.Precision])
		}
		align := sp.Align
		if align == 0 || align == '=' {
			align = '<'
		}
		fill := sp.Fill
		if sp.Zero && sp.Align == 0 {
			fill = '0'
		}
		return pad("", s, sp.Width, fill, align)
	}
	neg := false
	var body string
	switch sp.Type {
	case 'd':
		if !isInt {
			if f != math.Trunc(f) || math.Abs(f) >= 1<<63 {
				return pad("", Format(v), sp.Width, ' ', '>')
			}
			i, isInt = int64(f), true
		}
		neg = i < 0
		body = group(strconv.FormatUint(absInt(i), 10), sp.Group)
	case 'f', 'F', '%':
		if isInt {
			f = float64(i)
		}
		prec := sp.Precision
		if prec < 0 {
			prec = 6
		}
		if sp.Type == '%' {
			f *= 100
		}
		neg = math.Signbit(f) && !math.IsNaN(f)
		body = groupFloat(floatText(math.Abs(f), 'f', prec), sp.Group)
		if sp.Type == 'F' {
			body = strings.ToUpper(body)
		}
		if sp.Type == '%' {
			body += "%"
		}
	case 'e', 'E':
		if isInt {
			f = float64(i)
		}
		prec := sp.Precision
		if prec < 0 {
			prec = 6
		}
		neg = math.Signbit(f) && !math.IsNaN(f)
		body = floatText(math.Abs(f), sp.Type, prec)
		if sp.Type == 'E' {
			body = strings.ToUpper(body)
		}
	default:
		switch {
		case isInt:
			neg = i < 0
			body = group(strconv.FormatUint(absInt(i), 10), sp.Group)
		case sp.Precision >= 0:
			neg = math.Signbit(f) && !math.IsNaN(f)
			p := sp.Precision
			if p == 0 {
				p = 1
			}
			body = groupFloat(strconv.FormatFloat(math.Abs(f), 'g', p, 64), sp.Group)
		default:
			neg = math.Signbit(f) && !math.IsNaN(f)
			body = groupFloat(formatFloat(math.Abs(f)), sp.Group)
		}
	}
	sign := ""
	switch {
	case neg:
		sign = "-"
	case sp.Sign == '+':
		sign = "+"
	case sp.Sign == ' ':
		sign = " "
	}
	align, fill := sp.Align, sp.Fill
	if align == 0 {
		align = '>'
		if sp.Zero {
			align, fill = '=', '0'
		}
	}
	return pad(sign, body, sp.Width, fill, align)
}

// floatText formats a non-negative float as strconv does, with infinity
// and NaN spelt as Python spells them (inf, nan).
func floatText(f float64, format byte, prec int) string {
	switch {
	case math.IsInf(f, 0):
		return "inf"
	case math.IsNaN(f):
		return "nan"
	}
	return strconv.FormatFloat(f, format, prec, 64)
}

// numberOf reads a number out of a value: an integer (isInt, i) or a float
// (f). Text that is a whole number is a number too.
func numberOf(v any) (f float64, isInt bool, i int64, ok bool) {
	switch x := v.(type) {
	case int64:
		return 0, true, x, true
	case int:
		return 0, true, int64(x), true
	case int32:
		return 0, true, int64(x), true
	case float64:
		return x, false, 0, true
	case float32:
		return float64(x), false, 0, true
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return 0, true, n, true
		}
		if g, err := x.Float64(); err == nil {
			return g, false, 0, true
		}
	case string:
		s := strings.TrimSpace(x)
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return 0, true, n, true
		}
		if g, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(g, 0) && !math.IsNaN(g) {
			return g, false, 0, true
		}
	}
	return 0, false, 0, false
}

func absInt(i int64) uint64 {
	if i < 0 {
		return uint64(-(i + 1)) + 1
	}
	return uint64(i)
}

// group inserts sep between groups of three digits of an integer's digits.
func group(digits string, sep byte) string {
	if sep == 0 || len(digits) <= 3 {
		return digits
	}
	var b strings.Builder
	first := len(digits) % 3
	if first > 0 {
		b.WriteString(digits[:first])
	}
	for k := first; k < len(digits); k += 3 {
		if b.Len() > 0 {
			b.WriteByte(sep)
		}
		b.WriteString(digits[k : k+3])
	}
	return b.String()
}

// groupFloat groups the integer part of a formatted number; an exponent
// form is left as it is.
func groupFloat(s string, sep byte) string {
	if sep == 0 || strings.ContainsAny(s, "eEn") {
		return s
	}
	intPart, frac, hasFrac := strings.Cut(s, ".")
	out := group(intPart, sep)
	if hasFrac {
		out += "." + frac
	}
	return out
}

// pad aligns sign+body in width runes.
func pad(sign, body string, width int, fill rune, align byte) string {
	n := width - utf8.RuneCountInString(sign) - utf8.RuneCountInString(body)
	if n <= 0 {
		return sign + body
	}
	f := strings.Repeat(string(fill), n)
	switch align {
	case '<':
		return sign + body + f
	case '^':
		left := strings.Repeat(string(fill), n/2)
		return left + sign + body + strings.Repeat(string(fill), n-n/2)
	case '=':
		return sign + f + body
	}
	return f + sign + body
}
