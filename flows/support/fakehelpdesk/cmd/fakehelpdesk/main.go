// Command fakehelpdesk serves the fake help-desk API that the support
// example's actions call (see package fakehelpdesk), so that
// `soni chat flows/support` can open and look up tickets on a machine with
// nothing else installed:
//
//	go run ./flows/support/fakehelpdesk/cmd/fakehelpdesk            # listens on 127.0.0.1:5082
//	go run ./flows/support/fakehelpdesk/cmd/fakehelpdesk -addr 127.0.0.1:8080
//
// flows/support calls ${HELPDESK_API_URL:-http://127.0.0.1:5082}; set
// HELPDESK_API_URL when it listens elsewhere. It prints its URL on stdout
// once it listens (with -addr 127.0.0.1:0 it picks a free port: the
// support example's conversation tests start it so, as a service, with
// -today fixed), and stops on Ctrl-C.
package main

import (
	"flag"
	"fmt"
	"log"
	"time"

	"github.com/soni-dev/soni/flows/support/fakehelpdesk"
	"github.com/soni-dev/soni/internal/fakeapi"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:5082", "`host:port` to listen on")
	today := flag.String("today", "", "the `date` (YYYY-MM-DD) new tickets are opened on; default the real date")
	flag.Parse()
	clock, err := clockOf(*today)
	if err != nil {
		log.Fatalf("fakehelpdesk: %v", err)
	}
	fakeapi.Main("help desk", *addr, fakehelpdesk.New(clock).Handler())
}

// clockOf returns the clock of -today: nil (the real one) for "".
func clockOf(today string) (func() time.Time, error) {
	if today == "" {
		return nil, nil
	}
	t, err := time.Parse(time.DateOnly, today)
	if err != nil {
		return nil, fmt.Errorf("-today %q is not a date like 2026-03-15", today)
	}
	return func() time.Time { return t }, nil
}
