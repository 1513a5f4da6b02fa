package ir

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// Format is the value of the "format" field of an encoded program.
const Format = "soni.program"

type envelope struct {
	Format    string   `json:"format"`
	IRVersion int      `json:"ir_version"`
	Hash      string   `json:"hash"`
	Program   *Program `json:"program"`
}

// Encode returns the canonical JSON of the program: indented, with fields in
// a fixed order and every list sorted, so the same program always gives the
// same bytes. It ends with a newline.
func Encode(p *Program) ([]byte, error) {
	h, err := Hash(p)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(envelope{Format: Format, IRVersion: Version, Hash: h, Program: p}); err != nil {
		return nil, fmt.Errorf("encode program: %w", err)
	}
	return buf.Bytes(), nil
}

// Hash returns the content hash of the program, "sha256:" and the hex digest
// of its compact canonical JSON. Positions take part in the hash, so moving a
// step in its file changes it.
func Hash(p *Program) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(p); err != nil {
		return "", fmt.Errorf("hash program: %w", err)
	}
	sum := sha256.Sum256(buf.Bytes())
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// Fingerprint is the hash of the program as its project wrote it: [Hash]
// of the program without soni's default patterns and their responses
// (those marked Builtin). A checkpoint carries its program's fingerprint;
// leaving the defaults out keeps it when a new soni changes them, which no
// checkpoint points into (the default patterns never wait for an answer).
func Fingerprint(p *Program) (string, error) {
	own := *p
	own.Flows, own.Responses = nil, nil
	for _, f := range p.Flows {
		if f == nil || !f.Builtin {
			own.Flows = append(own.Flows, f)
		}
	}
	for _, r := range p.Responses {
		if r == nil || !r.Builtin {
			own.Responses = append(own.Responses, r)
		}
	}
	return Hash(&own)
}

// Decode parses an encoded program. It refuses another format or IR version
// with a message naming both versions, and a hash that does not match the
// content.
func Decode(b []byte) (*Program, error) {
	var head struct {
		Format    string `json:"format"`
		IRVersion int    `json:"ir_version"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, fmt.Errorf("not a compiled soni program: %w", err)
	}
	if head.Format != Format {
		return nil, fmt.Errorf("not a compiled soni program: format is %q, want %q", head.Format, Format)
	}
	if head.IRVersion != Version {
		return nil, fmt.Errorf("compiled program has IR version %d, but this soni reads IR version %d: compile the project again with this soni", head.IRVersion, Version)
	}
	var env envelope
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&env); err != nil {
		return nil, fmt.Errorf("decode compiled program: %w", err)
	}
	if env.Program == nil {
		return nil, fmt.Errorf("decode compiled program: no %q field", "program")
	}
	h, err := Hash(env.Program)
	if err != nil {
		return nil, err
	}
	if h != env.Hash {
		return nil, fmt.Errorf("compiled program is damaged: hash is %q but the content hashes to %q", env.Hash, h)
	}
	if err := env.Program.Validate(); err != nil {
		return nil, err
	}
	return env.Program, nil
}

// Validate checks the graph's invariants: every edge points at a node of its
// flow or End, and every link and call names a flow.
func (p *Program) Validate() error {
	names := make(map[string]bool, len(p.Flows))
	for i, f := range p.Flows {
		if f == nil {
			return fmt.Errorf("flow %d of the program is null", i)
		}
		names[f.Name] = true
	}
	for _, f := range p.Flows {
		if len(f.Nodes) == 0 {
			return fmt.Errorf("flow %q has no nodes", f.Name)
		}
		for i, n := range f.Nodes {
			if n == nil {
				return fmt.Errorf("flow %q node %d is null", f.Name, i)
			}
		}
		ok := func(i int) bool { return i == End || (i >= 0 && i < len(f.Nodes)) }
		okp := func(i *int) bool { return i == nil || ok(*i) }
		for _, n := range f.Nodes {
			bad := !ok(n.Next) || !okp(n.OnInvalid) || !okp(n.Body) || !okp(n.Exit) || !okp(n.OnError) || !okp(n.OnConfirm) || !okp(n.OnDeny)
			for _, c := range n.Cases {
				bad = bad || !ok(c.Target)
			}
			if bad {
				return fmt.Errorf("flow %q step %q has an edge outside the flow", f.Name, n.ID)
			}
			if (n.Kind == KindLink || n.Kind == KindCall) && !names[n.Target] && !IsPattern(n.Target) {
				return fmt.Errorf("flow %q step %q targets unknown flow %q", f.Name, n.ID, n.Target)
			}
		}
	}
	return nil
}
