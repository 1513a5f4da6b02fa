package rasaimport

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/soni-dev/soni/ir"
)

// Rasa's conditions (flow guards, next branches, collect rejections) are
// pypred predicates: and, or, not, comparisons (=, ==, !=, <, <=, >, >=,
// is, is not), contains, matches, parentheses, quoted strings, numbers,
// true/false/null and set literals {"a" "b"}, over slots.NAME and
// context.NAME. This file parses them and writes soni expressions.

// cexpr is a parsed condition.
type cexpr interface{}

type (
	cbin struct {
		op   string // and, or, ==, !=, <, <=, >, >=, contains, matches
		l, r cexpr
	}
	cnot struct{ x cexpr }
	cref struct{ path string }
	clit struct{ v any } // string, float64, bool, nil
	cset struct{ items []cexpr }
)

// ctok is a condition token.
type ctok struct {
	kind string // word, str, num, op, punct
	text string
}

func lexCond(s string) ([]ctok, error) {
	var toks []ctok
	rs := []rune(s)
	for i := 0; i < len(rs); {
		c := rs[i]
		switch {
		case unicode.IsSpace(c):
			i++
		case c == '(' || c == ')' || c == '{' || c == '}' || c == ',':
			toks = append(toks, ctok{"punct", string(c)})
			i++
		case c == '"' || c == '\'':
			j := i + 1
			var b strings.Builder
			for ; j < len(rs) && rs[j] != c; j++ {
				// A backslash escapes the quote; before anything else it
				// is the text's own, such as a pattern's \d.
				if rs[j] == '\\' && j+1 < len(rs) && rs[j+1] == c {
					j++
				}
				b.WriteRune(rs[j])
			}
			if j >= len(rs) {
				return nil, fmt.Errorf("unclosed quote %c", c)
			}
			toks = append(toks, ctok{"str", b.String()})
			i = j + 1
		case c == '>' || c == '<' || c == '=' || c == '!':
			j := i + 1
			if j < len(rs) && rs[j] == '=' {
				j++
			}
			op := string(rs[i:j])
			if op == "!" {
				return nil, fmt.Errorf("unexpected %q", op)
			}
			toks = append(toks, ctok{"op", op})
			i = j
		case unicode.IsDigit(c) || (c == '-' && i+1 < len(rs) && unicode.IsDigit(rs[i+1])):
			j := i + 1
			for j < len(rs) && (unicode.IsDigit(rs[j]) || rs[j] == '.') {
				j++
			}
			toks = append(toks, ctok{"num", string(rs[i:j])})
			i = j
		case unicode.IsLetter(c) || c == '_':
			j := i + 1
			for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j]) || rs[j] == '_' || rs[j] == '.' || rs[j] == '-') {
				j++
			}
			toks = append(toks, ctok{"word", string(rs[i:j])})
			i = j
		default:
			return nil, fmt.Errorf("unexpected %q", string(c))
		}
	}
	return toks, nil
}

// condParser is a recursive-descent parser of pypred conditions.
type condParser struct {
	toks []ctok
	i    int
}

func parseCond(s string) (cexpr, error) {
	toks, err := lexCond(s)
	if err != nil {
		return nil, err
	}
	if len(toks) == 0 {
		return nil, fmt.Errorf("empty condition")
	}
	p := &condParser{toks: toks}
	e, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.i < len(p.toks) {
		return nil, fmt.Errorf("unexpected %q", p.toks[p.i].text)
	}
	return e, nil
}

func (p *condParser) peekWord(w string) bool {
	return p.i < len(p.toks) && p.toks[p.i].kind == "word" && strings.EqualFold(p.toks[p.i].text, w)
}

func (p *condParser) or() (cexpr, error) {
	l, err := p.and()
	if err != nil {
		return nil, err
	}
	for p.peekWord("or") {
		p.i++
		r, err := p.and()
		if err != nil {
			return nil, err
		}
		l = cbin{"or", l, r}
	}
	return l, nil
}

func (p *condParser) and() (cexpr, error) {
	l, err := p.not()
	if err != nil {
		return nil, err
	}
	for p.peekWord("and") {
		p.i++
		r, err := p.not()
		if err != nil {
			return nil, err
		}
		l = cbin{"and", l, r}
	}
	return l, nil
}

func (p *condParser) not() (cexpr, error) {
	if p.peekWord("not") {
		p.i++
		x, err := p.not()
		if err != nil {
			return nil, err
		}
		return cnot{x}, nil
	}
	return p.cmp()
}

func (p *condParser) cmp() (cexpr, error) {
	l, err := p.term()
	if err != nil {
		return nil, err
	}
	if p.i >= len(p.toks) {
		return l, nil
	}
	t := p.toks[p.i]
	op := ""
	switch {
	case t.kind == "op":
		op = t.text
		if op == "=" {
			op = "=="
		}
		p.i++
	case p.peekWord("is"):
		p.i++
		op = "=="
		if p.peekWord("not") {
			p.i++
			op = "!="
		}
	case p.peekWord("contains"), p.peekWord("matches"):
		op = strings.ToLower(t.text)
		p.i++
	default:
		return l, nil
	}
	r, err := p.term()
	if err != nil {
		return nil, err
	}
	return cbin{op, l, r}, nil
}

func (p *condParser) term() (cexpr, error) {
	if p.i >= len(p.toks) {
		return nil, fmt.Errorf("the condition ends too early")
	}
	t := p.toks[p.i]
	p.i++
	switch t.kind {
	case "str":
		return clit{t.text}, nil
	case "num":
		f, err := strconv.ParseFloat(t.text, 64)
		if err != nil {
			return nil, fmt.Errorf("bad number %q", t.text)
		}
		return clit{f}, nil
	case "word":
		switch strings.ToLower(t.text) {
		case "true":
			return clit{true}, nil
		case "false":
			return clit{false}, nil
		case "null", "none", "undefined", "empty":
			return clit{nil}, nil
		case "and", "or", "not", "is", "contains", "matches":
			return nil, fmt.Errorf("unexpected %q", t.text)
		}
		return cref{t.text}, nil
	case "punct":
		switch t.text {
		case "(":
			e, err := p.or()
			if err != nil {
				return nil, err
			}
			if p.i >= len(p.toks) || p.toks[p.i].text != ")" {
				return nil, fmt.Errorf("missing )")
			}
			p.i++
			return e, nil
		case "{":
			var set cset
			for p.i < len(p.toks) && p.toks[p.i].text != "}" {
				if p.toks[p.i].text == "," {
					p.i++
					continue
				}
				x, err := p.term()
				if err != nil {
					return nil, err
				}
				set.items = append(set.items, x)
			}
			if p.i >= len(p.toks) {
				return nil, fmt.Errorf("missing }")
			}
			p.i++
			return set, nil
		}
	}
	return nil, fmt.Errorf("unexpected %q", t.text)
}

// condWriter writes a parsed condition as a soni expression.
type condWriter struct {
	// slotType returns the Rasa type of a slot ("" when the domain does
	// not declare it).
	slotType func(name string) (string, bool)
	// value, when not "", is the slot whose references become `value`
	// (a rejection of that slot's collect).
	value string
	// slots collects the slots the condition reads.
	slots []string
	// pattern is the flow when it is one of soni's patterns, whose
	// context (context.NAME) the condition may read.
	pattern string
}

// condError is a condition soni cannot express.
type condError struct{ msg string }

func (e *condError) Error() string { return e.msg }

// translateCond translates a Rasa condition. The error says what has no
// soni equivalent.
func translateCond(src string, w *condWriter) (string, error) {
	e, err := parseCond(src)
	if err != nil {
		return "", &condError{fmt.Sprintf("cannot parse the condition %q: %v", src, err)}
	}
	return w.boolean(e)
}

// boolean writes e where a boolean is expected.
func (w *condWriter) boolean(e cexpr) (string, error) {
	switch x := e.(type) {
	case cbin:
		if x.op == "and" || x.op == "or" {
			l, err := w.boolean(x.l)
			if err != nil {
				return "", err
			}
			r, err := w.boolean(x.r)
			if err != nil {
				return "", err
			}
			return wrap(l) + " " + x.op + " " + wrap(r), nil
		}
		return w.compare(x)
	case cnot:
		s, err := w.boolean(x.x)
		if err != nil {
			return "", err
		}
		return "not " + wrap(s), nil
	case clit:
		switch v := x.v.(type) {
		case bool:
			return strconv.FormatBool(v), nil
		case nil:
			return "false", nil
		case string:
			return strconv.FormatBool(v != ""), nil
		case float64:
			return strconv.FormatBool(v != 0), nil
		}
	case cref:
		ref, typ, err := w.ref(x)
		if err != nil {
			return "", err
		}
		return truthy(ref, typ), nil
	}
	return "", &condError{"a set literal is not a condition"}
}

// truthy is Python's truthiness of a slot reference of a Rasa type.
func truthy(ref, typ string) string {
	switch typ {
	case "bool":
		return ref + " == true"
	case "text", "categorical":
		// A text slot often holds an answer such as "False" or "no"
		// (a collect "accepts True or False"): those are false.
		return "lower(" + ref + ` ?? "") not in ["", "false", "no", "0"]`
	case "float":
		return "(" + ref + " ?? 0) != 0"
	case "list":
		return "len(" + ref + " ?? []) > 0"
	}
	return ref + ` not in [nil, false, "", 0]`
}

// wrap parenthesizes an expression that has an operator.
func wrap(s string) string {
	if strings.ContainsAny(s, " ") && !(strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") && balanced(s[1:len(s)-1])) {
		return "(" + s + ")"
	}
	return s
}

// balanced reports whether s's parentheses balance (outside quotes).
func balanced(s string) bool {
	depth := 0
	var q rune
	for _, c := range s {
		switch {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			q = c
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}

// ref writes a reference: slots.NAME (or value, for the collected slot).
func (w *condWriter) ref(x cref) (string, string, error) {
	path := x.path
	switch {
	case strings.HasPrefix(path, "slots."):
		name := strings.TrimPrefix(path, "slots.")
		typ, _ := w.slotType(name)
		if name == w.value && w.value != "" {
			return "value", typ, nil
		}
		if !validName(name) {
			return "", "", &condError{fmt.Sprintf("slot %q is not a name soni accepts", name)}
		}
		w.slots = append(w.slots, name)
		return "slots." + name, typ, nil
	case strings.HasPrefix(path, "context."):
		name := strings.TrimPrefix(path, "context.")
		if w.pattern == "" || !ir.IsPattern(w.pattern) {
			return "", "", &condError{fmt.Sprintf("%q reads Rasa's pattern context, which only soni's pattern flows have", path)}
		}
		for _, ps := range ir.PatternSlots[w.pattern] {
			if ps.Name == name {
				return "context." + name, rasaType(ps.Type), nil
			}
		}
		return "", "", &condError{fmt.Sprintf("soni's %s has no context %q", w.pattern, name)}
	}
	return "", "", &condError{fmt.Sprintf("%q is neither slots.NAME nor context.NAME", path)}
}

// rasaType is the Rasa type of a soni slot type, for truthiness.
func rasaType(t ir.SlotType) string {
	switch t {
	case ir.TypeBoolean:
		return "bool"
	case ir.TypeText, ir.TypeCategorical:
		return "text"
	case ir.TypeNumber, ir.TypeInteger:
		return "float"
	}
	return "any"
}

// compare writes a comparison, contains or matches.
func (w *condWriter) compare(x cbin) (string, error) {
	if x.op == "contains" {
		if set, ok := x.l.(cset); ok {
			r, _, err := w.operand(x.r, "")
			if err != nil {
				return "", err
			}
			var items []string
			for _, it := range set.items {
				s, _, err := w.operand(it, "")
				if err != nil {
					return "", err
				}
				items = append(items, s)
			}
			return r + " in [" + strings.Join(items, ", ") + "]", nil
		}
		l, ltyp, err := w.operand(x.l, "")
		if err != nil {
			return "", err
		}
		r, _, err := w.operand(x.r, "")
		if err != nil {
			return "", err
		}
		if ltyp == "text" || ltyp == "categorical" {
			return "(" + l + ` ?? "") contains ` + r, nil
		}
		return r + " in (" + l + " ?? [])", nil
	}
	if x.op == "matches" {
		l, _, err := w.operand(x.l, "")
		if err != nil {
			return "", err
		}
		r, _, err := w.operand(x.r, "")
		if err != nil {
			return "", err
		}
		return "(" + l + ` ?? "") matches ` + r, nil
	}
	// A number written as a string compares as a number with a float
	// slot, as Rasa converts it: the types come first.
	n := len(w.slots)
	_, ltyp, err := w.operand(x.l, "")
	if err != nil {
		return "", err
	}
	_, rtyp, err := w.operand(x.r, "")
	if err != nil {
		return "", err
	}
	w.slots = w.slots[:n]
	l, _, _ := w.operand(x.l, rtyp)
	r, _, _ := w.operand(x.r, ltyp)
	return l + " " + x.op + " " + r, nil
}

// operand writes a value; other is the Rasa type of the other side of a
// comparison, which a numeric string literal follows.
func (w *condWriter) operand(e cexpr, other string) (string, string, error) {
	switch x := e.(type) {
	case clit:
		switch v := x.v.(type) {
		case nil:
			return "nil", "", nil
		case bool:
			return strconv.FormatBool(v), "bool", nil
		case float64:
			return strconv.FormatFloat(v, 'f', -1, 64), "float", nil
		case string:
			if other == "float" {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					return strconv.FormatFloat(f, 'f', -1, 64), "float", nil
				}
			}
			if other == "bool" {
				switch strings.ToLower(v) {
				case "true", "false":
					return strings.ToLower(v), "bool", nil
				}
			}
			return strconv.Quote(v), "text", nil
		}
	case cref:
		return w.ref(x)
	case cbin, cnot:
		s, err := w.boolean(e)
		return "(" + s + ")", "bool", err
	}
	return "", "", &condError{"a set literal can only be the left side of contains"}
}
