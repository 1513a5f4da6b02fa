package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/soni-dev/soni/ir"
	"github.com/urfave/cli/v2"
)

func graphCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "graph",
		Usage:     "draw the flows as a diagram of steps and jumps",
		ArgsUsage: "PATH",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "flow", Usage: "draw only the flow `NAME`"},
			&cli.StringFlag{Name: "format", Value: "mermaid", Usage: "mermaid or dot"},
		}, limitFlags()...),
		Action: func(c *cli.Context) error {
			format := c.String("format")
			if format != "mermaid" && format != "dot" {
				return usageError("graph: unknown format %q: use mermaid or dot", format)
			}
			path, err := oneProject(c)
			if err != nil {
				return err
			}
			prog, err := loadProgram(e, c, path, false)
			if err != nil {
				return err
			}
			// The project's flows; a pattern the project does not
			// override is drawn as soni's default flow when --flow names
			// it (language.md §17).
			var flows []*ir.Flow
			for _, f := range prog.Flows {
				if !f.Builtin {
					flows = append(flows, f)
				}
			}
			if name := c.String("flow"); name != "" {
				f := prog.Flow(name)
				if f == nil {
					var names []string
					for _, f := range flows {
						names = append(names, f.Name)
					}
					return usageError("graph: unknown flow %q: the flows are %s", name, strings.Join(names, ", "))
				}
				flows = []*ir.Flow{f}
			}
			if format == "dot" {
				writeDot(e.stdout, flows)
			} else {
				writeMermaid(e.stdout, flows)
			}
			return nil
		},
	}
}

// edge is one arrow of the diagram.
type edge struct {
	from, to int
	label    string
}

// flowEdges lists a flow's edges with labels; to == ir.End is the end node.
func flowEdges(f *ir.Flow) []edge {
	var out []edge
	for i, n := range f.Nodes {
		add := func(to int, label string) { out = append(out, edge{i, to, label}) }
		opt := func(p *int, label string, def int) {
			if p != nil {
				add(*p, label)
			} else {
				add(def, label)
			}
		}
		switch n.Kind {
		case ir.KindLink:
			add(ir.End, "")
		case ir.KindCollect:
			add(n.Next, "")
			if n.MaxAttempts > 0 || n.OnInvalid != nil {
				opt(n.OnInvalid, "invalid", ir.End)
			}
		case ir.KindBranch:
			def, yes, no := false, false, false
			for _, c := range n.Cases {
				add(c.Target, c.Pattern)
				def = def || c.Pattern == "default"
				yes = yes || c.Pattern == "true"
				no = no || c.Pattern == "false"
			}
			// An evaluate is true or false (an error counts as false), so
			// with both cases nothing falls through.
			if !def && !(n.Evaluate != nil && yes && no) {
				add(n.Next, "no match")
			}
		case ir.KindWhile:
			add(*n.Body, "loop")
			add(*n.Exit, "done")
		case ir.KindAction:
			add(n.Next, "")
			opt(n.OnError, "error", ir.End)
		case ir.KindConfirm:
			opt(n.OnConfirm, "yes", n.Next)
			opt(n.OnDeny, "no", ir.End)
		default:
			add(n.Next, "")
		}
	}
	return out
}

func nodeLabel(n *ir.Node) string {
	switch n.Kind {
	case ir.KindSay, ir.KindCollect, ir.KindConfirm:
		if n.AskAction != "" {
			return fmt.Sprintf("%s: %s %s, asked by %s", n.ID, n.Kind, n.Slot, n.AskAction)
		}
		if n.Slot != "" {
			return fmt.Sprintf("%s: %s %s", n.ID, n.Kind, n.Slot)
		}
	case ir.KindAction:
		return fmt.Sprintf("%s: action %s", n.ID, n.Action)
	case ir.KindLink, ir.KindCall:
		return fmt.Sprintf("%s: %s %s", n.ID, n.Kind, n.Target)
	case ir.KindBranch:
		if n.Slot != "" {
			return fmt.Sprintf("%s: branch on %s", n.ID, n.Slot)
		}
	}
	return fmt.Sprintf("%s: %s", n.ID, n.Kind)
}

// flowID makes a flow name safe as a mermaid or dot identifier.
func flowID(flow string) string {
	var b strings.Builder
	b.WriteString("f_")
	for _, r := range flow {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteString("_")
		}
	}
	return b.String()
}

// mermaidID is the identifier of node i of a flow (ir.End: its end node).
func mermaidID(flow string, i int) string {
	if i == ir.End {
		return flowID(flow) + "__end"
	}
	return fmt.Sprintf("%s__%d", flowID(flow), i)
}

func mermaidText(s string) string {
	s = strings.ReplaceAll(s, `"`, "#quot;")
	return s
}

// writeMermaid draws flows as a mermaid flowchart: one subgraph per flow,
// nodes that wait for the user as parallelograms, links and calls as
// dotted arrows to the target flow's first step.
func writeMermaid(w io.Writer, flows []*ir.Flow) {
	fmt.Fprintln(w, "flowchart TD")
	drawn := map[string]bool{}
	for _, f := range flows {
		drawn[f.Name] = true
	}
	var cross []string
	for _, f := range flows {
		fmt.Fprintf(w, "  subgraph %s[\"%s\"]\n", flowID(f.Name), mermaidText(f.Name))
		for i, n := range f.Nodes {
			id, label := mermaidID(f.Name, i), mermaidText(nodeLabel(n))
			if n.Kind.WaitsForUser() {
				fmt.Fprintf(w, "    %s[/\"%s\"/]\n", id, label)
			} else if n.Kind == ir.KindBranch || n.Kind == ir.KindWhile {
				fmt.Fprintf(w, "    %s{\"%s\"}\n", id, label)
			} else {
				fmt.Fprintf(w, "    %s[\"%s\"]\n", id, label)
			}
			if (n.Kind == ir.KindLink || n.Kind == ir.KindCall) && drawn[n.Target] {
				cross = append(cross, fmt.Sprintf("  %s -.->|%s| %s", id, n.Kind, mermaidID(n.Target, 0)))
			}
		}
		fmt.Fprintf(w, "    %s((\"end\"))\n", mermaidID(f.Name, ir.End))
		for _, e := range flowEdges(f) {
			if e.label != "" {
				fmt.Fprintf(w, "    %s -->|\"%s\"| %s\n", mermaidID(f.Name, e.from), mermaidText(e.label), mermaidID(f.Name, e.to))
			} else {
				fmt.Fprintf(w, "    %s --> %s\n", mermaidID(f.Name, e.from), mermaidID(f.Name, e.to))
			}
		}
		fmt.Fprintln(w, "  end")
	}
	sort.Strings(cross)
	for _, c := range cross {
		fmt.Fprintln(w, c)
	}
	fmt.Fprintln(w, "  classDef wait fill:#fff3bf,stroke:#e67700")
	var waits []string
	for _, f := range flows {
		for i, n := range f.Nodes {
			if n.Kind.WaitsForUser() {
				waits = append(waits, mermaidID(f.Name, i))
			}
		}
	}
	if len(waits) > 0 {
		fmt.Fprintf(w, "  class %s wait\n", strings.Join(waits, ","))
	}
}

func dotText(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`)
}

// writeDot draws flows as a Graphviz digraph: one cluster per flow, nodes
// that wait for the user as filled parallelograms.
func writeDot(w io.Writer, flows []*ir.Flow) {
	fmt.Fprintln(w, "digraph soni {")
	fmt.Fprintln(w, "  rankdir=TB;")
	fmt.Fprintln(w, "  node [shape=box, fontname=\"Helvetica\"];")
	drawn := map[string]bool{}
	for _, f := range flows {
		drawn[f.Name] = true
	}
	var cross []string
	for _, f := range flows {
		fmt.Fprintf(w, "  subgraph \"cluster_%s\" {\n", dotText(f.Name))
		fmt.Fprintf(w, "    label=\"%s\";\n", dotText(f.Name))
		for i, n := range f.Nodes {
			id := mermaidID(f.Name, i)
			attrs := ""
			switch {
			case n.Kind.WaitsForUser():
				attrs = ", shape=parallelogram, style=filled, fillcolor=\"#fff3bf\""
			case n.Kind == ir.KindBranch || n.Kind == ir.KindWhile:
				attrs = ", shape=diamond"
			}
			fmt.Fprintf(w, "    %s [label=\"%s\"%s];\n", id, dotText(nodeLabel(n)), attrs)
			if (n.Kind == ir.KindLink || n.Kind == ir.KindCall) && drawn[n.Target] {
				cross = append(cross, fmt.Sprintf("  %s -> %s [style=dashed, label=\"%s\"];", id, mermaidID(n.Target, 0), n.Kind))
			}
		}
		fmt.Fprintf(w, "    %s [label=\"end\", shape=circle];\n", mermaidID(f.Name, ir.End))
		for _, e := range flowEdges(f) {
			if e.label != "" {
				fmt.Fprintf(w, "    %s -> %s [label=\"%s\"];\n", mermaidID(f.Name, e.from), mermaidID(f.Name, e.to), dotText(e.label))
			} else {
				fmt.Fprintf(w, "    %s -> %s;\n", mermaidID(f.Name, e.from), mermaidID(f.Name, e.to))
			}
		}
		fmt.Fprintln(w, "  }")
	}
	sort.Strings(cross)
	for _, c := range cross {
		fmt.Fprintln(w, c)
	}
	fmt.Fprintln(w, "}")
}
