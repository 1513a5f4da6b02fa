package convtest

import (
	"context"
	"os"

	"github.com/soni-dev/soni/convtest/internal/services"
)

// startServices starts the services of the files that have cases to run,
// file by file in path order, and gives each such file an action runner
// whose environment holds the services' URLs. A service that does not
// start fails the cases of its file. The returned function stops every
// service started.
func (s *Suite) startServices(ctx context.Context, jobs []job) (stop func()) {
	var started []*services.Service
	stop = func() {
		for _, sv := range started {
			sv.Stop()
		}
	}
	if s.opts.Actions == nil {
		return stop
	}
	runs := map[int]bool{}
	for _, j := range jobs {
		runs[j.file] = true
	}
	for fi, t := range s.Files {
		t.fallback, t.serviceErr = nil, nil
		if !runs[fi] || len(t.File.Services) == 0 {
			continue
		}
		urls := map[string]string{}
		for _, spec := range t.File.Services {
			sv, err := services.Start(ctx, t.Project.Dir, services.Spec{Env: spec.Env, Command: spec.Command}, 0)
			if err != nil {
				t.serviceErr = err
				break
			}
			started = append(started, sv)
			urls[spec.Env] = sv.URL
		}
		if t.serviceErr != nil {
			continue
		}
		lookup := func(k string) (string, bool) {
			if v, ok := urls[k]; ok {
				return v, true
			}
			return os.LookupEnv(k)
		}
		t.fallback = s.opts.Actions(t.Project.Program, t.Project.Dir, lookup)
	}
	return stop
}
