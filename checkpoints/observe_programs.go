package checkpoints

import (
	"context"
	"time"
)

// The program methods of an observed store are reported as
// "save_program", "load_program", "programs" and "delete_program".

func (o *observed) SaveProgram(ctx context.Context, version string, data []byte) (time.Time, error) {
	start := time.Now()
	saved, err := o.s.SaveProgram(ctx, version, data)
	o.obs("save_program", time.Since(start), err)
	return saved, err
}

func (o *observed) LoadProgram(ctx context.Context, version string) ([]byte, time.Time, error) {
	start := time.Now()
	b, saved, err := o.s.LoadProgram(ctx, version)
	o.obs("load_program", time.Since(start), err)
	return b, saved, err
}

func (o *observed) Programs(ctx context.Context) ([]ProgramInfo, error) {
	start := time.Now()
	ps, err := o.s.Programs(ctx)
	o.obs("programs", time.Since(start), err)
	return ps, err
}

func (o *observed) DeleteProgram(ctx context.Context, version string) error {
	start := time.Now()
	err := o.s.DeleteProgram(ctx, version)
	o.obs("delete_program", time.Since(start), err)
	return err
}
