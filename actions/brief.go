package actions

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/soni-dev/soni/internal/text"
)

// briefLimit bounds a brief, in bytes.
const briefLimit = 120

// Brief shortens the message of an action failure (the Error of a
// vm.EventActionFailed, as this package words it) to its cause on one
// line, for a notice next to the conversation: "connection refused" for
// an endpoint nobody listens on, however often it was retried, "status 404
// Not Found: no flights from Nowhere" with the "error" an endpoint answered,
// and the first line of anything else, cut to about 120 bytes. The whole message
// stays in the trace and the event log.
func Brief(msg string) string {
	msg, _, _ = strings.Cut(strings.TrimSpace(msg), "\n")
	// A retried request: the last attempt tells the cause.
	if i := strings.LastIndex(msg, "; attempt "); i >= 0 {
		msg = msg[i+2:]
	} else if _, rest, ok := strings.Cut(msg, " times: attempt "); ok && strings.HasPrefix(msg, "POST ") {
		msg = "attempt " + rest
	}
	if rest, ok := strings.CutPrefix(msg, "attempt "); ok {
		if _, after, ok := strings.Cut(rest, ": "); ok {
			msg = after
		}
	}
	if rest, ok := strings.CutPrefix(msg, "POST "); ok {
		if _, after, ok := strings.Cut(rest, ": "); ok {
			msg = after
		}
	}
	if rest, ok := strings.CutPrefix(msg, "connection failed: "); ok {
		// dial tcp 127.0.0.1:5055: connect: connection refused
		msg = rest[strings.LastIndex(rest, ": ")+1:]
		msg = strings.TrimSpace(msg)
	}
	if strings.HasPrefix(msg, "status ") {
		if status, body, ok := strings.Cut(msg, ": "); ok {
			msg = status
			if e := answeredError(body); e != "" {
				msg += ": " + e
			}
		}
	}
	return text.Clip(msg, briefLimit)
}

// answeredError is the "error" of a quoted JSON body, or "".
func answeredError(quoted string) string {
	body, err := strconv.Unquote(quoted)
	if err != nil {
		return ""
	}
	var v struct {
		Error string `json:"error"`
	}
	if json.Unmarshal([]byte(body), &v) != nil {
		return ""
	}
	return v.Error
}
