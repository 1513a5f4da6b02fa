package compiler

import (
	"sort"
	"strings"

	"github.com/soni-dev/soni/internal/suggest"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/syntax"
)

// This file holds what the control-flow and usage warnings (W001-W010)
// share: graph algorithms, positions of names inside templates and
// expressions, and small formatting helpers.

// hasUnknownTarget reports whether any step of a flow names a jump target
// that does not exist; the CFG then lacks edges the author meant, so
// graph-based warnings on that flow would only add noise to the error.
func hasUnknownTarget(f *syntax.Flow) bool {
	bad := func(s syntax.Str) bool { return s.Set && flowTarget(f, s.V) == unknownTarget }
	for _, s := range f.Steps {
		if bad(s.JumpTo) || bad(s.OnInvalid) || bad(s.ExitTo) || bad(s.OnError) || bad(s.OnConfirm) || bad(s.OnDeny) {
			return true
		}
		for _, c := range s.Cases {
			if flowTarget(f, c.Target.V) == unknownTarget {
				return true
			}
		}
		for _, e := range s.Do {
			if e.Step == nil {
				return true
			}
		}
	}
	return false
}

// sccs returns the strongly connected components of a graph of n nodes
// (Tarjan's algorithm, iterative so that deep graphs cannot overflow the
// stack). succ lists a node's successors; values outside [0, n) are
// ignored. Each component lists its nodes in ascending order; components
// come in reverse topological order.
func sccs(n int, succ func(int) []int) [][]int {
	index := make([]int, n) // 0: not visited yet; else visit order + 1
	low := make([]int, n)
	onStack := make([]bool, n)
	var stack []int
	type frame struct {
		v, i int
		succ []int
	}
	var calls []frame
	next := 1
	var out [][]int
	visit := func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		calls = append(calls, frame{v: v, succ: succ(v)})
	}
	for root := 0; root < n; root++ {
		if index[root] != 0 {
			continue
		}
		visit(root)
		for len(calls) > 0 {
			fr := &calls[len(calls)-1]
			if fr.i < len(fr.succ) {
				w := fr.succ[fr.i]
				fr.i++
				if w < 0 || w >= n {
					continue
				}
				if index[w] == 0 {
					visit(w)
				} else if onStack[w] && index[w] < low[fr.v] {
					low[fr.v] = index[w]
				}
				continue
			}
			v := fr.v
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				if p := calls[len(calls)-1].v; low[v] < low[p] {
					low[p] = low[v]
				}
			}
			if low[v] != index[v] {
				continue
			}
			var comp []int
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			sort.Ints(comp)
			out = append(out, comp)
		}
	}
	return out
}

// isCycle reports whether a component holds a cycle: more than one node,
// or one node with an edge to itself.
func isCycle(comp []int, succ func(int) []int) bool {
	if len(comp) > 1 {
		return true
	}
	for _, w := range succ(comp[0]) {
		if w == comp[0] {
			return true
		}
	}
	return false
}

// runePos converts a rune offset into a value to the 1-based line and
// 0-based column that Str.At takes.
func runePos(runes []rune, off int) (line, col int) {
	line = 1
	for i := 0; i < off && i < len(runes); i++ {
		if runes[i] == '\n' {
			line++
			col = 0
		} else {
			col++
		}
	}
	return line, col
}

// tmplRefPos is the position of the slot name of a template reference
// whose '{' is at rune offset off: the first rune after the brace that is
// not a space.
func tmplRefPos(src syntax.Str, off int) diag.Pos {
	runes := []rune(src.V)
	i := off + 1
	for i < len(runes) && (runes[i] == ' ' || runes[i] == '\t') {
		i++
	}
	return src.At(runePos(runes, i))
}

// exprRefPos returns where an expression first names each slot: the
// identifier, or the string key of slots["name"]. Positions are in the file.
// It keeps the earliest of exprNames' occurrences of each name.
func exprRefPos(src syntax.Str) map[string]diag.Pos {
	out := map[string]diag.Pos{}
	for _, n := range exprNames(src) {
		if old, ok := out[n.name]; ok && !n.pos.Before(old) {
			continue
		}
		out[n.name] = n.pos
	}
	return out
}

// didYouMean returns `did you mean "x"?` for the candidate closest to
// name, or "".
func didYouMean(name string, candidates []string) string {
	if s := suggest.Closest(name, candidates); s != "" {
		return "did you mean " + quote(s) + "?"
	}
	return ""
}

// quoteList renders names as "a", "b", "c".
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = quote(n)
	}
	return strings.Join(q, ", ")
}

// stepUses indexes the project's expressions and templates by the step
// that holds them, so that per-step analyses stay linear.
func stepUses(c *checker) (map[*syntax.Step][]*exprUse, map[*syntax.Step][]*tmplUse) {
	exprs := make(map[*syntax.Step][]*exprUse, len(c.exprs))
	for _, u := range c.exprs {
		if u.Step != nil {
			exprs[u.Step] = append(exprs[u.Step], u)
		}
	}
	tmpls := make(map[*syntax.Step][]*tmplUse, len(c.tmpls))
	for _, u := range c.tmpls {
		if u.Step != nil {
			tmpls[u.Step] = append(tmpls[u.Step], u)
		}
	}
	return exprs, tmpls
}

// bitset is a set of small integers, one bit each.
type bitset []uint64

// newFullBitset returns a set holding 0..n-1.
func newFullBitset(n int) bitset {
	b := make(bitset, (n+63)/64)
	for i := range b {
		b[i] = ^uint64(0)
	}
	return b
}

func (b bitset) has(i int) bool { return b[i/64]&(1<<(uint(i)%64)) != 0 }
func (b bitset) set(i int)      { b[i/64] |= 1 << (uint(i) % 64) }
func (b bitset) clear(i int)    { b[i/64] &^= 1 << (uint(i) % 64) }

// and intersects b with o and reports whether b changed.
func (b bitset) and(o bitset) bool {
	changed := false
	for i := range b {
		if v := b[i] & o[i]; v != b[i] {
			b[i] = v
			changed = true
		}
	}
	return changed
}

func (b bitset) or(o bitset) {
	for i := range b {
		b[i] |= o[i]
	}
}

func (b bitset) andNot(o bitset) {
	for i := range b {
		b[i] &^= o[i]
	}
}
