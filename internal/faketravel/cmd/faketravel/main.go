// Command faketravel serves the fake travel API that the travel example's
// actions call (see package faketravel), so that `soni chat flows/travel`
// can book flights and hotels on a machine with nothing else installed:
//
//	go run ./internal/faketravel/cmd/faketravel            # listens on 127.0.0.1:5055
//	go run ./internal/faketravel/cmd/faketravel -addr 127.0.0.1:8080
//
// flows/travel calls ${TRAVEL_API_URL:-http://127.0.0.1:5055}; set
// TRAVEL_API_URL when it listens elsewhere. It stops on Ctrl-C.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/soni-dev/soni/internal/faketravel"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:5055", "`host:port` to listen on")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := serve(ctx, *addr, func(a net.Addr) {
		fmt.Fprintf(os.Stderr, "fake travel API on http://%s (Ctrl-C stops it)\n", a)
	}); err != nil {
		log.Fatalf("faketravel: %v", err)
	}
}

// serve listens on addr and serves the fake API until ctx ends.
func serve(ctx context.Context, addr string, ready func(net.Addr)) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: faketravel.New(), ReadHeaderTimeout: 10 * time.Second}
	ready(l.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(l) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutCtx); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
