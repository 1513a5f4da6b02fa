// Command faketravel serves the fake travel API that the travel example's
// actions call (see package faketravel), so that `soni chat flows/travel`
// can book flights and hotels on a machine with nothing else installed:
//
//	go run ./flows/travel/faketravel/cmd/faketravel            # listens on 127.0.0.1:5081
//	go run ./flows/travel/faketravel/cmd/faketravel -addr 127.0.0.1:8080
//
// flows/travel calls ${TRAVEL_API_URL:-http://127.0.0.1:5081}; set
// TRAVEL_API_URL when it listens elsewhere. It prints its URL on stdout
// once it listens (with -addr 127.0.0.1:0 it picks a free port: the
// travel example's conversation tests start it so, as a service), and
// stops on Ctrl-C.
package main

import (
	"flag"

	"github.com/soni-dev/soni/flows/travel/faketravel"
	"github.com/soni-dev/soni/internal/fakeapi"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:5081", "`host:port` to listen on")
	flag.Parse()
	fakeapi.Main("travel API", *addr, faketravel.New())
}
