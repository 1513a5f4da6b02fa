package yamlsubset

import (
	"fmt"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// dump renders what a reader of the tree can see: node kinds, flow style,
// scalar values, and the type, value and position of their tokens.
func dump(f *ast.File) string {
	var b strings.Builder
	for _, d := range f.Docs {
		b.WriteString("doc ")
		dumpNode(&b, d.Body, 1)
		b.WriteString("\n")
	}
	return b.String()
}

func tok(tk *token.Token) string {
	if tk == nil {
		return "<nil>"
	}
	p := "nopos"
	if tk.Position != nil {
		p = fmt.Sprintf("%d:%d", tk.Position.Line, tk.Position.Column)
	}
	return fmt.Sprintf("%s %q @%s", tk.Type, tk.Value, p)
}

func dumpNode(b *strings.Builder, n ast.Node, depth int) {
	ind := strings.Repeat("  ", depth)
	switch x := n.(type) {
	case nil:
		b.WriteString("nil")
	case *ast.MappingNode:
		fmt.Fprintf(b, "map flow=%v start=%s {\n", x.IsFlowStyle, tok(x.Start))
		for _, mv := range x.Values {
			b.WriteString(ind)
			dumpNode(b, mv, depth+1)
			b.WriteString("\n")
		}
		b.WriteString(ind + "}")
	case *ast.MappingValueNode:
		fmt.Fprintf(b, "pair %s key=", tok(x.Start))
		dumpNode(b, x.Key, depth+1)
		b.WriteString(" value=")
		dumpNode(b, x.Value, depth+1)
	case *ast.SequenceNode:
		fmt.Fprintf(b, "seq flow=%v start=%s entries=%d heads=%d [\n", x.IsFlowStyle, tok(x.Start), len(x.Entries), len(x.ValueHeadComments))
		for i, v := range x.Values {
			b.WriteString(ind)
			if i < len(x.Entries) && x.Entries[i] != nil {
				fmt.Fprintf(b, "entry %s ", tok(x.Entries[i].Start))
			}
			dumpNode(b, v, depth+1)
			b.WriteString("\n")
		}
		b.WriteString(ind + "]")
	case *ast.StringNode:
		fmt.Fprintf(b, "string %q %s", x.Value, tok(x.Token))
	case *ast.IntegerNode:
		fmt.Fprintf(b, "int %T %v %s", x.Value, x.Value, tok(x.Token))
	case *ast.FloatNode:
		fmt.Fprintf(b, "float %v %s", x.Value, tok(x.Token))
	case *ast.BoolNode:
		fmt.Fprintf(b, "bool %v %s", x.Value, tok(x.Token))
	case *ast.NullNode:
		fmt.Fprintf(b, "null %s", tok(x.Token))
	case *ast.InfinityNode:
		fmt.Fprintf(b, "inf %v %s", x.Value, tok(x.Token))
	case *ast.NanNode:
		fmt.Fprintf(b, "nan %s", tok(x.Token))
	default:
		fmt.Fprintf(b, "other %T %s", n, tok(n.GetToken()))
	}
}
