package syntax

import "sync"

// parallelMin is the length from which a list's items (a large test
// file's cases) are converted and decoded on every core: 2,000 cases
// took about 25 ms of one core's time to decode (docs/performance.md),
// while the other core waited.
const parallelMin = 256

// inParallel calls do(i) for every i in [0, n), on up to workers
// goroutines when n is at least parallelMin, each taking runs of
// consecutive items, and returns when all are done. do must only write
// what belongs to its i: the results are the same as a loop's.
func inParallel(workers, n int, do func(i int)) {
	if n < parallelMin {
		workers = 1
	}
	// Runs of 32 items, claimed in turn, so a slow run does not hold
	// back a whole half.
	spread(workers, n, 32, do)
}

// spread calls do(i) for every i in [0, n) on up to workers goroutines,
// each claiming the next run of items in turn, and returns when all are
// done.
func spread(workers, n, run int, do func(i int)) {
	if workers < 2 || n <= run {
		for i := range n {
			do(i)
		}
		return
	}
	var mu sync.Mutex
	next := 0
	var wg sync.WaitGroup
	for range min(workers, (n+run-1)/run) {
		wg.Go(func() {
			for {
				mu.Lock()
				lo := next
				next += run
				mu.Unlock()
				if lo >= n {
					return
				}
				for i := lo; i < min(lo+run, n); i++ {
					do(i)
				}
			}
		})
	}
	wg.Wait()
}
