package soni_test

import (
	"context"
	"fmt"
	neturl "net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/checkpoints/postgres"
	"github.com/soni-dev/soni/checkpoints/sqlite"
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

// benchStores are the stores the length benchmark runs on: memory, file
// (fsync on), sqlite, and postgres when SONI_TEST_POSTGRES names one.
func benchStores(b *testing.B) map[string]func(b *testing.B) checkpoints.Store {
	stores := map[string]func(b *testing.B) checkpoints.Store{
		"memory": func(*testing.B) checkpoints.Store { return checkpoints.NewMemoryStore() },
		"file": func(b *testing.B) checkpoints.Store {
			s, err := checkpoints.NewFileStore(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			return s
		},
		"sqlite": func(b *testing.B) checkpoints.Store {
			s, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "soni.db"), sqlite.Options{})
			if err != nil {
				b.Fatal(err)
			}
			return s
		},
	}
	if url := os.Getenv("SONI_TEST_POSTGRES"); url != "" {
		stores["postgres"] = func(b *testing.B) checkpoints.Store {
			ctx := context.Background()
			schema := fmt.Sprintf("bench%d", time.Now().UnixNano())
			admin, err := pgxpool.New(ctx, url)
			if err != nil {
				b.Fatal(err)
			}
			defer admin.Close()
			if _, err := admin.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _, _ = admin.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE") })
			sep := "?"
			if strings.Contains(url, "?") {
				sep = "&"
			}
			s, err := postgres.Open(ctx, url+sep+"options="+neturl.QueryEscape("-csearch_path="+schema), postgres.Options{})
			if err != nil {
				b.Fatal(err)
			}
			return s
		}
	}
	return stores
}

// BenchmarkTurnAtLength measures a turn with a message id (the message id
// looked up, not found, and committed with the turn) on sessions already
// 10, 1,000 and 10,000 turns long, on every store: the per-turn cost must
// not grow with the session's length (issue 20, defect 6: on the file
// store it went from 2.7 to 43 ms over 3,000 turns). The sessions are
// filled by the same engine turns first; each then grows by the turns
// measured, so run it with a fixed count:
//
//	go test . -run '^$' -bench BenchmarkTurnAtLength -benchtime 200x
func BenchmarkTurnAtLength(b *testing.B) {
	ctx := context.Background()
	for _, name := range []string{"memory", "file", "sqlite", "postgres"} {
		open := benchStores(b)[name]
		if open == nil {
			continue
		}
		b.Run(name, func(b *testing.B) {
			store := open(b)
			defer store.Close()
			e := benchEngine(b, store)
			filled := map[int]int{}
			for _, length := range []int{10, 1000, 10000} {
				session := fmt.Sprintf("len%d", length)
				turn := func(i int) error {
					_, err := e.HandleMessage(ctx, session, fmt.Sprintf("m%d", i), conversationTurns[i%len(conversationTurns)])
					return err
				}
				for ; filled[length] < length; filled[length]++ {
					if err := turn(filled[length]); err != nil {
						b.Fatal(err)
					}
				}
				b.Run(fmt.Sprint(length), func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						if err := turn(filled[length]); err != nil {
							b.Fatal(err)
						}
						filled[length]++
					}
				})
			}
		})
	}
}
