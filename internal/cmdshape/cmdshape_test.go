package cmdshape

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/vm"
)

// TestChitchatKinds: chitchat is written bare or with its kind of small
// talk, {"chitchat": "thanks"}; Format writes it back the same way; a kind
// soni does not know, or a kind that is no string, is a clear error.
func TestChitchatKinds(t *testing.T) {
	prog := &ir.Program{}
	cmds, err := Parse(prog, []any{"chitchat", map[string]any{"chitchat": "thanks"}})
	require.NoError(t, err)
	assert.Equal(t, []vm.Command{{Kind: vm.CmdChitchat}, {Kind: vm.CmdChitchat, SmallTalk: ir.SmallTalkThanks}}, cmds)
	assert.Equal(t, []any{"chitchat", map[string]any{"chitchat": "thanks"}}, Format(cmds))

	for _, tc := range []struct {
		arg  any
		want string
	}{
		{"weather", `command 1: chitchat: unknown kind of small talk "weather": use goodbye, thanks, wait, greet, ack`},
		{3.0, "command 1: chitchat takes a kind of small talk (goodbye, thanks, wait, greet, ack), not a JSON number"},
	} {
		_, err := Parse(prog, []any{map[string]any{"chitchat": tc.arg}})
		assert.EqualError(t, err, tc.want)
	}
}
