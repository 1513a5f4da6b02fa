package understand

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConcurrentReadsShareFacts: the facts a Rules works out of its
// program when a message first needs them (facts.go) are shared by
// concurrent turns, as soni serve reads them; every reading is the one
// a Rules of its own gives (run with -race).
func TestConcurrentReadsShareFacts(t *testing.T) {
	t.Parallel()
	res := compiler.Compile("../flows/banking", compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	p := res.Program
	at := func(stack []string, pending *vm.Pending) vm.View {
		v := view(stack, pending, nil)
		v.Program = p
		return v
	}
	views := []vm.View{
		at(nil, nil),
		at([]string{"transfer_funds"}, &vm.Pending{Kind: vm.PendingCollect, Flow: "transfer_funds", Step: "ask_recipient", Slot: "recipient"}),
		at([]string{"check_balance"}, &vm.Pending{Kind: vm.PendingCollect, Flow: "check_balance", Step: "ask_account", Slot: "account_type"}),
	}
	msgs := []string{"hello", "bye", "what can you do", "can I talk to a person", "is this a bot?", "send 50 to Ana", "actually the recipient is Bob", "change the account to savings", "savings"}
	type key struct{ msg, view int }
	want := map[key]Reading{}
	for i, m := range msgs {
		for j, v := range views {
			rd, err := New(p).Read(context.Background(), m, v)
			require.NoError(t, err)
			want[key{i, j}] = rd
		}
	}
	shared := New(p)
	var wg sync.WaitGroup
	got := make([]map[key]Reading, 8)
	for g := range got {
		got[g] = map[key]Reading{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range msgs {
				// Each goroutine reads in another order.
				i = (i + g) % len(msgs)
				for j, v := range views {
					rd, err := shared.Read(context.Background(), msgs[i], v)
					if err == nil {
						got[g][key{i, j}] = rd
					}
				}
			}
		}()
	}
	wg.Wait()
	for g := range got {
		assert.Equal(t, want, got[g], "goroutine %d", g)
	}
}

// TestTextMemoIsBounded: the rules keep the text readings of at most
// maxTexts short messages, none of a long one, and a message read from
// the memo reads as it did the first time.
func TestTextMemoIsBounded(t *testing.T) {
	t.Parallel()
	r := New(testProgram())
	ctx := context.Background()
	first, err := r.Read(ctx, "book a business class flight", idle)
	require.NoError(t, err)
	for i := range maxTexts + 10 {
		_, err := r.Read(ctx, fmt.Sprintf("send %d to Ana", i), askAmount)
		require.NoError(t, err)
		r.facts.texts.mu.RLock()
		n := len(r.facts.texts.texts)
		r.facts.texts.mu.RUnlock()
		require.LessOrEqual(t, n, maxTexts)
	}
	long := strings.Repeat("a", maxTextLen+1)
	_, err = r.Read(ctx, long, idle)
	require.NoError(t, err)
	assert.NotContains(t, r.facts.texts.texts, long)
	for range 2 {
		again, err := r.Read(ctx, "book a business class flight", idle)
		require.NoError(t, err)
		assert.Equal(t, first, again)
	}
}
