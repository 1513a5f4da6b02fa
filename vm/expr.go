package vm

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/expr-lang/expr"
	exprvm "github.com/expr-lang/expr/vm"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/internal/exprcompat"
	"github.com/soni-dev/soni/internal/jsonval"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/tmpl"
	"github.com/soni-dev/soni/values"
)

// compiled is a compiled expression with its source and position.
type compiled struct {
	src  string
	pos  diag.Pos
	prog *exprvm.Program
}

// compileExpr compiles an expression once. Slots are top-level variables
// resolved at run time (unset slots are nil), also when a slot is named like
// an expr built-in (count, date); AND, OR and NOT in capitals are rewritten
// to and, or and not first.
func compileExpr(e *ir.Expr) (*compiled, error) {
	p, err := expr.Compile(exprcompat.Rewrite(e.Src), expr.AllowUndefinedVariables(), expr.Patch(&exprcompat.ShadowBuiltins{}))
	if err != nil {
		return nil, fmt.Errorf("%s: expression %q: %v", e.Pos, e.Src, firstLine(err.Error()))
	}
	return &compiled{src: e.Src, pos: e.Pos, prog: p}, nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// run evaluates the expression against env. A panic inside expr becomes an
// error.
func (p *compiled) run(env map[string]any) (out any, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("expression %q panicked: %v", p.src, r)
		}
	}()
	out, err = expr.Run(p.prog, env)
	if err != nil {
		return nil, fmt.Errorf("expression %q: %s", p.src, firstLine(err.Error()))
	}
	return out, nil
}

// test evaluates the expression as a condition. A result that is not a
// boolean is an error.
func (p *compiled) test(env map[string]any) (bool, error) {
	out, err := p.run(env)
	if err != nil {
		return false, err
	}
	b, ok := out.(bool)
	if !ok {
		return false, fmt.Errorf("expression %q gave %q, not a boolean", p.src, tmpl.Format(out))
	}
	return b, nil
}

var errWrongType = errors.New("wrong type")

// normalize brings a value that was already converted (a checkpoint's
// value, a conversation slot's initial value) to the Go type the slot's
// declared type stores: int64, float64, bool, string, or any JSON value.
func normalize(s *ir.Slot, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch s.Type {
	case ir.TypeInteger:
		switch x := v.(type) {
		case int64:
			return x, nil
		case int:
			return int64(x), nil
		case int32:
			return int64(x), nil
		case uint64:
			if x <= math.MaxInt64 {
				return int64(x), nil
			}
		case float64:
			if x == math.Trunc(x) && x >= -(1<<63) && x < 1<<63 {
				return int64(x), nil
			}
		}
		return nil, fmt.Errorf("%w: %q is not an integer", errWrongType, tmpl.Format(v))
	case ir.TypeNumber:
		if f, ok := values.Float64(v); ok {
			return f, nil
		}
		return nil, fmt.Errorf("%w: %q is not a number", errWrongType, tmpl.Format(v))
	case ir.TypeBoolean:
		if b, ok := v.(bool); ok {
			return b, nil
		}
		return nil, fmt.Errorf("%w: %q is not a boolean", errWrongType, tmpl.Format(v))
	case ir.TypeText, ir.TypeCategorical, ir.TypeDate:
		str, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("%w: %q is not a string", errWrongType, tmpl.Format(v))
		}
		if s.Type == ir.TypeCategorical && len(s.Values) > 0 && !slices.ContainsFunc(s.Values, func(x ir.Value) bool { return x.Value == str }) {
			names := make([]string, len(s.Values))
			for i, x := range s.Values {
				names[i] = x.Value
			}
			return nil, fmt.Errorf("%w: %q is not one of the declared values (%s)", errWrongType, str, strings.Join(names, ", "))
		}
		return str, nil
	case ir.TypeList:
		return normalizeList(s, v)
	}
	return jsonval.Normalize(v), nil
}

// normalizeList brings a list slot's stored value to a []any of strings,
// each one of the slot's values when it declares some.
func normalizeList(s *ir.Slot, v any) (any, error) {
	var items []any
	switch x := v.(type) {
	case []any:
		items = x
	case []string:
		items = make([]any, len(x))
		for i, str := range x {
			items[i] = str
		}
	default:
		return nil, fmt.Errorf("%w: %q is not a list", errWrongType, tmpl.Format(v))
	}
	out := make([]any, len(items))
	for i, it := range items {
		str, ok := it.(string)
		if !ok {
			return nil, fmt.Errorf("%w: item %q is not a string", errWrongType, tmpl.Format(it))
		}
		if len(s.Values) > 0 && !slices.ContainsFunc(s.Values, func(x ir.Value) bool { return x.Value == str }) {
			return nil, fmt.Errorf("%w: item %q is not one of the declared values", errWrongType, str)
		}
		out[i] = str
	}
	return out, nil
}
