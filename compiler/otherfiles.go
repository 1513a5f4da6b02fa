package compiler

import (
	"bytes"
	"regexp"
	"strings"
	"sync"
)

// A project's tree may hold YAML files that are not flow files: the
// conversation tests of soni test (top-level test_cases) and the eval
// files of soni eval (top-level eval_cases). Compiling a directory, the
// split of a directory of projects and soni test's search for a test
// file's project all leave them out (language.md §2). Neither key is one
// of the language, so no flow file is taken for one of them.
var (
	otherFileKeys = []string{"test_cases", "eval_cases"}
	otherFileRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^["']?(?:test_cases|eval_cases)["']?[ \t]*:`) })
	evalFileRE    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^["']?eval_cases["']?[ \t]*:`) })
)

// IsEvalFile reports whether YAML source is an eval file (soni eval): a
// line at the top level is the key eval_cases.
func IsEvalFile(src []byte) bool {
	return bytes.Contains(src, []byte("eval_cases")) && evalFileRE().Match(src)
}

// isOtherFile reports whether a parsed document is a conversation test
// or an eval file, not a flow file.
func isOtherFile(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for _, k := range otherFileKeys {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// stubbedActions returns the actions a conversation-test file stubs: the
// keys of its stub_custom_actions, ACTION or CASE::ACTION.
func stubbedActions(v any) []string {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	if _, ok := m["test_cases"]; !ok {
		return nil
	}
	stubs, _ := m["stub_custom_actions"].(map[string]any)
	var out []string
	for k := range stubs {
		if i := strings.LastIndex(k, "::"); i >= 0 {
			k = k[i+2:]
		}
		out = append(out, k)
	}
	return out
}
