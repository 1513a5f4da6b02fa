package main

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBankingFlowsRunThisProgram talks to flows/banking as soni chat does:
// every action runs this program through the `go run` declared in
// domain.yaml, in the project directory.
func TestBankingFlowsRunThisProgram(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go tool is not in PATH")
	}
	tests := []struct {
		name string
		msgs []string
		want string
		// wantFailure is in the action_failed event of the last message.
		wantFailure string
	}{
		{name: "balance", msgs: []string{"check my balance", "savings"}, want: "Your savings balance is 8200 EUR."},
		{name: "small transfer", msgs: []string{"send money", "Ana", "50", "checking", "yes"}, want: "Done! I've sent 50 to Ana. The reference is TR-"},
		{
			name: "wrong code", msgs: []string{"send money", "Ana", "5000", "savings", "yes", "000000"},
			want:        "I couldn't verify the code, so I haven't sent any money. Please start again when you have a new code.",
			wantFailure: `command "go" failed: exit status 1; stderr: "bank: verify_code: the code is wrong or has expired`,
		},
		{
			// The flow checks the balance with get_balance before it asks
			// for confirmation, so make_transfer is never asked for more
			// than the account holds.
			name: "insufficient funds", msgs: []string{"send money", "Ana", "9000", "savings"},
			want: "You only have 8200 in your savings account, so I can't send 9000.",
		},
		{name: "block and replace", msgs: []string{"block my card", "4821", "yes", "yes", "express", "yes"}, want: "Your new card is on its way and should arrive within 2 working days."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, err := soni.Load("../..", soni.Options{})
			require.NoError(t, err)
			var rep *soni.Reply
			for _, m := range tc.msgs {
				rep, err = e.Handle(context.Background(), "t", vm.Input{Text: m})
				require.NoError(t, err, m)
			}
			require.NotEmpty(t, rep.Replies)
			// The flow's last message; pattern_completed may add its own.
			found := false
			for _, r := range rep.Replies {
				found = found || strings.HasPrefix(r, tc.want)
			}
			assert.True(t, found, "got %q\ntrace:\n%s", rep.Replies, strings.Join(rep.Trace, "\n"))
			var failures []string
			for _, ev := range rep.Events {
				if ev.Type == vm.EventActionFailed {
					failures = append(failures, ev.Error)
				}
			}
			if tc.wantFailure == "" {
				assert.Empty(t, failures)
				return
			}
			require.Len(t, failures, 1)
			assert.Contains(t, failures[0], tc.wantFailure)
		})
	}
}
