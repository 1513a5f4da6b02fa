package understand

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/soni-dev/soni/ir"
)

// TestSmallTalkKind: the kind of small talk a message is, which a model's
// bare chitchat gets from the message; "" for anything else.
func TestSmallTalkKind(t *testing.T) {
	t.Parallel()
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

// TestAskingForAMoment: a request for a moment in the words people use
// ("hang on a sec", "give me a minute", "let me check", "dame un
// minuto") is small talk that waits, at a free-text question too, where
// it would otherwise be stored as the answer; a request that follows
// "let me" is not.
func TestAskingForAMoment(t *testing.T) {
	t.Parallel()
	atDescription := []string{"open a ticket", "billing"}
	var cases []gcase
	for _, msg := range []string{"hang on a sec", "hold on a second", "give me a minute", "gimme 2 mins",
		"wait a min", "just one sec", "let me check", "let me think", "hmm let me see", "brb",
		"dame un minuto", "espera un segundo", "momento", "déjame ver", "one moment please, let me check"} {
		cases = append(cases, gcase{msg, atDescription, msg, "chitchat (wait)", false})
	}
	cases = append(cases,
		gcase{"a request after let me", nil, "let me check my ticket", "start_flow check_ticket_status", false},
		gcase{"a description that starts like it", atDescription, "hang on a sec page never loads", "set_slot description=hang on a sec page never loads", false})
	runGeneral(t, "support", cases)
	runGeneral(t, "banking", []gcase{
		{"at a number question", []string{"send money", "Ana"}, "hang on a sec", "chitchat (wait)", false},
		{"minutes are no amount", []string{"send money", "Ana"}, "give me 5 minutes", "chitchat (wait)", false},
	})
}
