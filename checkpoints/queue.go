package checkpoints

import (
	"context"
	"fmt"
	"hash/maphash"
	"sync"
)

// DefaultMaxWaiting is how many turns of one session may wait for its lock
// in one process, besides the one holding it, unless a store is told
// otherwise. The next one gets [ErrBusy].
const DefaultMaxWaiting = 32

// Queue is the first half of every store's session lock: it serialises the
// transactions of each session within the process, and bounds how many
// wait. Only the holder of a session's place goes on to take the lock that
// holds across processes (a flock, an advisory lock on a database
// connection), so a hot session holds at most one file or connection of
// this process however many of its turns wait: waiting costs a goroutine,
// never a pool connection. Stores of other packages use it.
type Queue struct {
	maxWaiting int
	seed       maphash.Seed
	// The sessions are spread over shards by a hash of their ids, each
	// with a lock of its own, so that turns of different sessions on
	// different processors seldom take the same lock (four times a turn).
	shards [queueShards]queueShard
	waited func(id string, waiting int) // see OnWait
}

// queueShards is how many shards a queue has.
const queueShards = 32

// queueShard is a share of a queue's sessions, under its own lock. It is
// padded to a cache line of its own.
type queueShard struct {
	mu       sync.Mutex
	sessions map[string]*queueSlot
	_        [48]byte // to 64 bytes, a cache line
}

// shard is the shard that holds the session id.
func (q *Queue) shard(id string) *queueShard {
	return &q.shards[maphash.String(q.seed, id)%queueShards]
}

// queueSlot is one session's place: a one-slot channel, so that a waiter
// can give up when its context ends, and how many hold or wait for it.
type queueSlot struct {
	ch chan struct{}
	n  int
}

var slotPool = sync.Pool{New: func() any { return &queueSlot{ch: make(chan struct{}, 1)} }}

// NewQueue returns a queue in which at most maxWaiting turns of a session
// wait besides the holder; 0 or less means [DefaultMaxWaiting].
func NewQueue(maxWaiting int) *Queue {
	if maxWaiting <= 0 {
		maxWaiting = DefaultMaxWaiting
	}
	q := &Queue{maxWaiting: maxWaiting, seed: maphash.MakeSeed()}
	for i := range q.shards {
		q.shards[i].sessions = map[string]*queueSlot{}
	}
	return q
}

// Ticket is a held place; Release gives it up.
type Ticket struct {
	q    *Queue
	id   string
	slot *queueSlot
}

// Acquire waits for the session's place. It fails with an error matching
// [ErrBusy] at once when maxWaiting turns already wait, and with ctx.Err()
// when the context ends first.
func (q *Queue) Acquire(ctx context.Context, id string) (Ticket, error) {
	sh := q.shard(id)
	sh.mu.Lock()
	s := sh.sessions[id]
	if s == nil {
		s = slotPool.Get().(*queueSlot)
		sh.sessions[id] = s
	} else if s.n > q.maxWaiting {
		n := s.n - 1
		sh.mu.Unlock()
		return Ticket{}, fmt.Errorf("%w: session %q already has %d turns waiting in this process (the limit); send the message again later", ErrBusy, id, n)
	}
	s.n++
	waiting := s.n - 1
	sh.mu.Unlock()
	if q.waited != nil && waiting > 0 {
		q.waited(id, waiting)
	}
	select {
	case s.ch <- struct{}{}:
		return Ticket{q: q, id: id, slot: s}, nil
	case <-ctx.Done():
		q.leave(id, s)
		return Ticket{}, ctx.Err()
	}
}

// Release gives the place to the next waiter. A zero Ticket, or one
// released already, does nothing.
func (t *Ticket) Release() {
	if t.slot == nil {
		return
	}
	<-t.slot.ch
	t.q.leave(t.id, t.slot)
	t.slot = nil
}

func (q *Queue) leave(id string, s *queueSlot) {
	sh := q.shard(id)
	sh.mu.Lock()
	if s.n--; s.n == 0 {
		delete(sh.sessions, id)
		slotPool.Put(s) // empty: nobody holds or waits for it
	}
	sh.mu.Unlock()
}

// Waiting returns how many transactions wait for the session's place
// besides the one holding it.
func (q *Queue) Waiting(id string) int {
	sh := q.shard(id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if s := sh.sessions[id]; s != nil && s.n > 1 {
		return s.n - 1
	}
	return 0
}

// OnWait makes f be called each time a transaction joins the turns
// waiting for a session's place, with how many then wait (as Waiting
// counts them), on the waiter's goroutine before it blocks. It is for
// tests, which learn from it that turns are queued in the process; call
// it before the queue is used.
func (q *Queue) OnWait(f func(id string, waiting int)) { q.waited = f }

// Held reports whether a transaction holds or waits for the session's
// place (an evicting store leaves such sessions alone).
func (q *Queue) Held(id string) bool {
	sh := q.shard(id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return sh.sessions[id] != nil
}
