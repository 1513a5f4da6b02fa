// Package faketravel is a fake travel API for the travel example
// (flows/travel): an http.Handler that answers the soni action protocol
// for the actions search_flights, reserve_flight and reserve_hotel.
//
// Each action is an endpoint, POST /<action>, that takes the request soni
// sends, {"action": ..., "session": ..., "inputs": {...}}, and answers with
// a JSON object of outputs (status 200), or with {"error": "..."} and a
// 4xx status for a request it cannot serve. The answers are derived from
// the inputs only, so conversations are reproducible: the same trip always
// gets the same flight, fare and references.
//
// Finding nothing is an answer, not a failure, as in real search APIs:
// there are no flights to or from a city called "Nowhere", and no rooms
// in it, and search_flights answers {"found": false} and reserve_hotel
// {"booked": false} (the other outputs null). So the flows tell "nothing
// found" (a branch) apart from "the service is down" (on_error).
//
// reserve_flight also speaks: its answer carries the airline's note on
// check-in, {"booking_reference": ..., "messages": [{"text": ...}]}, which
// the bot says at the booking step.
//
// Tests start it with net/http/httptest; users start it by hand with
// `go run ./flows/travel/faketravel/cmd/faketravel`.
package faketravel

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"net/http"
	"net/mail"
	"regexp"
	"strings"
	"time"

	"github.com/soni-dev/soni/internal/fakeapi"
)

// farePerPassenger is the base one-way fare of each cabin, in EUR.
var farePerPassenger = map[string]float64{"economy": 120, "premium_economy": 240, "business": 680, "first": 1450}

// nightlyRate is the price of one night in each kind of room, in EUR.
var nightlyRate = map[string]float64{"single": 90, "double": 130, "suite": 310}

// hotels are the names the fake API picks from for a city.
var hotels = []string{"Hotel Central", "Grand Plaza", "Riverside Inn", "The Old Mill", "Parkview Suites"}

var flightID = regexp.MustCompile(`^[A-Z]{2}[0-9]{4}$`)

// New returns the fake API's handler.
func New() http.Handler {
	return fakeapi.Handler(map[string]fakeapi.Action{
		"search_flights": func(in map[string]any) (map[string]any, error) { return searchFlights(in) },
		"reserve_flight": func(in map[string]any) (map[string]any, error) { return reserveFlight(in) },
		"reserve_hotel":  func(in map[string]any) (map[string]any, error) { return reserveHotel(in) },
	})
}

// inputs are the action's inputs, with typed accessors that report what is
// missing or wrong.
type inputs map[string]any

func (in inputs) text(name string) (string, error) {
	s, _ := in[name].(string)
	s = strings.TrimSpace(s)
	if s == "" {
		return "", fakeapi.BadInput("input %q must be a non-empty string", name)
	}
	return s, nil
}

func (in inputs) count(name string, lo, hi int) (int, error) {
	f, ok := in[name].(float64)
	if !ok || f != math.Trunc(f) || f < float64(lo) || f > float64(hi) {
		return 0, fakeapi.BadInput("input %q must be a whole number from %d to %d", name, lo, hi)
	}
	return int(f), nil
}

func (in inputs) date(name string) (string, error) {
	s, err := in.text(name)
	if err != nil {
		return "", err
	}
	if _, err := time.Parse("2006-01-02", s); err != nil {
		return "", fakeapi.BadInput("input %q must be a date like 2026-07-14, not %q", name, s)
	}
	return s, nil
}

func (in inputs) oneOf(name string, values map[string]float64) (string, error) {
	s, _ := in[name].(string)
	if _, ok := values[s]; !ok {
		return "", fakeapi.BadInput("input %q has the unknown value %q", name, s)
	}
	return s, nil
}

func (in inputs) traveller() (string, string, error) {
	name, err := in.text("traveller_name")
	if err != nil {
		return "", "", err
	}
	email, err := in.text("traveller_email")
	if err != nil {
		return "", "", err
	}
	if _, err := mail.ParseAddress(email); err != nil {
		return "", "", fakeapi.BadInput("input %q is not an e-mail address: %q", "traveller_email", email)
	}
	return name, email, nil
}

func searchFlights(in inputs) (map[string]any, error) {
	origin, err := in.text("origin")
	if err != nil {
		return nil, err
	}
	dest, err := in.text("destination")
	if err != nil {
		return nil, err
	}
	date, err := in.date("departure_date")
	if err != nil {
		return nil, err
	}
	cabin, err := in.oneOf("cabin", farePerPassenger)
	if err != nil {
		return nil, err
	}
	pax, err := in.count("passengers", 1, 9)
	if err != nil {
		return nil, err
	}
	if nowhere(origin) || nowhere(dest) || strings.EqualFold(origin, dest) {
		return map[string]any{"found": false, "flight_id": nil, "fare": nil, "currency": nil}, nil
	}
	h := hash("flight", strings.ToLower(origin), strings.ToLower(dest), date)
	id := fmt.Sprintf("%c%c%04d", 'A'+h%26, 'A'+(h/26)%26, (h/676)%10000)
	// Prices vary by route and day, by up to 30%, rounded to whole euros.
	fare := math.Round(farePerPassenger[cabin]*(1+float64(h%31)/100)) * float64(pax)
	return map[string]any{"found": true, "flight_id": id, "fare": fare, "currency": "EUR"}, nil
}

func reserveFlight(in inputs) (map[string]any, error) {
	id, err := in.text("flight_id")
	if err != nil {
		return nil, err
	}
	if !flightID.MatchString(id) {
		return nil, fakeapi.BadInput("input %q is not a flight id from search_flights: %q", "flight_id", id)
	}
	pax, err := in.count("passengers", 1, 9)
	if err != nil {
		return nil, err
	}
	name, email, err := in.traveller()
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"booking_reference": reference(hash("booking", id, fmt.Sprint(pax), name, email)),
		"messages":          []any{map[string]any{"text": checkInNote(id)}},
	}, nil
}

// checkInNote is the airline's note that reserve_flight's answer carries
// for the bot to say (docs/actions.md, "Actions that speak").
func checkInNote(flightID string) string {
	return "The airline has confirmed your seats on flight " + flightID + ". Online check-in opens 24 hours before departure."
}

func reserveHotel(in inputs) (map[string]any, error) {
	city, err := in.text("city")
	if err != nil {
		return nil, err
	}
	checkIn, err := in.date("check_in")
	if err != nil {
		return nil, err
	}
	nights, err := in.count("nights", 1, 30)
	if err != nil {
		return nil, err
	}
	room, err := in.oneOf("room", nightlyRate)
	if err != nil {
		return nil, err
	}
	name, email, err := in.traveller()
	if err != nil {
		return nil, err
	}
	if nowhere(city) {
		return map[string]any{"booked": false, "hotel_name": nil, "total_price": nil, "currency": nil, "reference": nil}, nil
	}
	hotel := hotels[hash("hotel", strings.ToLower(city))%uint64(len(hotels))]
	return map[string]any{
		"booked":      true,
		"hotel_name":  hotel + " " + city,
		"total_price": nightlyRate[room] * float64(nights),
		"currency":    "EUR",
		"reference":   "H-" + reference(hash("stay", city, checkIn, fmt.Sprint(nights), room, name, email)),
	}, nil
}

// nowhere reports whether a city is the one the fake API never serves.
func nowhere(city string) bool { return strings.EqualFold(city, "nowhere") }

// hash derives a number from parts: the same parts always give the same
// number.
func hash(parts ...string) uint64 {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return binary.BigEndian.Uint64(sum[:8])
}

// reference writes h as six characters from an alphabet without
// look-alikes (no 0/O, 1/I).
func reference(h uint64) string {
	const alphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
	b := make([]byte, 6)
	for i := range b {
		b[i] = alphabet[h%uint64(len(alphabet))]
		h /= uint64(len(alphabet))
	}
	return string(b)
}
