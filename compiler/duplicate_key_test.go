package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

// TestDuplicateKeyMessage: a repeated key says where the first one is and
// what to do, for a step field and for a flow defined twice in one file.
func TestDuplicateKeyMessage(t *testing.T) {
	t.Parallel()
	src := `flows:
  a:
    trigger: {intents: [go]}
    steps:
      - step: s
        type: say
        message: hi
        message: hello
  a:
    steps: [{step: s, type: say, message: hi}]
`
	assert.Equal(t, []string{
		`8:9 key "message" is already defined at 7:9: remove or rename one of the two, as YAML keeps only one`,
		`9:3 key "a" is already defined at 2:3: remove or rename one of the two, as YAML keeps only one`,
	}, codeDiags(t, src, diag.CodeDuplicateKey))
}
