package compiler

import (
	"fmt"
	"maps"
	"slices"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/internal/yamlpos"
)

// ignoredKey is a key of the Python Soni framework's files that the
// framework itself silently ignores. soni ignores it too, with a warning
// that says so and what to write instead, rather than rejecting the file
// (language.md: files from the Python framework load as they are).
type ignoredKey struct {
	// where is the kind of mapping: "settings", "slot" or "flow".
	where, key string
	// instead says what to write in soni.
	instead string
}

// ignoredKeys lists the Python framework's ignored keys by where they stand.
var ignoredKeys = []ignoredKey{
	{"settings", "models", "soni's built-in understanding needs no model (docs/understanding.md)"},
	{"settings", "logging", "soni logs through its commands' flags (--trace, and serve's logs)"},
	{"slot", "prompt", "ask the question in the message of the collect step that fills the slot"},
	{"slot", "required", "a collect step asks until the slot holds a value; use max_attempts and on_invalid to stop asking"},
	{"slot", "validator", "put the validator on the collect step (validator: ...), or use the slot's validation expression"},
	{"slot", "validation_error_message", "write the slot's invalid_message, or the collect step's validation_error_message"},
	{"flow", "intent", "list the phrases that start the flow under trigger: intents"},
}

// dropIgnoredKeys removes the Python framework's ignored keys from a parsed
// file before the schema sees it, with a warning at each.
func dropIgnoredKeys(p *parsed, ds *diag.List) {
	top, ok := p.value.(map[string]any)
	if !ok {
		return
	}
	drop := func(m map[string]any, tokens []string, where, name string) {
		for _, ik := range ignoredKeys {
			if ik.where != where {
				continue
			}
			if _, ok := m[ik.key]; !ok {
				continue
			}
			_, w := yamlpos.Lookup(p.body, append(slices.Clone(tokens), ik.key))
			pos := yamlpos.NodePos(p.file.Path, w.Key)
			what := where
			if name != "" {
				what = fmt.Sprintf("%s %q", where, name)
			}
			ds.Add(pos, diag.CodeIgnoredKey, "", "key %q in %s is a Python Soni framework key that the framework ignores, and so does soni: %s", ik.key, what, ik.instead)
			delete(m, ik.key)
		}
	}
	if s, ok := top["settings"].(map[string]any); ok {
		drop(s, []string{"settings"}, "settings", "")
	}
	if slots, ok := top["slots"].(map[string]any); ok {
		for _, name := range slices.Sorted(maps.Keys(slots)) {
			if s, ok := slots[name].(map[string]any); ok {
				drop(s, []string{"slots", name}, "slot", name)
			}
		}
	}
	if flows, ok := top["flows"].(map[string]any); ok {
		for _, name := range slices.Sorted(maps.Keys(flows)) {
			if f, ok := flows[name].(map[string]any); ok {
				drop(f, []string{"flows", name}, "flow", name)
			}
		}
	}
}
