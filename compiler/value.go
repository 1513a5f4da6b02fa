package compiler

import (
	"github.com/goccy/go-yaml/ast"

	"github.com/soni-dev/soni/syntax"
)

// toValue converts a YAML tree to generic data for the schema validator:
// map[string]any, []any, string, int64, uint64, float64, bool and nil. It
// resolves aliases through the file's anchors and expands merge keys, like
// yaml.NodeToValue, but without reflection: it is several times faster on
// large projects. Alias expansion has been bounded by checkTree already.
func (p *parsed) toValue(n ast.Node) any {
	d := valueReader{syntax.NewReader(p.file.Path, nil, nil, p.anchors, nil)}
	return d.toValue(n, 0)
}

// valueReader converts trees to generic data.
type valueReader struct{ *syntax.Reader }

func (d valueReader) toValue(n ast.Node, depth int) any {
	n = d.Unwrap(n)
	if depth > 10_000 {
		return nil
	}
	switch x := n.(type) {
	case *ast.MappingNode:
		m := make(map[string]any, len(x.Values))
		var merges []ast.Node
		for _, mv := range x.Values {
			if _, ok := mv.Key.(*ast.MergeKeyNode); ok {
				merges = append(merges, mv.Value)
				continue
			}
			k, _ := d.Scalar(mv.Key)
			ks, ok := k.(string)
			if !ok {
				ks = d.Str(mv.Key, "").V
			}
			m[ks] = d.toValue(mv.Value, depth+1)
		}
		for _, mn := range merges {
			var srcs []ast.Node
			if seq, ok := d.Unwrap(mn).(*ast.SequenceNode); ok {
				srcs = seq.Values
			} else {
				srcs = []ast.Node{mn}
			}
			for _, s := range srcs {
				if sub, ok := d.toValue(s, depth+1).(map[string]any); ok {
					for k, v := range sub {
						if _, exists := m[k]; !exists {
							m[k] = v
						}
					}
				}
			}
		}
		return m
	case *ast.SequenceNode:
		out := make([]any, len(x.Values))
		for i, v := range x.Values {
			out[i] = d.toValue(v, depth+1)
		}
		return out
	}
	v, _ := d.Scalar(n)
	return v
}
