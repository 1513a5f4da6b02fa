//go:build unix

package checkpoints

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"
)

// benchPayload returns a checkpoint of about size bytes at revision rev,
// reusing buf.
func benchPayload(buf []byte, rev uint64, filler []byte) []byte {
	buf = append(buf[:0], `{"format":"soni.checkpoint/v1","revision":`...)
	buf = strconv.AppendUint(buf, rev, 10)
	buf = append(buf, `,"history":"`...)
	buf = append(buf, filler...)
	return append(buf, `"}`...)
}

// benchmarkCommit commits revision after revision of one session, a 4 KiB
// checkpoint each, one transaction each.
func benchmarkCommit(b *testing.B, s Store) {
	ctx := context.Background()
	filler := bytes.Repeat([]byte("x"), 4<<10)
	rec := []byte(`{"user":"hi"}`)
	var buf []byte
	b.SetBytes(4 << 10)
	b.ReportAllocs()
	for b.Loop() {
		tx, err := s.Begin(ctx, "bench")
		if err != nil {
			b.Fatal(err)
		}
		_, rev := tx.Checkpoint()
		buf = benchPayload(buf, rev+1, filler)
		if err := tx.Commit(ctx, Record{Revision: rev + 1, Data: rec}, buf); err != nil {
			b.Fatal(err)
		}
		tx.Close()
	}
}

// BenchmarkFileStoreCommit measures a transaction that commits a 4 KiB
// checkpoint and its record, with and without fsync.
func BenchmarkFileStoreCommit(b *testing.B) {
	for _, tc := range []struct {
		name string
		opts []Option
	}{
		{"sync", nil},
		{"nosync", []Option{WithoutSync()}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			s, err := NewFileStore(b.TempDir(), tc.opts...)
			if err != nil {
				b.Fatal(err)
			}
			benchmarkCommit(b, s)
		})
	}
}

// BenchmarkMemoryStoreCommit is the same transaction in memory.
func BenchmarkMemoryStoreCommit(b *testing.B) {
	benchmarkCommit(b, NewMemoryStore())
}

// fillSessions commits one turn of n sessions.
func fillSessions(b *testing.B, s Store, n int, prefix string) {
	ctx := context.Background()
	for i := range n {
		if err := turn(ctx, s, fmt.Sprintf("%s%06d", prefix, i), 0, "k", ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFileStoreDelete deletes one session from a directory of 1,000,
// 10,000 and 50,000: the cost must not grow with the directory (issue 20,
// defect 5: a delete read the whole directory, 359 ms at 50,000).
//
//	go test ./checkpoints -run '^$' -bench BenchmarkFileStoreDelete -benchtime 200x
func BenchmarkFileStoreDelete(b *testing.B) {
	for _, n := range []int{1000, 10000, 50000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			s, err := NewFileStore(b.TempDir(), WithoutSync())
			if err != nil {
				b.Fatal(err)
			}
			fillSessions(b, s, n+b.N, "s")
			ctx := context.Background()
			i := 0
			b.ResetTimer()
			for range b.N {
				if err := s.Delete(ctx, fmt.Sprintf("s%06d", i)); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkFileStorePrune prunes directories of 1,000, 2,000 and 4,000
// sessions: the time per session must not grow with their number (issue
// 20, defect 5: 2.6, 9.2 and 34.4 s, quadratic).
//
//	go test ./checkpoints -run '^$' -bench BenchmarkFileStorePrune -benchtime 3x
func BenchmarkFileStorePrune(b *testing.B) {
	for _, n := range []int{1000, 2000, 4000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ctx := context.Background()
			for range b.N {
				b.StopTimer()
				s, err := NewFileStore(b.TempDir(), WithoutSync())
				if err != nil {
					b.Fatal(err)
				}
				fillSessions(b, s, n, "s")
				b.StartTimer()
				pruned, err := s.Prune(ctx, time.Now().Add(time.Hour))
				if err != nil || pruned != n {
					b.Fatal(pruned, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/session")
		})
	}
}
