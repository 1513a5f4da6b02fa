package checkpoints

import (
	"context"
	"time"
)

// Observer is told of every operation of an observed store: its name
// ("begin", "lookup", "commit", "load", "log", "list", "delete", "prune",
// "ping"), how long it took, and its error (nil on success).
type Observer func(op string, d time.Duration, err error)

// Observe wraps a store so that every operation of it and of its
// transactions is timed and reported to obs: metrics, tracing and any
// other decorator wrap the whole [Store] and [Tx] interfaces here, in one
// place. Close is passed through unobserved.
func Observe(s Store, obs Observer) Store {
	return &observed{s: s, obs: obs}
}

type observed struct {
	s   Store
	obs Observer
}

type observedTx struct {
	tx  Tx
	obs Observer
}

func (o *observed) Begin(ctx context.Context, id string) (Tx, error) {
	start := time.Now()
	tx, err := o.s.Begin(ctx, id)
	o.obs("begin", time.Since(start), err)
	if err != nil {
		return nil, err
	}
	return &observedTx{tx: tx, obs: o.obs}, nil
}

func (o *observed) Load(ctx context.Context, id string) ([]byte, uint64, error) {
	start := time.Now()
	b, rev, err := o.s.Load(ctx, id)
	o.obs("load", time.Since(start), err)
	return b, rev, err
}

func (o *observed) Log(ctx context.Context, id string, after uint64, limit int) ([]Record, error) {
	start := time.Now()
	recs, err := o.s.Log(ctx, id, after, limit)
	o.obs("log", time.Since(start), err)
	return recs, err
}

func (o *observed) List(ctx context.Context, after string, limit int) ([]SessionInfo, error) {
	start := time.Now()
	infos, err := o.s.List(ctx, after, limit)
	o.obs("list", time.Since(start), err)
	return infos, err
}

func (o *observed) Delete(ctx context.Context, id string) error {
	start := time.Now()
	err := o.s.Delete(ctx, id)
	o.obs("delete", time.Since(start), err)
	return err
}

func (o *observed) Prune(ctx context.Context, before time.Time) (int, error) {
	start := time.Now()
	n, err := o.s.Prune(ctx, before)
	o.obs("prune", time.Since(start), err)
	return n, err
}

func (o *observed) Ping(ctx context.Context) error {
	start := time.Now()
	err := o.s.Ping(ctx)
	o.obs("ping", time.Since(start), err)
	return err
}

func (o *observed) Close() error { return o.s.Close() }

func (t *observedTx) Checkpoint() ([]byte, uint64) { return t.tx.Checkpoint() }

func (t *observedTx) Lookup(ctx context.Context, key string) (Record, bool, error) {
	start := time.Now()
	rec, ok, err := t.tx.Lookup(ctx, key)
	t.obs("lookup", time.Since(start), err)
	return rec, ok, err
}

func (t *observedTx) Commit(ctx context.Context, rec Record, data []byte) error {
	start := time.Now()
	err := t.tx.Commit(ctx, rec, data)
	t.obs("commit", time.Since(start), err)
	return err
}

func (t *observedTx) Close() { t.tx.Close() }
