package vm

// cancelNamed asks for pattern_cancel_flow about the flow a cancel_flow
// command names ("cancel the flight" while a hotel booking started on top
// of a flight booking asks its question): the topmost frame of that flow,
// with the flows it called and the flows that called it. Flows started
// above it as digressions stay, and the one on top asks its question
// again when the pattern ends. A flow that is not on the stack is
// nothing to cancel; the flow on top is left alone.
func (t *turn) cancelNamed(name string) error {
	i := -1
	for j := len(t.st.Stack) - 1; j >= 0; j-- {
		if f := &t.st.Stack[j]; f.Flow == name && !t.isPatternFrame(f) {
			i = j
			break
		}
	}
	if i < 0 {
		t.trace("flow " + name + " is not active: nothing to cancel")
		return nil
	}
	// The flows it called: each frame that waits on a call has its
	// callee right above it.
	end := i
	for end+1 < len(t.st.Stack) && t.st.Stack[end].AfterCall {
		end++
	}
	if end >= t.userFrame() {
		// Nothing but patterns above it: the topmost flow, as cancel_flow
		// with no name cancels it.
		return t.cancelFlow()
	}
	return t.requestCancel(i, end)
}
