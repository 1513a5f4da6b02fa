package codec

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/internal/irtest"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/vm"
)

// fixtureDir holds the frozen checkpoint fixtures of format v1.
const fixtureDir = "../testdata/checkpoints/v1"

// fixtureProgram is the program the frozen fixtures in
// testdata/checkpoints/v1 were written for. Never change it: the fixtures
// must keep loading against it forever. (A change to the IR encoding may
// change its fingerprint; the fixtures must then still load, with a note.)
func fixtureProgram() *ir.Program {
	return program(
		[]*ir.Slot{
			{Name: "age", Type: ir.TypeInteger},
			{Name: "prefs", Type: ir.TypeAny},
			{Name: "score", Type: ir.TypeNumber},
			{Name: "user_name", Type: ir.TypeText},
			{Name: "vip", Type: ir.TypeBoolean},
		},
		[]*ir.Action{{Name: "send_money", Inputs: []string{"amount", "to"}, Outputs: []string{"ok"}}},
		flow("details", []*ir.Slot{{Name: "note", Type: ir.TypeAny}, {Name: "qty", Type: ir.TypeInteger}},
			collect("ask_qty", "qty", "How many {item}?"),
			collect("ask_note", "note", "Any note?"),
		),
		flow("main", []*ir.Slot{{Name: "item", Type: ir.TypeAny}},
			say("greet", "Hello {user_name}"),
			collect("ask_item", "item", "What would you like?"),
			call("call_details", "details"),
			confirm("confirm_item", "item", ""),
			say("done", "Done."),
		),
		flow("transfer", []*ir.Slot{{Name: "amount", Type: ir.TypeNumber}, {Name: "to", Type: ir.TypeAny}},
			collect("ask_amount", "amount", "How much?"),
			confirm("confirm_amount", "amount", "Send {amount} to {to}?"),
			action("send", "send_money", "ok", "ok"),
		),
	)
}

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureDir, name))
	require.NoError(t, err)
	return b
}

func TestCheckpointFixturesKeepLoading(t *testing.T) {
	m := newMachine(t, fixtureProgram(), vm.Options{})
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		file    string
		stack   []string
		slots   map[string]any
		pending *vm.Pending
		history int
		// then is one more turn on the loaded state and its replies.
		then    []vm.Command
		replies []string
	}{
		{
			file:    "empty.json",
			slots:   map[string]any{},
			then:    []vm.Command{start("main")},
			replies: []string{"Hello ", "What would you like?"},
		},
		{
			file:  "mid_collect.json",
			stack: []string{"main.call_details", "details.ask_qty"},
			slots: map[string]any{"age": int64(42), "score": 4.5, "vip": true, "user_name": "Ana",
				"prefs": map[string]any{"lang": "es", "tags": []any{"a", "b"}, "ratio": 0.25, "count": int64(3), "none": nil}},
			pending: &vm.Pending{Kind: vm.PendingCollect, Flow: "details", Step: "ask_qty", Slot: "qty", Prompt: "How many book?", Attempts: 1},
			history: 4,
			then:    []vm.Command{fallback},
			replies: []string{"Sorry, I didn't understand that.", "How many ?"},
		},
		{
			file:    "pending_confirm.json",
			stack:   []string{"transfer.confirm_amount"},
			slots:   map[string]any{"user_name": "Eva \"E\" Ñ\n"},
			pending: &vm.Pending{Kind: vm.PendingConfirm, Flow: "transfer", Step: "confirm_amount", Slot: "amount", Prompt: "Send 50 to Eva?"},
			history: 2,
			then:    []vm.Command{correct("to", "Bo")},
			replies: []string{"Send 50 to Bo?"},
		},
		{
			// A flow that read vip at ask_item, when it held true, and
			// waits for the flow it called: vip is false now, so when the
			// call ends the change is a correction, and the flow goes back
			// to ask_item (skipped: the item is set) and calls again
			// (without the uses it would ask "Please confirm item: book.").
			file:    "uses.json",
			stack:   []string{"main.call_details", "details.ask_note"},
			slots:   map[string]any{"vip": false},
			pending: &vm.Pending{Kind: vm.PendingCollect, Flow: "details", Step: "ask_note", Slot: "note", Prompt: "Any note?"},
			history: 2,
			then:    []vm.Command{setSlot("note", "gift")},
			replies: []string{"How many ?"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			b := readFixture(t, tc.file)
			st, err := m.Decode(b)
			require.NoError(t, err)
			assert.Equal(t, tc.stack, stackOf(st))
			assert.Equal(t, tc.slots, st.Slots)
			assert.Equal(t, tc.pending, st.Pending)
			assert.Len(t, st.History, tc.history)
			assert.Equal(t, created, st.Created)
			assert.Equal(t, "fixture", st.Session)
			if len(st.Notes) == 0 {
				again, err := m.Encode(st)
				require.NoError(t, err)
				assert.Equal(t, string(b), string(again), "same fingerprint: re-encoding gives the same bytes")
			}
			res := do(t, m, st, tc.then...)
			assert.Equal(t, tc.replies, res.Replies)
		})
	}
	t.Run("mid_collect typed values", func(t *testing.T) {
		st, err := m.Decode(readFixture(t, "mid_collect.json"))
		require.NoError(t, err)
		assert.True(t, st.Stack[0].AfterCall)
		assert.Equal(t, map[string]any{"item": "book"}, st.Stack[0].Slots)
		assert.Equal(t, map[string]any{"note": "gift"}, st.Stack[1].Slots)
		assert.Equal(t, uint64(7), st.Revision)
	})
	t.Run("uses keep their order and values", func(t *testing.T) {
		st, err := m.Decode(readFixture(t, "uses.json"))
		require.NoError(t, err)
		assert.Equal(t, []vm.Use{{Slot: "vip", Step: "ask_item", Value: true}}, st.Stack[0].Uses)
		assert.Nil(t, st.Stack[1].Uses)
	})
	t.Run("pending_confirm number slot is float64", func(t *testing.T) {
		st, err := m.Decode(readFixture(t, "pending_confirm.json"))
		require.NoError(t, err)
		assert.Equal(t, 50.0, st.Stack[0].Slots["amount"])
	})
}

func TestCheckpointRoundTrip(t *testing.T) {
	m := newMachine(t, fixtureProgram(), vm.Options{})
	st := m.NewState("rt")
	st.Slots["age"] = int64(-7)
	st.Slots["score"] = 1200.0
	st.Slots["vip"] = false
	st.Slots["user_name"] = "tab\there \x01 \u2028 bad\xffutf8 \U0001F600"
	st.Slots["prefs"] = []any{nil, true, int64(1), 1.5, "s", map[string]any{"b": int64(2), "a": []any{}}, 1e21, -0.0001}
	st.Stack = []vm.Frame{
		{Flow: "main", Step: "call_details", AfterCall: true, Slots: map[string]any{"item": map[string]any{}}},
		{Flow: "details", Step: "ask_note", Slots: map[string]any{"qty": int64(3)}},
	}
	st.Stack[0].Uses = []vm.Use{{Slot: "score", Step: "ask_item", Value: 1200.0}, {Slot: "age", Step: "greet"}, {Slot: "prefs", Step: "ask_item", Value: map[string]any{"a": int64(1)}}}
	st.Pending = &vm.Pending{Kind: vm.PendingCollect, Flow: "details", Step: "ask_note", Slot: "note", Prompt: "Any note? \"quoted\"", Attempts: 2}
	st.History = []vm.Message{{Role: vm.RoleUser, Text: "hi"}, {Role: vm.RoleBot, Text: "hello\nthere"}}
	st.Revision = 12
	st.Updated = testNow.Add(1500 * time.Millisecond)
	b, err := m.Encode(st)
	require.NoError(t, err)
	got, err := m.Decode(b)
	require.NoError(t, err)
	want := st.Clone()
	want.Slots["user_name"] = "tab\there \x01 \u2028 bad\uFFFDutf8 \U0001F600"
	assert.Equal(t, want, got)
	again, err := m.Encode(got)
	require.NoError(t, err)
	assert.Equal(t, string(b), string(again), "deterministic bytes")
	assert.True(t, bytes.HasPrefix(b, []byte("{\n  \"format\": \"soni.checkpoint/v1\",\n")))
}

// TestDecodeHistoryLayouts: a history written by hand, in any JSON
// layout, decodes like the encoder's own; the encoder's layout is read by
// a shortcut, and every other one by the general reader.
func TestDecodeHistoryLayouts(t *testing.T) {
	m := newMachine(t, fixtureProgram(), vm.Options{})
	st := m.NewState("h")
	st.History = []vm.Message{{Role: vm.RoleUser, Text: "hi \"there\""}, {Role: vm.RoleBot, Text: "hello\nthere"}, {Role: vm.RoleUser, Text: ""}}
	b, err := m.Encode(st)
	require.NoError(t, err)
	want, err := m.Decode(b)
	require.NoError(t, err)
	canonical := `{"role": "user", "text": "hi \"there\""}`
	require.Contains(t, string(b), canonical)
	for _, layout := range []string{
		`{"text": "hi \"there\"", "role": "user"}`,
		`{"role":"user","text":"hi \"there\""}`,
		`{ "role": "user", "text": "hi \"there\"" }`,
		`{"role": "user", "text": "hi \u0022there\""}`,
		`{"role": "user", "text"  : "hi \"there\""}`,
	} {
		t.Run(layout, func(t *testing.T) {
			got, err := m.Decode([]byte(strings.Replace(string(b), canonical, layout, 1)))
			require.NoError(t, err)
			assert.Equal(t, want.History, got.History)
		})
	}
	for _, bad := range []struct{ layout, msg string }{
		{`{"role": "user", "text": "hi", "x": 1}`, `unknown field "x"`},
		{`{"role": "user", "text": 5}`, "string"},
		{`{"role": "user", "text": "a` + "\x01" + `"}`, "control character"},
		{`{"role": "admin", "text": "hi"}`, `unknown role "admin"`},
		{`{"role": "user"}`, `needs "role" and "text"`},
	} {
		t.Run(bad.layout, func(t *testing.T) {
			_, err := m.Decode([]byte(strings.Replace(string(b), canonical, bad.layout, 1)))
			require.Error(t, err)
			assert.Contains(t, err.Error(), bad.msg)
		})
	}
}

func TestEncodeRejectsUnwritableValues(t *testing.T) {
	m := newMachine(t, fixtureProgram(), vm.Options{})
	st := m.NewState("s")
	st.Slots["prefs"] = map[string]any{"x": func() {}}
	_, err := m.Encode(st)
	assert.ErrorContains(t, err, `slot "prefs"`)
	_, err = m.Encode(nil)
	assert.Error(t, err)
}

func TestEncodeOtherGoValues(t *testing.T) {
	m := newMachine(t, fixtureProgram(), vm.Options{})
	st := m.NewState("s")
	st.Slots["prefs"] = struct {
		A int      `json:"a"`
		B []string `json:"b"`
	}{A: 1, B: []string{"x"}}
	b, err := m.Encode(st)
	require.NoError(t, err)
	got, err := m.Decode(b)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"a": int64(1), "b": []any{"x"}}, got.Slots["prefs"])
}

func TestDecodeNormalisesByDeclaredType(t *testing.T) {
	m := newMachine(t, fixtureProgram(), vm.Options{})
	b := fixtureWith(t, m, `"slots": {"age": 42.0, "score": 3, "vip": true}`)
	st, err := m.Decode(b)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"age": int64(42), "score": 3.0, "vip": true}, st.Slots)
}

// fixtureWith returns the empty fixture with its "slots" line replaced.
func fixtureWith(t *testing.T, m machine, slotsLine string) []byte {
	t.Helper()
	b, err := m.Encode(m.NewState("x"))
	require.NoError(t, err)
	s := strings.Replace(string(b), `"slots": {}`, slotsLine, 1)
	require.NotEqual(t, string(b), s)
	return []byte(s)
}

func TestDecodeErrors(t *testing.T) {
	m := newMachine(t, fixtureProgram(), vm.Options{})
	good := string(readFixture(t, "mid_collect.json"))
	fp := m.Fingerprint()
	tests := []struct {
		name  string
		input string
		want  string
	}{
		{"empty", "", "checkpoint is empty"},
		{"blank", " \n\t", "checkpoint is empty"},
		{"array", "[]", "checkpoint is not a JSON object"},
		{"null", "null", "checkpoint is not a JSON object"},
		{"truncated", good[:len(good)/2], "truncated"},
		{"truncated at the end", good[:len(good)-3], "truncated"},
		{"corrupt", strings.Replace(good, `"stack": [`, `"stack": [[`, 1), `want '{'`},
		{"unknown format", strings.Replace(good, "soni.checkpoint/v1", "soni.checkpoint/v9", 1), `checkpoint format is "soni.checkpoint/v9", but this soni reads "soni.checkpoint/v1"`},
		{"missing field", strings.Replace(good, `"revision": 7,`, "", 1), `checkpoint has no "revision" field`},
		{"unknown field", strings.Replace(good, `"revision": 7,`, `"revison": 7,`, 1), `unknown field "revison"`},
		{"duplicate field", strings.Replace(good, `"revision": 7,`, `"revision": 7, "revision": 8,`, 1), `field "revision" appears twice`},
		{"trailing data", good + "{}", "unexpected data after the checkpoint object"},
		{"bad time", strings.Replace(good, `"created": "2026`, `"created": "x2026`, 1), `field "created" is not an RFC 3339 time`},
		{"negative revision", strings.Replace(good, `"revision": 7`, `"revision": -7`, 1), "a non-negative integer"},
		{"wrong type for the same program", strings.Replace(good, `"age": 42`, `"age": "old"`, 1), `slot "age": wrong type: "old" is not an integer`},
		{"pending without flow", strings.Replace(string(readFixture(t, "empty.json")), `"pending": null`, `"pending": {"kind": "collect", "flow": "main", "step": "ask_item", "slot": "item", "prompt": "?"}`, 1), "pending question but no active flow"},
		{"frame without step", strings.Replace(good, `"step": "ask_qty", "slots"`, `"slots"`, 1), `stack frame 1 has no "step" field`},
		{"pending kind", strings.Replace(good, `"kind": "collect"`, `"kind": "ask"`, 1), `pending question has unknown kind "ask"`},
		{"pending not on top", strings.Replace(good, `"step": "ask_qty", "slot": "qty"`, `"step": "ask_note", "slot": "qty"`, 1), `is not where the top flow waits`},
		{"resume on a non-call", strings.Replace(good, `"step": "call_details"`, `"step": "greet"`, 1), `waits for a call at step "greet"`},
		{"bad escape", strings.Replace(good, `"Ana"`, `"A\qna"`, 1), `invalid escape`},
		{"control character", strings.Replace(good, `"Ana"`, "\"A\x01na\"", 1), "control character"},
		{"missing step same program", strings.Replace(good, `"step": "ask_qty", "slots"`, `"step": "ask_qty2", "slots"`, 1), `step "ask_qty2" of flow "details", which the program no longer has`},
		{"deep nesting", strings.Replace(good, `"prefs": {`, `"prefs": `+strings.Repeat("[", 100)+`{`, 1), "nests too deep"},
		{"leading zero", strings.Replace(good, `"age": 42`, `"age": 042`, 1), "leading zero"},
	}
	require.Contains(t, good, fp, "the fixture was written for the fixture program")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st, err := m.Decode([]byte(tc.input))
			require.Error(t, err)
			assert.Nil(t, st)
			assert.Contains(t, err.Error(), tc.want)
			assert.True(t, strings.HasPrefix(err.Error(), "read checkpoint: "), err.Error())
		})
	}
}

func TestDecodeOtherProgramVersion(t *testing.T) {
	b := readFixture(t, "mid_collect.json")
	t.Run("steps still exist: resumes with a note", func(t *testing.T) {
		p := fixtureProgram()
		p.Flows[0].Nodes[0].Message = tpl("How many {item} would you like?")
		p.Slots = p.Slots[1:] // age is gone
		m := newMachine(t, p, vm.Options{})
		st, err := m.Decode(b)
		require.NoError(t, err)
		require.Len(t, st.Notes, 2)
		assert.Contains(t, st.Notes[0], `dropped slot "age"`)
		assert.Contains(t, st.Notes[1], "resuming with "+m.Fingerprint())
		assert.NotContains(t, st.Slots, "age")
		res := do(t, m, st, fallback)
		assert.Equal(t, st.Notes, res.Trace[:2])
		assert.Equal(t, []string{"Sorry, I didn't understand that.", "How many  would you like?"}, res.Replies)
		assert.Nil(t, res.State.Notes)
		out, err := m.Encode(res.State)
		require.NoError(t, err)
		assert.Contains(t, string(out), m.Fingerprint())
	})
	t.Run("a changed slot type drops the value", func(t *testing.T) {
		p := fixtureProgram()
		p.Slots[0].Type = ir.TypeText
		m := newMachine(t, p, vm.Options{})
		st, err := m.Decode(b)
		require.NoError(t, err)
		assert.NotContains(t, st.Slots, "age")
	})
	t.Run("missing step: error names it", func(t *testing.T) {
		p := fixtureProgram()
		p.Flows[0].Nodes[0].ID = "how_many"
		m := newMachine(t, p, vm.Options{})
		_, err := m.Decode(b)
		require.Error(t, err)
		assert.Contains(t, err.Error(), `step "ask_qty" of flow "details"`)
	})
	t.Run("missing flow: error names it", func(t *testing.T) {
		p := fixtureProgram()
		p.Flows = p.Flows[1:]
		p.Flows[0].Nodes[2].Target = "transfer"
		m := newMachine(t, p, vm.Options{})
		_, err := m.Decode(b)
		require.Error(t, err)
		assert.Contains(t, err.Error(), `flow "details"`)
	})
}

func TestCheckpointAfterTurnsResumes(t *testing.T) {
	m := newMachine(t, irtest.BookFlight(), vm.Options{Actions: vm.ActionFunc(searchFlights)})
	st := m.NewState("s")
	for _, c := range []vm.Command{start("book_flight"), setSlot("origin", "Paris")} {
		res := do(t, m, st, c)
		b, err := m.Encode(res.State)
		require.NoError(t, err)
		st, err = m.Decode(b)
		require.NoError(t, err)
	}
	res := do(t, m, st, setSlot("destination", "Rome"))
	assert.Equal(t, []string{"What date?"}, res.Replies)
	res = do(t, m, res.State, setSlot("date", "soon"))
	assert.Equal(t, []string{"Found a flight from Paris to Rome on soon for 154"}, res.Replies)
}

func FuzzCheckpointDecode(f *testing.F) {
	entries, err := os.ReadDir(fixtureDir)
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(fixtureDir, e.Name()))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)/3])
	}
	for _, s := range []string{"", "{", "}", "null", `{"format": 1}`, `{"stack": [{"flow": 5}]}`, "\"\\ud800\\u\"", `{"slots": {"a": [1e999]}}`, "\xff\xfe"} {
		f.Add([]byte(s))
	}
	m := newMachine(f, fixtureProgram(), vm.Options{})
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := m.Decode(b)
		if err != nil {
			return
		}
		out, err := m.Encode(st)
		if err != nil {
			t.Fatalf("decoded state does not encode: %v", err)
		}
		st2, err := m.Decode(out)
		if err != nil {
			t.Fatalf("re-encoded checkpoint does not decode: %v\n%s", err, out)
		}
		out2, err := m.Encode(st2)
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("encoding is not stable: %v\n%s\n%s", err, out, out2)
		}
		if _, err := m.Turn(context.Background(), st, vm.Input{Commands: []vm.Command{fallback}}); err != nil {
			t.Fatalf("a decoded state cannot take a turn: %v", err)
		}
	})
}

// TestDecodeBadTimeNamesTheField: with escapes in both the key and the
// value, the error still names the field, not the value's text.
func TestDecodeBadTimeNamesTheField(t *testing.T) {
	m := newMachine(t, &ir.Program{IRVersion: ir.Version, Settings: ir.DefaultSettings()}, vm.Options{})
	st := m.NewState("s")
	b, err := m.Encode(st)
	require.NoError(t, err)
	bad := strings.Replace(string(b), `"updated": "`, `"upd\u0061ted": "\u0031x`, 1)
	_, err = m.Decode([]byte(bad))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `field "updated" is not an RFC 3339 time`)
}

// TestDecodeRejectsUnsafeValues: a categorical value the program does not
// declare, and a revision that the next save would overflow, are refused
// like any other corrupt checkpoint, not carried into the conversation.
func TestDecodeRejectsUnsafeValues(t *testing.T) {
	p := program([]*ir.Slot{{Name: "class", Type: ir.TypeCategorical, Values: []ir.Value{{Value: "economy"}, {Value: "business"}}}}, nil,
		flow("f", nil, say("hi", "Hi")))
	m := newMachine(t, p, vm.Options{})
	st := m.NewState("s")
	st.Slots["class"] = "business"
	st.Revision = 3
	b, err := m.Encode(st)
	require.NoError(t, err)
	_, err = m.Decode(b)
	require.NoError(t, err)

	bad := strings.Replace(string(b), `"business"`, `"first"`, 1)
	_, err = m.Decode([]byte(bad))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `slot "class": wrong type: "first" is not one of the declared values (economy, business)`)

	over := strings.Replace(string(b), `"revision": 3`, `"revision": 18446744073709551615`, 1)
	require.NotEqual(t, string(b), over)
	_, err = m.Decode([]byte(over))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "revision 18446744073709551615 would overflow on the next save")
}

// TestDecodeWithoutFingerprint: a checkpoint with no "fingerprint" field
// (no program version) still loads, as a state of an unknown version:
// Fingerprint is empty, Resume checks it against the program like any
// other version's, and it is written back with the program's.
func TestDecodeWithoutFingerprint(t *testing.T) {
	m := newMachine(t, fixtureProgram(), vm.Options{})
	good := string(readFixture(t, "mid_collect.json"))
	line := fmt.Sprintf("\n  \"fingerprint\": %q,", m.Fingerprint())
	require.Contains(t, good, line)
	b := []byte(strings.Replace(good, line, "", 1))
	raw, err := m.Codec.DecodeOwnedUnchecked(append([]byte(nil), b...))
	require.NoError(t, err)
	assert.Empty(t, raw.Fingerprint, "unknown version")
	st, err := m.Decode(b)
	require.NoError(t, err)
	assert.Equal(t, m.Fingerprint(), st.Fingerprint)
	require.NotEmpty(t, st.Notes)
	out, err := m.Encode(st)
	require.NoError(t, err)
	assert.Contains(t, string(out), line, "written back with the program's version")
}
