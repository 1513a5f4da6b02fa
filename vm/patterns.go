package vm

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/values"
)

// The patterns: conversation repair runs as flows on the stack. The VM
// starts a pattern's flow by itself (a correction, a cancellation, a
// message it did not understand, a flow that completed...) and gives it
// its context as read-only slots; the flow is the project's own flow
// of the pattern's name or soni's default, which the compiler adds to the
// program (marked Builtin). While the
// commands of a turn are applied, the patterns they ask for wait in a
// queue and start, in order, once every command is applied, so that a
// command after a correction still sees the flow it is about.

// queued is a pattern waiting to start.
type queued struct {
	name string
	ctx  map[string]any
}

// correction is one slot correction waiting for pattern_correction.
type correction struct {
	// frame is the index of the stack frame whose slot is corrected, or
	// -1 for a conversation slot.
	frame int
	// flow is the frame's flow, checked when the correction applies.
	flow     string
	slot     string
	old, new any
	hadOld   bool
}

// The reasons of pattern_cannot_handle.
const (
	reasonDefault      = "cannot_handle_default"
	reasonNotSupported = "cannot_handle_not_supported"
)

// requestPattern starts a pattern: at once while the turn runs flows, or
// after the last command while the commands are applied.
func (t *turn) requestPattern(name string, ctx map[string]any) error {
	if t.applying {
		t.queue = append(t.queue, queued{name, ctx})
		return nil
	}
	return t.pushPattern(name, ctx)
}

// flushPatterns starts the patterns the commands asked for, the first
// asked on top, so that it runs first; the corrections, gathered into one
// pattern_correction, where the first correction was asked for.
func (t *turn) flushPatterns() error {
	t.applying = false
	q := t.queue
	t.queue = nil
	for i := len(q) - 1; i >= 0; i-- {
		ctx := q[i].ctx
		if q[i].name == ir.PatternCorrection {
			ctx = t.correctionContext()
			t.corrections = nil
		}
		if err := t.pushPattern(q[i].name, ctx); err != nil {
			return err
		}
	}
	return nil
}

// pushPattern starts a pattern's flow on top of the stack with its context.
func (t *turn) pushPattern(name string, ctx map[string]any) error {
	fr := t.m.flows[name]
	if fr == nil {
		return errors.New("pattern " + name + " has no flow")
	}
	if err := t.push(fr, nil); err != nil {
		return err
	}
	t.fillContext(fr, ctx)
	return nil
}

// fillContext gives a pattern frame its context: the whole map as the
// context slot, and each key the flow has a slot for as that slot.
func (t *turn) fillContext(fr *flowRT, ctx map[string]any) {
	if len(ctx) == 0 {
		return // nothing to give (pattern_session_start): no allocation
	}
	top := t.top()
	top.Slots = make(map[string]any, len(ctx)+1)
	top.Slots[ir.ContextSlot] = ctx
	for k, v := range ctx {
		if _, ok := fr.slots[k]; ok && v != nil {
			top.Slots[k] = v
		}
	}
}

// isPatternFrame reports whether a frame runs a pattern's flow.
func (t *turn) isPatternFrame(f *Frame) bool {
	fr := t.m.flows[f.Flow]
	return fr != nil && fr.pattern
}

// userFrame returns the index of the topmost frame that is not a pattern,
// or -1.
func (t *turn) userFrame() int {
	for i := len(t.st.Stack) - 1; i >= 0; i-- {
		if !t.isPatternFrame(&t.st.Stack[i]) {
			return i
		}
	}
	return -1
}

// patternContext is the context of a pattern started by a link from
// another flow.
func (t *turn) patternContext(name string) map[string]any {
	switch name {
	case ir.PatternCannotHandle:
		return map[string]any{"reason": reasonDefault, "question_pending": t.questionBelow()}
	case ir.PatternChitchat:
		return map[string]any{"question_pending": t.questionBelow()}
	case ir.PatternHelp:
		return t.helpContext()
	}
	return map[string]any{}
}

// questionBelow reports whether the flow the patterns on top of the stack
// interrupted waits at a question (which it asks again when they end).
func (t *turn) questionBelow() bool {
	i := t.userFrame()
	if i < 0 {
		return false
	}
	f := &t.st.Stack[i]
	fr := t.m.flows[f.Flow]
	idx, ok := fr.index[f.Step]
	return ok && !f.AfterCall && fr.nodes[idx].n.Kind.WaitsForUser()
}

// cannotHandle asks for pattern_cannot_handle.
func (t *turn) cannotHandle(reason string) error {
	return t.requestPattern(ir.PatternCannotHandle, map[string]any{"reason": reason, "question_pending": t.blocking() != nil})
}

// cancelFlow asks for pattern_cancel_flow about the topmost flow that is
// not a pattern: it and the flows that called it, with the patterns above
// it, are the frames action_cancel_flow cancels.
func (t *turn) cancelFlow() error {
	i := t.userFrame()
	if i < 0 {
		t.trace("no flow to cancel")
		return nil
	}
	return t.requestCancel(i, len(t.st.Stack)-1)
}

// requestCancel asks for pattern_cancel_flow about the flow of frame i:
// the frames from hi down to i (what it called, or started above it) and
// the flows that called it are the frames action_cancel_flow cancels.
func (t *turn) requestCancel(i, hi int) error {
	var frames []any
	for j := hi; j >= i; j-- {
		frames = append(frames, int64(j))
	}
	for j := i - 1; j >= 0 && t.st.Stack[j].AfterCall; j-- {
		frames = append(frames, int64(j))
	}
	fr := t.m.flows[t.st.Stack[i].Flow]
	return t.requestPattern(ir.PatternCancelFlow, map[string]any{
		"canceled_name":   fr.f.Title(),
		"canceled_flow":   fr.f.Name,
		"canceled_frames": frames,
		"nothing_left":    t.nothingLeft(frames),
	})
}

// nothingLeft reports whether cancelling frames leaves no flow of the
// project on the stack (only patterns, if anything): what Rasa follows
// with pattern_completed.
func (t *turn) nothingLeft(frames []any) bool {
	gone := make(map[int]bool, len(frames))
	for _, v := range frames {
		if i, ok := toInt(v); ok {
			gone[int(i)] = true
		}
	}
	for i := range t.st.Stack {
		if !gone[i] && !t.isPatternFrame(&t.st.Stack[i]) {
			return false
		}
	}
	return true
}

// helpContext lists what the bot can do: the flows a message can start
// (with trigger phrases, not patterns, whose guard holds).
func (t *turn) helpContext() map[string]any {
	var names, descs, lines []any
	var parts []string
	for _, f := range t.m.prog.Flows {
		fr := t.m.flows[f.Name]
		if len(f.Triggers) == 0 || fr == nil || fr.pattern || !t.canStart(fr) {
			continue
		}
		d := strings.TrimSuffix(strings.TrimSpace(f.Description), ".")
		if d == "" {
			d = f.Title()
		}
		names = append(names, f.Name)
		descs = append(descs, d)
		lines = append(lines, "- "+d)
		parts = append(parts, d)
	}
	list := make([]string, len(lines))
	for i, l := range lines {
		list[i] = l.(string)
	}
	return map[string]any{
		"flow_names":        orEmpty(names),
		"flow_descriptions": t.m.list(t.language(), parts, true),
		"flow_list":         strings.Join(list, "\n"),
		"descriptions":      orEmpty(descs),
	}
}

func orEmpty(l []any) []any {
	if l == nil {
		return []any{}
	}
	return l
}

// canStart reports whether a flow's guard (if:) holds, in the scope of
// the conversation slots.
func (t *turn) canStart(fr *flowRT) bool {
	if fr.guard == nil {
		return true
	}
	env := make(map[string]any, len(t.st.Slots)+1)
	slots := make(map[string]any, len(t.st.Slots))
	for k, v := range t.st.Slots {
		env[k], slots[k] = v, v
	}
	env["slots"] = slots
	ok, err := fr.guard.test(env)
	if err != nil {
		t.trace("flow " + fr.f.Name + ": guard error, treated as false: " + err.Error())
		return false
	}
	return ok
}

// CanStart reports whether a flow may start in the conversation st: it
// exists, is not a pattern, and its guard (if:) holds.
func (m *Machine) CanStart(st *State, flow string) bool {
	fr := m.flows[flow]
	if fr == nil || fr.pattern {
		return false
	}
	if fr.guard == nil {
		return true
	}
	if st == nil {
		st = &State{}
	}
	t := &turn{m: m, ctx: context.Background(), st: st, res: &Result{}}
	return t.canStart(fr)
}

// guarded drops the understood start_flow commands of flows whose guard
// does not hold, and takes such flows out of an understood clarify (the
// one flow left starts; with none left the clarify is dropped): for the
// understanding, such a flow is absent. With no command left, the
// message was not understood.
func (m *Machine) guarded(st *State, cmds []Command, notes *[]string) []Command {
	// out is only returned when a flow was dropped, as a copy: most turns
	// drop none and build it in this frame's memory.
	var buf [2]Command
	out := buf[:0]
	dropped := false
	off := func(flow string) bool {
		fr := m.flows[flow]
		if fr == nil || fr.guard == nil || m.CanStart(st, flow) {
			return false
		}
		*notes = append(*notes, "flow "+flow+" was understood, but its guard "+strconv.Quote(fr.f.If.Src)+" is false: read as not understood")
		return true
	}
	for _, c := range cmds {
		switch c.Kind {
		case CmdStartFlow:
			if off(c.Flow) {
				dropped = true
				continue
			}
		case CmdClarify:
			var left []string
			for _, f := range c.Flows {
				if off(f) {
					dropped = true
				} else if !slices.Contains(left, f) {
					left = append(left, f)
				}
			}
			if len(left) == len(c.Flows) {
				break
			}
			switch len(left) {
			case 0:
				continue
			case 1:
				c = Command{Kind: CmdStartFlow, Flow: left[0]}
			default:
				c.Flows = left
			}
		}
		out = append(out, c)
	}
	if !dropped {
		return cmds
	}
	if len(out) == 0 {
		return []Command{{Kind: CmdFallback}}
	}
	return slices.Clone(out)
}

// queueCorrection records a correction for pattern_correction.
func (t *turn) queueCorrection(c correction) error {
	if len(t.corrections) == 0 {
		if top := t.top(); top != nil && top.Flow == ir.PatternCorrection && t.isPatternFrame(top) {
			// A new correction while the last one waits for its answer
			// replaces it.
			t.popTop(EventFlowCancelled)
		}
		if err := t.requestPattern(ir.PatternCorrection, nil); err != nil {
			return err
		}
	}
	for i := range t.corrections {
		if t.corrections[i].slot == c.slot && t.corrections[i].frame == c.frame {
			t.corrections[i].new = c.new
			return nil
		}
	}
	t.corrections = append(t.corrections, c)
	return nil
}

// correctionContext is pattern_correction's context, from the
// corrections gathered. The frames and values are kept under
// "corrections" for action_correct_flow_slot.
func (t *turn) correctionContext() map[string]any {
	cs := slices.Clone(t.corrections)
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].slot < cs[j].slot })
	corrected := map[string]any{}
	previous := map[string]any{}
	var names, labels, news, items []any
	flow := ""
	for _, c := range cs {
		corrected[c.slot] = c.new
		labels = append(labels, t.slotLabel(c.frame, c.slot))
		if c.hadOld {
			previous[c.slot] = c.old
		}
		names = append(names, c.slot)
		news = append(news, c.new)
		items = append(items, map[string]any{"slot": c.slot, "frame": int64(c.frame), "flow": c.flow, "value": c.new})
		if flow == "" && c.frame >= 0 && c.frame < len(t.st.Stack) {
			flow = t.st.Stack[c.frame].Flow
		}
	}
	ctx := map[string]any{
		"corrected_slots":       corrected,
		"previous_slot_values":  previous,
		"new_slot_values":       orEmpty(news),
		"corrected_slot_names":  orEmpty(names),
		"corrected_slot_labels": orEmpty(labels),
		"is_reset_only":         false,
		"reset_flow_id":         flow,
		"corrections":           orEmpty(items),
	}
	if len(cs) > 0 {
		c := cs[0]
		ctx["corrected_slot"] = c.slot
		label := t.slotLabel(c.frame, c.slot)
		if sr := t.slotOfFrame(c.frame, c.slot); sr != nil {
			ctx["new_value"] = sr.def.Shown(c.new)
			if c.hadOld {
				ctx["old_value"] = sr.def.Shown(c.old)
			}
		}
		ctx["corrected_slot_label"] = label
	}
	return ctx
}

// slotLabel is a slot's name for people, as frame i sees it: its label,
// or its name with spaces.
func (t *turn) slotLabel(i int, name string) string {
	if sr := t.slotOfFrame(i, name); sr != nil {
		if l := strings.TrimSpace(sr.def.Label); l != "" {
			return l
		}
	}
	return strings.ReplaceAll(name, "_", " ")
}

// slotOfFrame returns the definition of a slot as frame i (-1: the
// conversation) sees it.
func (t *turn) slotOfFrame(i int, name string) *slotRT {
	if sr, ok := t.m.conv[name]; ok {
		return sr
	}
	if i < 0 || i >= len(t.st.Stack) {
		return nil
	}
	return t.m.slot(t.m.flows[t.st.Stack[i].Flow], name)
}

// builtinAction runs one of the built-in actions of the patterns. It
// reports false for any other action.
func (t *turn) builtinAction(nr *nodeRT) (bool, error) {
	name := nr.n.Action
	if !ir.IsBuiltinAction(name) || t.m.prog.Action(name) != nil {
		return false, nil
	}
	ctx, _ := t.top().Slots[ir.ContextSlot].(map[string]any)
	switch name {
	case ir.ActionCorrectFlowSlot:
		t.applyCorrections(ctx)
	case ir.ActionCancelFlow:
		t.cancelFrames(ctx)
	case ir.ActionClarifyFlows:
		t.clarify = t.clarify[:0]
		for _, f := range listOf(ctx["flows"]) {
			if s, ok := f.(string); ok && t.m.flows[s] != nil && !slices.Contains(t.clarify, s) {
				t.clarify = append(t.clarify, s)
			}
		}
	case ir.ActionRepeatBotMessages:
		for _, m := range listOf(ctx["last_bot_messages"]) {
			if s, ok := m.(string); ok {
				t.say(s)
			}
		}
	case ir.ActionSessionStart, ir.ActionListen:
	}
	t.goTo(nr.n.Next)
	return true, nil
}

func listOf(v any) []any {
	l, _ := v.([]any)
	return l
}

// applyCorrections applies pattern_correction's corrections
// (action_correct_flow_slot), language.md §11: each value is stored where
// it belongs, and a flow that collects a corrected slot and is past its
// first collect of it goes back there, so that every step after it runs
// again with the new value.
func (t *turn) applyCorrections(ctx map[string]any) {
	type backTo struct {
		node int
		slot string
	}
	back := map[int]backTo{} // frame index -> where to go back to
	for _, item := range listOf(ctx["corrections"]) {
		c, _ := item.(map[string]any)
		slot, _ := c["slot"].(string)
		fi, ok := toInt(c["frame"])
		if !ok || slot == "" {
			continue
		}
		flow, _ := c["flow"].(string)
		if fi < 0 || fi >= len(t.st.Stack) || t.st.Stack[fi].Flow != flow {
			t.trace("correction of slot " + slot + ": flow " + flow + " has ended")
			continue
		}
		sr := t.slotOfFrame(fi, slot)
		if sr == nil {
			continue
		}
		v := c["value"]
		if v != nil {
			nv, err := t.convertTyped(sr, v)
			if err != nil {
				t.trace("correction of slot " + slot + ": " + err.Error())
				continue
			}
			v = nv
		}
		t.storeIn(fi, sr, v)
		f := &t.st.Stack[fi]
		fr := t.m.flows[f.Flow]
		first := -1
		if u := useIndex(f, slot); u >= 0 {
			// A step read the slot to decide something: the flow goes
			// back to the first one (decisions follow their inputs).
			if i, ok := fr.index[f.Uses[u].Step]; ok {
				first = i
			}
		}
		if first < 0 {
			for i, nr := range fr.nodes {
				if nr.n.Kind == ir.KindCollect && nr.n.Slot == slot {
					first = i
					break
				}
			}
			if cur, ok := fr.index[f.Step]; !ok || cur <= first {
				first = -1
			}
		}
		if first >= 0 && !f.AfterCall {
			if b, seen := back[fi]; !seen || first < b.node {
				back[fi] = backTo{first, slot}
			}
		}
	}
	for _, fi := range slices.Sorted(maps.Keys(back)) {
		b := back[fi]
		f := &t.st.Stack[fi]
		fr := t.m.flows[f.Flow]
		t.trace("correction of slot " + b.slot + ": flow " + fr.f.Name + " goes back to " + fr.nodes[b.node].n.ID)
		rewindTo(f, fr, b.node)
	}
}

// cancelFrames cancels the frames pattern_cancel_flow was started for
// (action_cancel_flow), from the top down, keeping the pattern itself and
// anything started above them since.
func (t *turn) cancelFrames(ctx map[string]any) {
	var idx []int
	for _, v := range listOf(ctx["canceled_frames"]) {
		if i, ok := toInt(v); ok && i >= 0 && i < len(t.st.Stack)-1 {
			idx = append(idx, i)
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(idx)))
	idx = slices.Compact(idx)
	for _, i := range idx {
		f := t.st.Stack[i]
		t.st.Stack = slices.Delete(t.st.Stack, i, i+1)
		t.trace("flow " + f.Flow + " cancelled")
		t.event(Event{Type: EventFlowCancelled, Flow: f.Flow, Step: f.Step})
		t.resetSlots(&f)
	}
}

// takeHeld takes the value a frame below the top holds for slot of flow
// (see Frame.Held), nearest first.
func (t *turn) takeHeld(flow, slot string) (any, bool) {
	key := flow + "." + slot
	for i := len(t.st.Stack) - 2; i >= 0; i-- {
		f := &t.st.Stack[i]
		if v, ok := f.Held[key]; ok {
			delete(f.Held, key)
			if len(f.Held) == 0 {
				f.Held = nil
			}
			return v, true
		}
	}
	return nil, false
}

// toInt reads a frame index kept in a context (int64 in a turn, a JSON
// number after a checkpoint).
func toInt(v any) (int, bool) {
	f, ok := values.Float64(v)
	if !ok || f != float64(int(f)) {
		return 0, false
	}
	return int(f), true
}

// repeatContext holds the bot's messages of the previous turn; a pending
// question is left out, since the flow asks it again after the pattern.
func (t *turn) repeatContext() map[string]any {
	h := t.st.History
	end := len(h)
	if p := t.blocking(); p != nil && end > 0 && h[end-1].Role == RoleBot && h[end-1].Text == p.Prompt {
		end--
	}
	start := end
	for start > 0 && h[start-1].Role == RoleBot {
		start--
	}
	var msgs []any
	for _, m := range h[start:end] {
		msgs = append(msgs, m.Text)
	}
	return map[string]any{"last_bot_messages": orEmpty(msgs)}
}

// clarifyContext is pattern_clarification's context, or nil when fewer
// than two of the flows exist.
func (t *turn) clarifyContext(flows []string) map[string]any {
	var names, titles []any
	var opts []string
	for _, name := range flows {
		fr := t.m.flows[name]
		if fr == nil || fr.pattern || slices.Contains(names, any(name)) {
			continue
		}
		d := strings.TrimSuffix(strings.TrimSpace(fr.f.Description), ".")
		if d == "" {
			d = name
		}
		names = append(names, name)
		titles = append(titles, fr.f.Title())
		opts = append(opts, d)
	}
	if len(opts) < 2 {
		return nil
	}
	list := t.m.list(t.language(), opts, false)
	return map[string]any{"flows": names, "names": titles, "clarification_options": list, "options": list}
}

// internalError cancels the flow whose action failed (and the flows that
// called it) and starts pattern_internal_error. Its context names the
// action's task in words as action (what action_error_message says) and
// the action itself as action_name.
func (t *turn) internalError(action, class string, err error) error {
	t.finishTop(EventFlowCancelled)
	return t.requestPattern(ir.PatternInternalError, map[string]any{
		"error_type":  class,
		"action":      t.m.taskWords(action),
		"action_name": action,
		"info":        err.Error(),
	})
}

// continueOrComplete starts, after a flow that is not a pattern
// completed, pattern_continue_interrupted when the flow it interrupted
// continues, or pattern_completed when no flow is left.
func (t *turn) continueOrComplete(ended string) {
	top := t.top()
	var err error
	switch {
	case top == nil:
		err = t.requestPattern(ir.PatternCompleted, map[string]any{"previous_flow": ended})
	case !top.AfterCall && !t.isPatternFrame(top):
		fr := t.m.flows[top.Flow]
		err = t.requestPattern(ir.PatternContinueInterrupted, map[string]any{
			"previous_flow_name": fr.f.Title(),
			"previous_flow":      fr.f.Name,
			"interrupting_flow":  ended,
		})
	}
	if err != nil && t.err == nil {
		t.err = err
	}
}

// guardMessage is the trace line for a flow whose guard keeps it from
// starting.
func guardMessage(fr *flowRT) string {
	return "flow " + fr.f.Name + " cannot start: its guard " + strconv.Quote(fr.f.If.Src) + " is false"
}
