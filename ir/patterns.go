package ir

// The conversation-repair patterns: flows the VM starts by itself when a
// conversation needs repair (a correction, a cancellation, a message it
// did not understand...). soni provides a default flow for each one, and a
// project overrides a pattern by defining a flow of the same name. The
// names are Rasa's, so that imported projects and tests line up.
const (
	PatternCancelFlow          = "pattern_cancel_flow"
	PatternCannotHandle        = "pattern_cannot_handle"
	PatternChitchat            = "pattern_chitchat"
	PatternClarification       = "pattern_clarification"
	PatternCodeChange          = "pattern_code_change"
	PatternCompleted           = "pattern_completed"
	PatternContinueInterrupted = "pattern_continue_interrupted"
	PatternCorrection          = "pattern_correction"
	PatternHelp                = "pattern_help"
	PatternHumanHandoff        = "pattern_human_handoff"
	PatternInternalError       = "pattern_internal_error"
	PatternRepeatBotMessages   = "pattern_repeat_bot_messages"
	PatternSessionStart        = "pattern_session_start"
	PatternSkipQuestion        = "pattern_skip_question"
)

// Patterns lists every pattern, sorted.
var Patterns = []string{
	PatternCancelFlow, PatternCannotHandle, PatternChitchat, PatternClarification,
	PatternCodeChange, PatternCompleted, PatternContinueInterrupted, PatternCorrection, PatternHelp,
	PatternHumanHandoff, PatternInternalError, PatternRepeatBotMessages,
	PatternSessionStart, PatternSkipQuestion,
}

// IsPattern reports whether name is the name of a pattern.
func IsPattern(name string) bool {
	for _, p := range Patterns {
		if p == name {
			return true
		}
	}
	return false
}

// ContextSlot is the read-only slot of every pattern flow that holds its
// whole context as a map, for Rasa-style references (context.reason).
const ContextSlot = "context"

// PatternSlot is one read-only slot the VM gives a pattern flow when it
// starts it: a key of the pattern's context, also readable by its own name.
type PatternSlot struct {
	Name string
	Type SlotType
	// Doc says what the slot holds.
	Doc string
}

// PatternSlots lists, per pattern, the read-only slots the VM fills when it
// starts the pattern, besides context. A pattern flow reads them like its
// own slots and cannot set them.
var PatternSlots = map[string][]PatternSlot{
	PatternCancelFlow: {
		{"canceled_name", TypeText, "the cancelled flow's title (its label, or its name with spaces)"},
		{"canceled_flow", TypeText, "the cancelled flow's name"},
		{"nothing_left", TypeBoolean, "true when the cancellation leaves no flow of the project on the stack (Rasa then runs pattern_completed)"},
	},
	PatternCannotHandle: {
		{"reason", TypeText, "why: cannot_handle_default (the message was not understood), cannot_handle_chitchat or cannot_handle_not_supported"},
		{"question_pending", TypeBoolean, "true when a question waits for its answer (it is asked again after the pattern)"},
	},
	PatternChitchat: {
		{"small_talk", TypeText, "the kind of small talk the understanding layer read: greet, thanks, goodbye, wait (\"one moment\") or ack (\"ok\", a thumbs up); unset when it did not say"},
		{"question_pending", TypeBoolean, "true when a question waits for its answer (it is asked again after the pattern)"},
	},
	PatternClarification: {
		{"names", TypeAny, "the titles of the flows the message could start, a list"},
		{"flows", TypeAny, "the names of those flows, a list"},
		{"clarification_options", TypeText, "the options as one phrase: \"check balance or transfer money\" (descriptions when the flows have them)"},
		{"options", TypeText, "the same phrase, the clarify_message setting's {options}"},
	},
	PatternCodeChange: {
		{"previous_flows", TypeAny, "the names of the flows the update ended, a list, bottom of the stack first"},
		{"previous_flow_names", TypeText, "their titles as one phrase (\"transfer money and check balance\"); empty when no flow was running"},
	},
	PatternCompleted: {
		{"previous_flow", TypeText, "the name of the flow that completed"},
	},
	PatternContinueInterrupted: {
		{"previous_flow_name", TypeText, "the title of the flow that continues"},
		{"previous_flow", TypeText, "the name of the flow that continues"},
		{"interrupting_flow", TypeText, "the name of the flow that just ended"},
	},
	PatternCorrection: {
		{"corrected_slots", TypeAny, "the corrections, a map from slot name to its new value"},
		{"previous_slot_values", TypeAny, "the values before the correction, a map from slot name to value (unset slots absent)"},
		{"new_slot_values", TypeAny, "the new values, a list in the order of corrected_slot_names"},
		{"corrected_slot_names", TypeAny, "the corrected slots' names, a list, sorted"},
		{"corrected_slot", TypeText, "the first corrected slot's name"},
		{"corrected_slot_label", TypeText, "the first corrected slot's label, or its name with spaces"},
		{"new_value", TypeAny, "the first corrected slot's new value"},
		{"old_value", TypeAny, "the first corrected slot's value before the correction"},
		{"is_reset_only", TypeBoolean, "false: soni's corrections always set a value"},
		{"reset_flow_id", TypeText, "the flow whose slot is corrected"},
	},
	PatternHelp: {
		{"flow_names", TypeAny, "the flows a user can start, a list of names"},
		{"flow_descriptions", TypeText, "what the bot can do as one phrase: their descriptions, joined with commas and \"and\""},
		{"flow_list", TypeText, "the same descriptions as a list, one \"- description\" per line"},
	},
	PatternInternalError: {
		{"error_type", TypeText, "the error's class: action_failed, action_timeout, action_bad_output or action_missing"},
		{"action", TypeText, "the task of the action that failed, in words: the first clause of its description, or \"do that\""},
		{"action_name", TypeText, "the name of the action that failed"},
		{"info", TypeText, "what went wrong, as the trace says it"},
	},
	PatternRepeatBotMessages: {
		{"last_bot_messages", TypeAny, "the bot's messages of the previous turn, a list"},
	},
	PatternSkipQuestion: {
		{"skipped_slot", TypeText, "the slot of the question the user wants to skip"},
	},
}

// The kinds of small talk a chitchat command may carry, and that
// pattern_chitchat reads as its small_talk slot.
const (
	SmallTalkGreet   = "greet"
	SmallTalkThanks  = "thanks"
	SmallTalkGoodbye = "goodbye"
	// SmallTalkWait asks for a moment: "one moment", "hang on".
	SmallTalkWait = "wait"
	// SmallTalkAck acknowledges: "ok", "cool", a thumbs up.
	SmallTalkAck = "ack"
)

// SmallTalkKinds lists the kinds of small talk, in the order a message
// that holds two of them is read as (goodbye wins over thanks: "thanks,
// bye" is a goodbye).
var SmallTalkKinds = []string{SmallTalkGoodbye, SmallTalkThanks, SmallTalkWait, SmallTalkGreet, SmallTalkAck}

// IsSmallTalkKind reports whether k is one of [SmallTalkKinds].
func IsSmallTalkKind(k string) bool {
	for _, s := range SmallTalkKinds {
		if s == k {
			return true
		}
	}
	return false
}

// Interrupted is the flow that the pattern on top of a stack of flow
// names (bottom first) interrupted: the topmost flow that is no
// pattern. It is "" when the top is no pattern, or nothing is under it.
func Interrupted(stack []string) string {
	if n := len(stack); n == 0 || !IsPattern(stack[n-1]) {
		return ""
	}
	for i := len(stack) - 1; i >= 0; i-- {
		if !IsPattern(stack[i]) {
			return stack[i]
		}
	}
	return ""
}

// IsPatternSlot reports whether name is a read-only slot of a pattern
// flow: context, or one of [PatternSlots] for that pattern.
func IsPatternSlot(pattern, name string) bool {
	if !IsPattern(pattern) {
		return false
	}
	if name == ContextSlot {
		return true
	}
	for _, s := range PatternSlots[pattern] {
		if s.Name == name {
			return true
		}
	}
	return false
}

// The built-in actions: action steps that the VM runs itself, for the
// patterns (Rasa's names). They take no inputs and return no outputs.
const (
	// ActionCorrectFlowSlot applies the corrections of pattern_correction.
	ActionCorrectFlowSlot = "action_correct_flow_slot"
	// ActionCancelFlow cancels the flows pattern_cancel_flow was started for.
	ActionCancelFlow = "action_cancel_flow"
	// ActionClarifyFlows makes the next message an answer to the
	// clarification's options.
	ActionClarifyFlows = "action_clarify_flows"
	// ActionRepeatBotMessages says the bot's previous messages again.
	ActionRepeatBotMessages = "action_repeat_bot_messages"
	// ActionSessionStart starts a session; it does nothing more in soni.
	ActionSessionStart = "action_session_start"
	// ActionListen does nothing: in Rasa it waits for the user, which a
	// soni flow does with a collect.
	ActionListen = "action_listen"
)

// BuiltinActions lists the built-in actions, sorted.
var BuiltinActions = []string{ActionCancelFlow, ActionClarifyFlows, ActionCorrectFlowSlot, ActionListen, ActionRepeatBotMessages, ActionSessionStart}

// IsBuiltinAction reports whether name is a built-in action.
func IsBuiltinAction(name string) bool {
	for _, a := range BuiltinActions {
		if a == name {
			return true
		}
	}
	return false
}
