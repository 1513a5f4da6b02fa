package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"

	"github.com/stretchr/testify/assert"
)

// gcSettings reads the collector's GOGC percent (-1 when off) and memory
// limit without changing them.
func gcSettings() (percent, limit int64) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64()), int64(s[1].Value.Uint64()) // off reads as -1
}

// TestBatchGC: soni test collects nothing until the heap reaches 256 MiB,
// then at GOGC 400 within 1 GiB; GOGC and GOMEMLIMIT win.
func TestBatchGC(t *testing.T) {
	prevPercent := debug.SetGCPercent(100)
	prevLimit := debug.SetMemoryLimit(-1)
	t.Cleanup(func() {
		debug.SetGCPercent(prevPercent)
		debug.SetMemoryLimit(prevLimit)
	})
	// set starts a case: the environment soni started with and the
	// limit the runtime read from it, then batchGC.
	set := func(t *testing.T, gogc, gomemlimit string, startLimit int64) {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(startLimit)
		t.Setenv("GOGC", gogc)
		t.Setenv("GOMEMLIMIT", gomemlimit)
		batchGC()
	}
	for _, c := range []struct {
		name, gogc, gomemlimit string
		startLimit             int64
		percent, limit         int64
	}{
		{"GOGC set", "100", "", prevLimit, 100, 1 << 30},
		{"GOMEMLIMIT below the first collection", "", "100MiB", 100 << 20, -1, 100 << 20},
	} {
		t.Run(c.name, func(t *testing.T) {
			set(t, c.gogc, c.gomemlimit, c.startLimit)
			percent, limit := gcSettings()
			assert.Equal(t, c.percent, percent)
			assert.Equal(t, c.limit, limit)
		})
	}
	// A switch left pending by an earlier call (a soni test run earlier
	// in this process, whose heap never reached firstGC) does not change
	// a later call's settings when a collection finally runs it. Before,
	// go test -count=2 ./cmd/soni failed here with GOGC 400 and 1 GiB.
	t.Run("an earlier call's switch", func(t *testing.T) {
		set(t, "", "", prevLimit)
		earlier := batchGen.Load()
		set(t, "", "100MiB", 100<<20)
		afterFirstGC(earlier, 1<<30)
		percent, limit := gcSettings()
		assert.Equal(t, int64(-1), percent)
		assert.Equal(t, int64(100<<20), limit)
	})
	t.Run("default", func(t *testing.T) {
		set(t, "", "", prevLimit)
		percent, limit := gcSettings()
		assert.Equal(t, int64(-1), percent)
		assert.Equal(t, int64(firstGC), limit)
		// After the first collection, the collector runs at GOGC 400
		// within 1 GiB. The switch is a cleanup, which runs on its own
		// goroutine after the collection.
		runtime.GC()
		for i := 0; i < 1_000_000; i++ {
			if percent, limit = gcSettings(); percent == 400 && limit == 1<<30 {
				break
			}
			runtime.Gosched()
		}
		percent, limit = gcSettings()
		assert.Equal(t, int64(400), percent)
		assert.Equal(t, int64(1<<30), limit)
	})
}
