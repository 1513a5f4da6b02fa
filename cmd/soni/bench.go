package main

import (
	"context"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/actions"
	"github.com/soni-dev/soni/cmd/soni/internal/loadgen"
	"github.com/soni-dev/soni/serve"
	"github.com/soni-dev/soni/understand"
	"github.com/urfave/cli/v2"
)

func benchCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "bench",
		Usage:     "measure turns/s and latency over loopback HTTP: soni serve on a store, or any server with the same endpoint",
		ArgsUsage: "[PATH]",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "url", Usage: "load this server (POST URL/v1/sessions/ID/messages) instead of serving PATH"},
			&cli.StringFlag{Name: "store", Value: "memory:", Usage: storeUsage},
			&cli.IntFlag{Name: "conversations", Value: 16, Usage: "conversations in flight"},
			&cli.DurationFlag{Name: "duration", Value: 10 * time.Second, Usage: "how long to send"},
			&cli.StringFlag{Name: "script", Value: "book a flight|Paris|Berlin|2026-03-01", Usage: "the messages of one conversation, separated by |"},
			&cli.StringFlag{Name: "expect", Value: "Found a flight", Usage: "text the last reply of a conversation must contain"},
		}, limitFlags()...),
		Action: func(c *cli.Context) error {
			url := c.String("url")
			if url == "" {
				path, err := oneProject(c)
				if err != nil {
					return err
				}
				prog, err := loadProgram(e, c, path, false)
				if err != nil {
					return err
				}
				store, err := openStore(c.String("store"), defaultCheckpoints(path), readWrite)
				if err != nil {
					return storeError("bench", c.String("store"), err)
				}
				defer store.Close()
				srv := serve.New(nil, serve.Options{})
				dir := soni.ProjectDir(path)
				// The rules understand the benchmark's messages, whatever
				// the project's understanding settings.
				eng, err := soni.New(prog, soni.Options{Store: srv.Metrics().Store(store), Dir: dir, Understander: understand.New(prog),
					Actions: srv.Metrics().Actions(actions.New(prog, dir, actions.Options{}))})
				if err != nil {
					return cli.Exit(fmt.Sprintf("bench: %s", err), exitFailed)
				}
				srv.SetEngine(eng)
				ln, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					return cli.Exit(fmt.Sprintf("bench: %s", err), exitFailed)
				}
				go func() { _ = srv.Serve(ln) }()
				defer func() {
					ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
					defer cancel()
					_ = srv.Shutdown(ctx)
				}()
				url = "http://" + ln.Addr().String()
			}
			r := loadgen.Run(c.Context, loadgen.Options{
				URL: strings.TrimSuffix(url, "/"), Conversations: c.Int("conversations"), Duration: c.Duration("duration"),
				Script: strings.Split(c.String("script"), "|"), Expect: c.String("expect"),
			})
			fmt.Fprintln(e.stdout, r)
			if r.Errors > 0 {
				return cli.Exit(fmt.Sprintf("bench: %d conversations failed; the first: %s", r.Errors, r.FirstError), exitFailed)
			}
			return nil
		},
	}
}
