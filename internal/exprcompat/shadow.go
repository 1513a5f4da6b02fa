package exprcompat

import (
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
)

// builtinNames are expr's built-in functions. A variable (a slot) may carry
// one of these names: count, date, type, max...
var builtinNames = func() map[string]bool {
	m := make(map[string]bool, len(builtin.Names))
	for _, n := range builtin.Names {
		m[n] = true
	}
	return m
}()

// ShadowBuiltins is an expr patch (use it with expr.Patch, or walk a tree
// with it before checking) that makes a bare identifier named like an expr
// built-in function read the variable of that name from the environment,
// $env["name"]. Slots are variables, so a slot named count or date is the
// slot, never the function; calls such as count(list, pred) are built-in
// nodes and stay functions (and expr forbids let with a built-in's name).
type ShadowBuiltins struct{}

// Visit implements the expr visitor interface.
func (v *ShadowBuiltins) Visit(node *ast.Node) {
	id, ok := (*node).(*ast.IdentifierNode)
	if !ok || !builtinNames[id.Value] {
		return
	}
	ast.Patch(node, &ast.MemberNode{Node: &ast.IdentifierNode{Value: "$env"}, Property: &ast.StringNode{Value: id.Value}})
}

// IsBuiltin reports whether name is an expr built-in function. Such a slot
// must stay out of a type-checking environment: there expr would take the
// slot for the function in calls like len(x).
func IsBuiltin(name string) bool { return builtinNames[name] }
