package actions

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDispatch(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "act.sh"), []byte("#!/bin/sh\ntouch ran\necho '{\"from\": \"exec\"}'\n"), 0o755))
	prog := &ir.Program{Actions: []*ir.Action{
		{Name: "both", Outputs: []string{"from"}, Run: &ir.Run{Exec: []string{"./act.sh"}, HTTP: &ir.HTTP{URL: "http://127.0.0.1:1/x"}}},
		{Name: "bare", Outputs: []string{"from"}},
		{Name: "needs", Inputs: []string{"a", "b"}, Required: []string{"b"}, Outputs: []string{"from"}, Run: &ir.Run{Exec: []string{"./act.sh"}}},
	}}
	goFn := vm.ActionFunc(func(ctx context.Context, req vm.ActionRequest) (map[string]any, error) {
		return map[string]any{"from": "go:" + req.Action}, nil
	})
	tests := []struct {
		name     string
		register []string
		action   string
		inputs   map[string]any
		noDecl   bool
		want     map[string]any
		wantErr  string
		wantRan  bool
	}{
		{name: "exec before http", action: "both", want: map[string]any{"from": "exec"}, wantRan: true},
		{name: "go function first", register: []string{"both"}, action: "both", want: map[string]any{"from": "go:both"}},
		{name: "declaration found in the program", action: "both", noDecl: true, want: map[string]any{"from": "exec"}, wantRan: true},
		{name: "undeclared with a go function", register: []string{"ghost"}, action: "ghost", want: map[string]any{"from": "go:ghost"}},
		{name: "declared without run", action: "bare", wantErr: `action "bare" has no runner: declare run: exec/http/rasa, register a Go function, or stub it in tests`},
		{name: "undeclared", action: "ghost", wantErr: `action "ghost" has no runner: declare run: exec/http/rasa, register a Go function, or stub it in tests`},
		{name: "required input set", action: "needs", inputs: map[string]any{"a": nil, "b": "x"}, want: map[string]any{"from": "exec"}, wantRan: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_ = os.Remove(marker)
			r := New(prog, dir, Options{})
			for _, name := range tc.register {
				r.Register(name, goFn)
			}
			req := vm.ActionRequest{Action: tc.action, Session: "s", Inputs: tc.inputs}
			if !tc.noDecl {
				req.Decl = prog.Action(tc.action)
			}
			out, err := r.RunAction(context.Background(), req)
			_, statErr := os.Stat(marker)
			assert.Equal(t, tc.wantRan, statErr == nil, "whether the command ran")
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, out)
		})
	}
}

func TestGoFunctionError(t *testing.T) {
	r := New(nil, "", Options{})
	r.Register("pay", func(ctx context.Context, req vm.ActionRequest) (map[string]any, error) {
		return nil, errors.New("card declined")
	})
	_, err := r.RunAction(context.Background(), vm.ActionRequest{Action: "pay"})
	require.EqualError(t, err, "card declined")
}

func TestDecodeOutputs(t *testing.T) {
	tests := []struct {
		in      string
		want    map[string]any
		wantErr string
	}{
		{in: `{"a": 1, "b": 1.5, "c": "x", "d": null, "e": {"f": [2, 2.5]}}`, want: map[string]any{"a": int64(1), "b": 1.5, "c": "x", "d": nil, "e": map[string]any{"f": []any{int64(2), 2.5}}}},
		{in: "  {\"a\": true}\n\n", want: map[string]any{"a": true}},
		{in: `{"big": 12345678901234567890}`, want: map[string]any{"big": 12345678901234567890.0}},
		{in: ``, wantErr: "no output: expected one JSON object"},
		{in: " \n", wantErr: "no output: expected one JSON object"},
		{in: `"text"`, wantErr: `output is a JSON string, not an object (output starts "\"text\"")`},
		{in: `42`, wantErr: `output is a JSON number, not an object (output starts "42")`},
		{in: `null`, wantErr: `output is a JSON null, not an object (output starts "null")`},
		{in: `true`, wantErr: `output is a JSON boolean, not an object (output starts "true")`},
		{in: `{"a": 1}]`, wantErr: `output has data after the JSON object: invalid character ']' looking for beginning of value`},
		{in: `{"a": 1`, wantErr: `output is not valid JSON: unexpected EOF (output starts "{\"a\": 1")`},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := decodeOutputs([]byte(tc.in))
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestSizeText(t *testing.T) {
	assert.Equal(t, "1 MiB", sizeText(1<<20))
	assert.Equal(t, "4 KiB", sizeText(4<<10))
	assert.Equal(t, "1000 bytes", sizeText(1000))
}

func TestWarningsWithoutCollector(t *testing.T) {
	r := New(&ir.Program{Actions: []*ir.Action{{Name: "a"}}}, "", Options{})
	r.Register("a", func(ctx context.Context, req vm.ActionRequest) (map[string]any, error) {
		return map[string]any{"surprise": 1}, nil
	})
	out, err := r.RunAction(context.Background(), vm.ActionRequest{Action: "a"})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"surprise": 1}, out)
}
