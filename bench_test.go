package soni_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/vm"
)

// benchEngine loads testdata/book_flight with a Go search_flights action.
func benchEngine(b *testing.B, store checkpoints.Store) *soni.Engine {
	b.Helper()
	e, err := soni.Load("testdata/book_flight/flow.yaml", soni.Options{Store: store})
	if err != nil {
		b.Fatal(err)
	}
	e.Register("search_flights", func(ctx context.Context, req vm.ActionRequest) (map[string]any, error) {
		return map[string]any{"price": int64(100 + len(fmt.Sprint(req.Inputs["origin"], req.Inputs["destination"])))}, nil
	})
	return e
}

// conversationTurns is the four-turn book_flight conversation.
var conversationTurns = []vm.Input{
	{Commands: []vm.Command{{Kind: vm.CmdStartFlow, Flow: "book_flight"}}},
	{Commands: []vm.Command{{Kind: vm.CmdSetSlot, Slot: "origin", Value: "Madrid"}}},
	{Commands: []vm.Command{{Kind: vm.CmdSetSlot, Slot: "destination", Value: "Lisbon"}}},
	{Commands: []vm.Command{{Kind: vm.CmdSetSlot, Slot: "date", Value: "2027-03-05"}}},
}

func benchConversations(b *testing.B, e *soni.Engine) {
	ctx := context.Background()
	durations := make([]time.Duration, 0, 4*b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		session := fmt.Sprintf("s%d", i)
		for _, in := range conversationTurns {
			start := time.Now()
			if _, err := e.Handle(ctx, session, in); err != nil {
				b.Fatal(err)
			}
			durations = append(durations, time.Since(start))
		}
	}
	b.StopTimer()
	slices.Sort(durations)
	b.ReportMetric(float64(durations[len(durations)/2].Nanoseconds()), "median-ns/turn")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(4*b.N), "ns/turn")
}

// BenchmarkTurnFileStore runs the book_flight conversation through the
// Engine with the real FileStore, fsync on: every turn loads the
// checkpoint file, decodes it, runs the turn, encodes it and saves it
// atomically (temporary file, fsync, rename, directory fsync) under the
// compare-and-swap lock.
func BenchmarkTurnFileStore(b *testing.B) {
	store, err := checkpoints.NewFileStore(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	benchConversations(b, benchEngine(b, store))
}

// BenchmarkTurnMemoryStore is the same conversation on the memory store,
// for comparison in the same run.
func BenchmarkTurnMemoryStore(b *testing.B) {
	benchConversations(b, benchEngine(b, checkpoints.NewMemoryStore()))
}
