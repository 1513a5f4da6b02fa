package actions_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/actions"
	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/internal/actionservertest"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// trackerProject: order collects a flow slot colour, says something, runs
// note_order, then calls size_check, whose action check_stock reads the
// caller's colour, as a Rasa action would (Rasa's slots are global).
const trackerProject = `version: "1.0"
actions:
  note_order:
    run:
      rasa: {url: "%[1]s"}
  check_stock:
    outputs: [in_stock]
    run:
      rasa: {url: "%[1]s"}
flows:
  order:
    trigger:
      intents: ["order a shirt"]
    slots:
      - {name: colour, type: text}
    steps:
      - {step: ask_colour, type: collect, slot: colour, message: "Which colour?"}
      - {step: noted, type: say, message: "Noted."}
      - {step: note, type: action, call: note_order}
      - {step: size, type: call, target: size_check}
      - {step: done, type: say, message: "Done."}
  size_check:
    slots:
      - {name: size, type: text}
      - {name: in_stock, type: boolean}
    steps:
      - {step: ask_size, type: collect, slot: size, message: "Which size?"}
      - step: stock
        type: action
        call: check_stock
        map_outputs: {in_stock: in_stock}
`

// serveRasa starts a fake action server of acts and writes project (a
// format with %[1]s for the server's URL) into a new directory, which it
// returns with the server.
func serveRasa(t *testing.T, project string, acts map[string]actionservertest.Action) (*actionservertest.Server, string) {
	t.Helper()
	fake := actionservertest.New(acts)
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bot.yaml"), []byte(fmt.Sprintf(project, srv.URL)), 0o644))
	return fake, dir
}

// TestRasaTrackerAsRasaShowsIt: a called flow's action sees its caller's
// slots; the events are in the order they happened, with an action event
// for each action run; latest_message carries the commands the message
// was understood as.
func TestRasaTrackerAsRasaShowsIt(t *testing.T) {
	fake, dir := serveRasa(t, trackerProject, map[string]actionservertest.Action{
		"note_order": func(actionservertest.Request) (actionservertest.Answer, error) {
			return actionservertest.Answer{}, nil
		},
		"check_stock": func(actionservertest.Request) (actionservertest.Answer, error) {
			return actionservertest.Answer{Events: []map[string]any{actionservertest.SlotSet("in_stock", true)}}, nil
		},
	})
	eng, err := soni.Load(dir, soni.Options{})
	require.NoError(t, err)
	for _, m := range []string{"order a shirt", "red", "XL"} {
		_, err := eng.Handle(context.Background(), "s1", vm.Input{Text: m})
		require.NoError(t, err, m)
	}
	reqs := fake.Requests()
	require.Len(t, reqs, 2)

	note := reqs[0]
	assert.Equal(t, "note_order", note.NextAction)
	assert.Equal(t, []string{
		"user: order a shirt",
		"bot: Which colour?",
		"user: red",
		"slot: colour=red",
		"bot: Noted.",
	}, describeEvents(note.Tracker.Events), "the turn's events in order: the message, the slot it set, the reply said before the action")
	assert.Equal(t, []any{map[string]any{"command": "set slot", "name": "colour", "value": "red"}}, note.Tracker.LatestMessage["commands"])
	assert.Equal(t, map[string]any{"name": nil, "confidence": 0.0}, note.Tracker.LatestMessage["intent"])

	stock := reqs[1]
	assert.Equal(t, "check_stock", stock.NextAction)
	assert.Equal(t, "red", stock.Tracker.Slot("colour"), "a called flow's action sees its caller's slots")
	assert.Equal(t, "XL", stock.Tracker.Slot("size"))
	assert.Contains(t, stock.Tracker.Slots, "in_stock", "every slot, null when unset")
	var actionsRun []any
	for _, e := range stock.Tracker.Events {
		if e["event"] == "action" {
			actionsRun = append(actionsRun, e["name"])
		}
	}
	assert.Empty(t, actionsRun, "note_order ran in an earlier turn, whose events the history does not keep")
}

// TestRasaTrackerActionEvents: an action run earlier in the same turn is
// an action event, in its place among the turn's slot events and replies.
func TestRasaTrackerActionEvents(t *testing.T) {
	fake, dir := serveRasa(t, `version: "1.0"
actions:
  note_order:
    outputs: [ticket]
    run:
      rasa: {url: "%[1]s"}
  check_stock:
    run:
      rasa: {url: "%[1]s"}
flows:
  order:
    trigger:
      intents: ["order a shirt"]
    slots:
      - {name: colour, type: text}
      - {name: ticket, type: text}
    steps:
      - {step: ask_colour, type: collect, slot: colour, message: "Which colour?"}
      - {step: note, type: action, call: note_order, map_outputs: {ticket: ticket}}
      - {step: said, type: say, message: "Ticket {ticket}."}
      - {step: stock, type: action, call: check_stock}
`, map[string]actionservertest.Action{
		"note_order": func(actionservertest.Request) (actionservertest.Answer, error) {
			return actionservertest.Answer{Events: []map[string]any{actionservertest.SlotSet("ticket", "T1")}}, nil
		},
		"check_stock": func(actionservertest.Request) (actionservertest.Answer, error) {
			return actionservertest.Answer{}, nil
		},
	})
	eng, err := soni.Load(dir, soni.Options{})
	require.NoError(t, err)
	for _, m := range []string{"order a shirt", "red"} {
		_, err := eng.Handle(context.Background(), "s2", vm.Input{Text: m})
		require.NoError(t, err)
	}
	reqs := fake.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, "check_stock", reqs[1].NextAction)
	assert.Equal(t, []string{
		"user: order a shirt", "bot: Which colour?", "user: red",
		"slot: colour=red", "action: note_order", "slot: ticket=T1", "bot: Ticket T1.",
	}, describeEvents(reqs[1].Tracker.Events))
}

// describeEvents writes tracker events in a line each.
func describeEvents(events []map[string]any) []string {
	var out []string
	for _, e := range events {
		switch e["event"] {
		case "user", "bot":
			out = append(out, fmt.Sprintf("%s: %v", e["event"], e["text"]))
		case "slot":
			out = append(out, fmt.Sprintf("slot: %v=%v", e["name"], e["value"]))
		default:
			out = append(out, fmt.Sprintf("%s: %v", e["event"], e["name"]))
		}
	}
	return out
}

// TestRasaSenderSuffix: the runner adds its suffix to the sender_id the
// action server sees.
func TestRasaSenderSuffix(t *testing.T) {
	fake, dir := serveRasa(t, trackerProject, map[string]actionservertest.Action{
		"note_order": func(actionservertest.Request) (actionservertest.Answer, error) { return actionservertest.Answer{}, nil },
	})
	prog, err := soni.LoadProgram(dir, compiler.Options{})
	require.NoError(t, err)
	r := actions.New(prog, dir, actions.Options{RasaSenderSuffix: "-run42"})
	_, err = r.RunAction(context.Background(), vm.ActionRequest{Action: "note_order", Session: "alice"})
	require.NoError(t, err)
	reqs := fake.Requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, "alice-run42", reqs[0].SenderID)
	assert.Equal(t, "alice-run42", reqs[0].Tracker.SenderID)
}

// TestRasaOutputOfTheWrongType: a Rasa action that sets a text into a
// boolean or number slot does not fail the action or cancel the flow, as
// Rasa would not: the boolean takes the text's truth, the number keeps its
// value, and the turn warns of each.
func TestRasaOutputOfTheWrongType(t *testing.T) {
	_, dir := serveRasa(t, `version: "1.0"
slots:
  available: {type: boolean}
  urgent: {type: boolean}
  price: {type: number, initial: 10}
actions:
  check:
    outputs: [available, price, urgent]
    run:
      rasa: {url: "%[1]s"}
flows:
  ask:
    trigger:
      intents: ["is it available"]
    steps:
      - {step: check, type: action, call: check, map_outputs: {available: available, price: price, urgent: urgent}}
      - step: answer
        type: branch
        evaluate: "available and not urgent"
        cases: {"true": yes}
      - {step: no, type: say, message: "No.", jump_to: __end__}
      - {step: yes, type: say, message: "Yes, for {price}."}
`, map[string]actionservertest.Action{
		"check": func(actionservertest.Request) (actionservertest.Answer, error) {
			return actionservertest.Answer{Events: []map[string]any{
				actionservertest.SlotSet("available", "available today"),
				actionservertest.SlotSet("price", "n/a"),
				actionservertest.SlotSet("urgent", "false"),
			}}, nil
		},
	})
	eng, err := soni.Load(dir, soni.Options{})
	require.NoError(t, err)
	rep, err := eng.Handle(context.Background(), "s", vm.Input{Text: "is it available"})
	require.NoError(t, err)
	assert.Equal(t, []string{"Yes, for 10."}, rep.Replies)
	assert.Empty(t, eventsOf(rep, vm.EventActionFailed))
	assert.Equal(t, []string{
		`action "check" set the boolean slot "available" to "available today", which is no boolean: soni stores true, the truth Rasa's conditions read in it`,
		`action "check" set the number slot "price" to "n/a", which it cannot hold: the slot keeps its value (Rasa would store the text as it is)`,
	}, rep.Warnings)
}
