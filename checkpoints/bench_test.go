//go:build unix

package checkpoints

import (
	"bytes"
	"context"
	"strconv"
	"testing"
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

// benchmarkSave saves revision after revision of one session.
func benchmarkSave(b *testing.B, s Store, size int) {
	ctx := context.Background()
	filler := bytes.Repeat([]byte("x"), size)
	var buf []byte
	b.SetBytes(int64(size))
	b.ReportAllocs()
	var rev uint64
	for b.Loop() {
		buf = benchPayload(buf, rev+1, filler)
		if err := s.Save(ctx, "bench", rev, buf); err != nil {
			b.Fatal(err)
		}
		rev++
	}
}

// BenchmarkFileStoreSave measures a compare-and-swap save of a 4 KiB
// checkpoint, with and without fsync.
func BenchmarkFileStoreSave(b *testing.B) {
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
			benchmarkSave(b, s, 4<<10)
		})
	}
}

// BenchmarkMemoryStoreSave measures a save of a 4 KiB checkpoint in memory.
func BenchmarkMemoryStoreSave(b *testing.B) {
	benchmarkSave(b, NewMemoryStore(), 4<<10)
}

// BenchmarkFileStoreLoad measures loading a 4 KiB checkpoint.
func BenchmarkFileStoreLoad(b *testing.B) {
	ctx := context.Background()
	s, err := NewFileStore(b.TempDir(), WithoutSync())
	if err != nil {
		b.Fatal(err)
	}
	data := benchPayload(nil, 1, bytes.Repeat([]byte("x"), 4<<10))
	if err := s.Save(ctx, "bench", 0, data); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := s.Load(ctx, "bench"); err != nil {
			b.Fatal(err)
		}
	}
}
