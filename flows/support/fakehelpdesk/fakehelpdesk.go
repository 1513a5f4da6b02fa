// Package fakehelpdesk is a fake help-desk API for the support example
// (flows/support): an http.Handler that answers the soni action protocol
// for the actions create_ticket and get_ticket_status.
//
// Each action is an endpoint, POST /<action>, that takes the request soni
// sends, {"action": ..., "session": ..., "inputs": {...}}, and answers with
// a JSON object of outputs (status 200), or with {"error": "..."} and a
// 4xx status for a request it cannot serve.
//
// The desk starts with three tickets, T-10001 (waiting for you), T-10002
// (open) and T-10003 (solved), and keeps the tickets it opens in memory
// for as long as it runs. A new ticket's number is derived from the
// request, so the same problem reported the same way gets the same number
// and conversations are reproducible. A ticket the desk does not know is
// an answer, {"found": false}, not a failure: the flows tell it apart
// from a desk that is down.
//
// An urgent ticket also pages the engineer on call, and the desk says so
// itself: its answer carries a message for the bot to say,
// {"ticket_id": ..., "messages": [{"text": ...}]} (docs/actions.md,
// "Actions that speak").
//
// Tests start it with net/http/httptest; users start it by hand with
// `go run ./flows/support/fakehelpdesk/cmd/fakehelpdesk`.
package fakehelpdesk

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/soni-dev/soni/internal/fakeapi"
)

var ticketID = regexp.MustCompile(`^T-[0-9]{5}$`)

// The values the actions take (flows/support).
var (
	categories = []string{"billing", "technical", "account", "other"}
	priorities = []string{"low", "normal", "high", "urgent"}
	tiers      = []string{"standard", "premium"}
)

// PagedMessage is what the desk says when it opens an urgent ticket,
// for which it pages the engineer on call.
const PagedMessage = "Because it's urgent, I've also paged the engineer on call."

// ticket is what the desk knows of a ticket.
type ticket struct {
	status    string
	updatedOn string
}

// Desk is the fake help desk. Its zero value is not usable: use New.
type Desk struct {
	today func() time.Time
	mu    sync.Mutex
	// tickets are the known tickets by number.
	tickets map[string]ticket
}

// New returns a desk with the three starting tickets. today dates the
// tickets it opens; nil means the real clock.
func New(today func() time.Time) *Desk {
	if today == nil {
		today = time.Now
	}
	return &Desk{today: today, tickets: map[string]ticket{
		"T-10001": {"waiting for you", "2026-03-02"},
		"T-10002": {"open", "2026-03-09"},
		"T-10003": {"solved", "2026-02-20"},
	}}
}

// Handler returns the desk's HTTP handler.
func (d *Desk) Handler() http.Handler {
	return fakeapi.Handler(map[string]fakeapi.Action{
		"create_ticket":     d.createTicket,
		"get_ticket_status": d.ticketStatus,
	})
}

// text returns a string input.
func text(in map[string]any, name string) (string, error) {
	s, ok := in[name].(string)
	if !ok || strings.TrimSpace(s) == "" {
		return "", fakeapi.BadInput("input %q is missing or not a string", name)
	}
	return strings.TrimSpace(s), nil
}

// oneOf returns a string input that must be one of values.
func oneOf(in map[string]any, name string, values []string) (string, error) {
	s, err := text(in, name)
	if err != nil {
		return "", err
	}
	for _, v := range values {
		if s == v {
			return s, nil
		}
	}
	return "", fakeapi.BadInput("input %q must be one of %s, not %q", name, strings.Join(values, ", "), s)
}

func (d *Desk) createTicket(in map[string]any) (map[string]any, error) {
	category, err := oneOf(in, "category", categories)
	if err != nil {
		return nil, err
	}
	desc, err := text(in, "description")
	if err != nil {
		return nil, err
	}
	priority, err := oneOf(in, "priority", priorities)
	if err != nil {
		return nil, err
	}
	tier := "standard"
	if _, ok := in["customer_tier"]; ok {
		if tier, err = oneOf(in, "customer_tier", tiers); err != nil {
			return nil, err
		}
	}
	sum := sha256.Sum256([]byte(strings.Join([]string{category, strings.ToLower(desc), priority, tier}, "\x00")))
	// New tickets are T-20000 to T-99999, apart from the starting ones.
	id := fmt.Sprintf("T-%05d", 20000+binary.BigEndian.Uint64(sum[:8])%80000)
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.tickets[id]; !ok {
		d.tickets[id] = ticket{"open", d.today().Format(time.DateOnly)}
	}
	out := map[string]any{"ticket_id": id}
	if priority == "urgent" {
		out["messages"] = []any{map[string]any{"text": PagedMessage}}
	}
	return out, nil
}

func (d *Desk) ticketStatus(in map[string]any) (map[string]any, error) {
	id, err := text(in, "ticket_id")
	if err != nil {
		return nil, err
	}
	if !ticketID.MatchString(id) {
		return nil, fakeapi.BadInput("input %q must look like T-12345, not %q", "ticket_id", id)
	}
	d.mu.Lock()
	t, ok := d.tickets[id]
	d.mu.Unlock()
	if !ok {
		return map[string]any{"found": false, "status": nil, "updated_on": nil}, nil
	}
	return map[string]any{"found": true, "status": t.status, "updated_on": t.updatedOn}, nil
}
