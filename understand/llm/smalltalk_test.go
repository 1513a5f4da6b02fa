package llm

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/understand/llm/replay"
	"github.com/soni-dev/soni/vm"
)

// TestModelChitchatGetsItsKindFromTheMessage: the grammar's chitchat says
// no kind; the message says which small talk it is, so that
// pattern_chitchat answers "thanks!" with "you're welcome"; small talk the
// rules do not know stays without a kind (a neutral answer).
func TestModelChitchatGetsItsKindFromTheMessage(t *testing.T) {
	prog := banking(t)
	m, err := vm.New(prog, vm.Options{})
	require.NoError(t, err)
	fake := &replay.Server{Respond: func(replay.Request, int) (int, string) { return 200, answer("chitchat", "stop") }}
	ts := httptest.NewServer(fake)
	t.Cleanup(ts.Close)
	model, err := New(Config{BaseURL: ts.URL + "/v1", Model: "m"})
	require.NoError(t, err)
	for _, tc := range []struct{ msg, kind string }{
		{"thanks!", ir.SmallTalkThanks},
		{"byeee, have a good one", ""},
		{"bye", ir.SmallTalkGoodbye},
		{"un momento", ir.SmallTalkWait},
		{"what a lovely day", ""},
	} {
		var notes []string
		cmds, err := model.Understand(context.Background(), tc.msg, view(m, m.NewState("s"), &notes))
		require.NoError(t, err)
		assert.Equal(t, []vm.Command{{Kind: vm.CmdChitchat, SmallTalk: tc.kind}}, cmds, "%q", tc.msg)
	}
}
