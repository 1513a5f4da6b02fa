package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/actions"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/serve"
	"github.com/soni-dev/soni/serve/socketio"
	"github.com/soni-dev/soni/tracing"
	"github.com/soni-dev/soni/understand/llm"
	"github.com/urfave/cli/v2"
)

func serveCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "serve",
		Usage:     "serve the flows over HTTP: Rasa's REST channel and soni's JSON and streaming API",
		ArgsUsage: "PATH",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "addr", Value: "127.0.0.1:5005", Usage: "listen `ADDRESS` (host:port; port 0 picks a free one)"},
			&cli.BoolFlag{Name: "inspect", Usage: "also serve the web inspector at /inspect/ (docs/inspect.md)"},
			&cli.StringFlag{Name: "store", Usage: storeUsage},
			&cli.StringFlag{Name: "token", EnvVars: []string{"SONI_TOKEN"}, Usage: "require Authorization: Bearer `TOKEN` (also SONI_TOKEN)"},
			&cli.BoolFlag{Name: "insecure", Usage: "allow a non-loopback address without a token"},
			&cli.BoolFlag{Name: "allow-commands", Usage: "accept commands (which bypass understanding) on /v1 messages"},
			&cli.Int64Flag{Name: "max-body", Value: 64 << 10, Usage: "largest request body, in `BYTES`"},
			&cli.DurationFlag{Name: "turn-timeout", Value: 30 * time.Second, Usage: "longest turn"},
			&cli.DurationFlag{Name: "shutdown-timeout", Value: 30 * time.Second, Usage: "how long SIGTERM waits for turns in flight"},
			&cli.DurationFlag{Name: "read-header-timeout", Value: serve.DefaultReadHeaderTimeout, Usage: "longest wait for a request's headers"},
			&cli.DurationFlag{Name: "read-timeout", Value: serve.DefaultReadTimeout, Usage: "longest wait for a whole request, body included"},
			&cli.DurationFlag{Name: "write-timeout", Usage: "longest time from a request's headers to the end of its answer (default: --turn-timeout + 30s; streams have --stream-idle-timeout instead)"},
			&cli.DurationFlag{Name: "idle-timeout", Value: serve.DefaultIdleTimeout, Usage: "how long a keep-alive connection may wait for its next request"},
			&cli.DurationFlag{Name: "stream-idle-timeout", Value: serve.DefaultStreamIdleTimeout, Usage: "longest wait for a streaming client to take one frame"},
			&cli.IntFlag{Name: "max-header-bytes", Value: serve.DefaultMaxHeaderBytes, Usage: "largest request header, in `BYTES`"},
			&cli.StringSliceFlag{Name: "cors-origin", Usage: "let pages from `ORIGIN` (scheme://host[:port], or * for any) call the API from a browser; repeatable"},
			&cli.IntFlag{Name: "max-conns", Value: serve.DefaultMaxConns, Usage: "most open connections (16 more answer /healthz and /readyz only)"},
			&cli.BoolFlag{Name: "log-messages", Usage: "put the user's text and the replies in the log"},
		}, append(understandingFlags(), limitFlags()...)...),
		Action: func(c *cli.Context) error { return runServe(e, c, c.Bool("inspect")) },
	}
}

// inspectCommand is soni serve --inspect on a free loopback port, with the
// page's address printed.
func inspectCommand(e *env) *cli.Command {
	cmd := serveCommand(e)
	cmd.Name = "inspect"
	cmd.Usage = "talk to the flows in a browser and watch the graph, the stack and the slots (serve --inspect on a free loopback port)"
	flags := cmd.Flags[:0:0]
	for _, f := range cmd.Flags {
		switch f.Names()[0] {
		case "addr":
			f = &cli.StringFlag{Name: "addr", Value: "127.0.0.1:0", Usage: "listen `ADDRESS` (host:port; port 0 picks a free one)"}
		case "inspect":
			continue
		}
		flags = append(flags, f)
	}
	flags = append(flags, &cli.BoolFlag{Name: "open", Usage: "open the page in a browser ($BROWSER, else the system's)"})
	cmd.Flags = flags
	cmd.Action = func(c *cli.Context) error { return runServe(e, c, true) }
	return cmd
}

// runServe is soni serve, and soni inspect.
func runServe(e *env, c *cli.Context, inspect bool) error {
	path, err := oneProject(c)
	if err != nil {
		return err
	}
	addr := c.String("addr")
	token := c.String("token")
	if !loopback(addr) && token == "" && !c.Bool("insecure") {
		return usageError("serve: %q is reachable from other machines and no token is set: give --token (or SONI_TOKEN), listen on 127.0.0.1, or pass --insecure if a proxy in front of soni checks who may talk", addr)
	}
	for _, o := range c.StringSlice("cors-origin") {
		if err := serve.CheckOrigin(o); err != nil {
			return usageError("serve: --cors-origin %s", err)
		}
	}
	prog, err := loadProgram(e, c, path, true)
	if err != nil {
		return err
	}
	defaultDir := filepath.Join(".soni", "checkpoints", projectKey(path))
	store, err := openStore(c.String("store"), defaultDir, readWrite)
	if err != nil {
		return storeError("serve", c.String("store"), err)
	}
	defer store.Close()
	logger := slog.New(slog.NewJSONHandler(e.stderr, nil))
	// Traces, when the OTEL_* environment asks for them (docs/serve.md):
	// off, tr is nil and wraps nothing.
	tr, err := tracing.FromEnv(c.Context)
	if err != nil {
		return usageError("serve: %s", err)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := tr.Shutdown(ctx); err != nil {
			logger.Warn("traces not sent at exit", "error", err.Error())
		}
	}()
	var turns serve.TurnObserver
	if tr != nil {
		turns = tr
	}
	// reload is SIGHUP's and POST /v1/program/reload's, one at a time.
	var reload func(ctx context.Context) (*serve.Reloaded, error)
	var reloading sync.Mutex
	srv := serve.New(nil, serve.Options{
		Reload: func(ctx context.Context) (*serve.Reloaded, error) {
			reloading.Lock()
			defer reloading.Unlock()
			return reload(ctx)
		},
		Token: token, AllowCommands: c.Bool("allow-commands"), MaxBody: c.Int64("max-body"),
		TurnTimeout: c.Duration("turn-timeout"), Logger: logger, LogMessages: c.Bool("log-messages"),
		Inspect: inspect, Project: path,
		ReadHeaderTimeout: c.Duration("read-header-timeout"), ReadTimeout: c.Duration("read-timeout"),
		WriteTimeout: c.Duration("write-timeout"), IdleTimeout: c.Duration("idle-timeout"),
		StreamIdleTimeout: c.Duration("stream-idle-timeout"), MaxHeaderBytes: c.Int("max-header-bytes"),
		MaxConns: c.Int("max-conns"), CORSOrigins: c.StringSlice("cors-origin"),
		Turns: turns,
	})
	measured := tr.Store(srv.Metrics().Store(store))
	build := func(p *ir.Program) (*soni.Engine, error) {
		dir := soni.ProjectDir(path)
		u, err := understanderWith(c, p, dir, func(h llm.Health) {
			if h.Down {
				srv.Metrics().ModelOutage()
				logger.Warn("the model cannot be asked: until it answers, messages are understood by the rules alone (hybrid) or not at all (llm)", "endpoint", h.Endpoint, "error", h.Err)
				return
			}
			logger.Info("the model answers again", "endpoint", h.Endpoint)
		}, tr.Client(nil))
		if err != nil {
			return nil, err
		}
		return soni.New(p, soni.Options{Store: measured, Dir: dir, Understander: tr.Understander(u), Actions: tr.Actions(srv.Metrics().Actions(actions.New(p, dir, actions.Options{})))})
	}
	eng, err := build(prog)
	if _, usage := err.(cli.ExitCoder); usage {
		return err
	}
	if err != nil {
		return cli.Exit(fmt.Sprintf("serve: %s", err), exitFailed)
	}
	srv.SetEngine(eng)
	// Rasa's socket.io channel at /socket.io/, beside the REST one, for
	// the widgets that speak it (rasa-webchat).
	sockets := socketio.Mount(srv)
	// The sessions per version, for /metrics, as of the start; then the
	// version is saved for the other replicas.
	if rep, err := eng.CheckDeploy(c.Context); err == nil {
		srv.Metrics().SessionVersions(rep.Versions())
	}
	if err := eng.SaveVersion(c.Context); err != nil {
		logger.Warn("cannot save the program version; the first turn tries again", "error", err.Error())
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return cli.Exit(fmt.Sprintf("serve: cannot listen on %q: %s", addr, errText(err)), exitUsage)
	}
	fmt.Fprintf(e.stderr, "soni %s: %s on http://%s (store %s)\n", c.Command.Name, path, ln.Addr(), storeName(c.String("store"), defaultDir))
	if inspect {
		fmt.Fprintf(e.stdout, "inspector: http://%s/inspect/\n", ln.Addr())
		if c.Bool("open") {
			openBrowser(e, fmt.Sprintf("http://%s/inspect/", ln.Addr()))
		}
	}

	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	reload = func(ctx context.Context) (*serve.Reloaded, error) {
		p, err := soni.LoadProgram(path, compilerOptions(c))
		if err == nil {
			var ne *soni.Engine
			if ne, err = build(p); err == nil {
				return swapEngine(ctx, logger, srv, ne, path), nil
			}
		}
		logger.Error("reload failed: the old program stays", "error", err.Error())
		return nil, err
	}
	go func() {
		for range hup {
			reloading.Lock()
			_, _ = reload(context.Background())
			reloading.Unlock()
		}
	}()

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return cli.Exit(fmt.Sprintf("serve: %s", err), exitFailed)
	case <-c.Context.Done():
	}
	// SIGTERM or SIGINT: stop accepting, let turns in flight end, drop
	// the connections that run none.
	ctx, cancel := context.WithTimeout(context.Background(), c.Duration("shutdown-timeout"))
	defer cancel()
	sockets.Close() // its clients' polls would hold Shutdown up
	if err := srv.Shutdown(ctx); err != nil {
		logger.Warn("shutdown timeout passed with turns still running", "timeout", c.Duration("shutdown-timeout").String())
		return cli.Exit("", exitFailed)
	}
	logger.Info("stopped")
	return nil
}

// swapEngine makes a reloaded engine serve: it logs what the new version
// does with the live sessions (soni deploy check's summary), swaps it in,
// and saves its version in the store for the other replicas.
func swapEngine(ctx context.Context, logger *slog.Logger, srv *serve.Server, ne *soni.Engine, path string) *serve.Reloaded {
	res := &serve.Reloaded{Version: ne.Version()}
	if rep, err := ne.CheckDeploy(ctx); err != nil {
		logger.Warn("reload: cannot check the live sessions", "error", err.Error())
	} else {
		res.Summary = deploySummary(rep)
		logger.Info("deploy check", "version", ne.Version(), "policy", string(rep.Policy), "sessions", len(rep.Sessions), "summary", res.Summary)
		srv.Metrics().SessionVersions(rep.Versions())
	}
	srv.SetEngine(ne)
	if err := ne.SaveVersion(ctx); err != nil {
		logger.Warn("reload: cannot save the program version; the first turn tries again", "error", err.Error())
	}
	logger.Info("reloaded", "project", path, "version", ne.Version())
	return res
}

// loopback reports whether an address listens on the loopback interface
// only.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// storeName describes the store for the start line, without secrets: a
// file store by its directory, so that the operator knows where the
// conversations are.
func storeName(url, defaultDir string) string {
	if url == "" || url == "file:" || url == "file://" {
		return "file:" + filepath.ToSlash(defaultDir)
	}
	return redactURL(url)
}
