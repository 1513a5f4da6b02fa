package understand

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/soni-dev/soni/ir"
)

// TestSmallTalkKind: the kind of small talk a message is, which a model's
// bare chitchat gets from the message; "" for anything else.
func TestSmallTalkKind(t *testing.T) {
	for _, tc := range []struct{ msg, want string }{
		{"hi", ir.SmallTalkGreet},
		{"Good evening!", ir.SmallTalkGreet},
		{"hola, qué tal", ir.SmallTalkGreet},
		{"thanks!", ir.SmallTalkThanks},
		{"thx", ir.SmallTalkThanks},
		{"Muchas gracias", ir.SmallTalkThanks},
		{"bye", ir.SmallTalkGoodbye},
		{"thanks, bye", ir.SmallTalkGoodbye},
		{"that's all", ir.SmallTalkGoodbye},
		{"adiós", ir.SmallTalkGoodbye},
		{"one moment", ir.SmallTalkWait},
		{"hang on please", ir.SmallTalkWait},
		{"un momento", ir.SmallTalkWait},
		{"👍", ir.SmallTalkAck},
		{"cool", ir.SmallTalkAck},
		{"👎", ""},
		{"tell me a joke", ""},
		{"what can you do?", ""},
		{"send money to Ana", ""},
		{"", ""},
	} {
		assert.Equal(t, tc.want, SmallTalkKind(tc.msg), "%q", tc.msg)
	}
}
