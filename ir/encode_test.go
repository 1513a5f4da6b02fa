package ir

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func sample() *Program {
	return &Program{IRVersion: Version, Settings: DefaultSettings(), Flows: []*Flow{{
		Name:     "f",
		Triggers: []string{"go"},
		Nodes: []*Node{
			{ID: "a", Kind: KindSay, Next: 1, Message: &Template{Src: "hi"}},
			{ID: "b", Kind: KindCall, Next: End, Target: "f"},
		},
	}}}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	b, err := Encode(sample())
	require.NoError(t, err)
	again, err := Encode(sample())
	require.NoError(t, err)
	assert.Equal(t, b, again, "same program, same bytes")
	p, err := Decode(b)
	require.NoError(t, err)
	b2, err := Encode(p)
	require.NoError(t, err)
	assert.Equal(t, string(b), string(b2))
}

func TestDecodeRefuses(t *testing.T) {
	good, err := Encode(sample())
	require.NoError(t, err)
	tests := []struct {
		name, src, msg string
	}{
		{"not JSON", "not json", "not a compiled soni program"},
		{"other format", `{"format": "other", "ir_version": 1}`, `format is "other"`},
		{"other IR version", `{"format": "soni.program", "ir_version": 99}`, "IR version 99, but this soni reads IR version 1"},
		{"unknown field", strings.Replace(string(good), `"hash"`, `"extra": 1, "hash"`, 1), "unknown field"},
		{"damaged", strings.Replace(string(good), `"src": "hi"`, `"src": "ho"`, 1), "damaged"},
		{"no program", `{"format": "soni.program", "ir_version": 1, "hash": "x"}`, `no "program" field`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode([]byte(tt.src))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.msg)
		})
	}
}

func TestValidate(t *testing.T) {
	bad := func(mut func(p *Program)) error { p := sample(); mut(p); return p.Validate() }
	assert.NoError(t, sample().Validate())
	assert.ErrorContains(t, bad(func(p *Program) { p.Flows[0].Nodes[0].Next = 7 }), "edge outside the flow")
	assert.ErrorContains(t, bad(func(p *Program) { p.Flows[0].Nodes[1].Target = "nope" }), `unknown flow "nope"`)
	assert.ErrorContains(t, bad(func(p *Program) { p.Flows[0].Nodes = nil }), "has no nodes")
	assert.ErrorContains(t, bad(func(p *Program) { p.Flows = append(p.Flows, nil) }), "is null")
	assert.ErrorContains(t, bad(func(p *Program) { p.Flows[0].Nodes[0] = nil }), "node 0 is null")
}

func TestKindsWait(t *testing.T) {
	for _, k := range Kinds {
		assert.Equal(t, k == KindCollect || k == KindConfirm, k.WaitsForUser(), string(k))
	}
}
