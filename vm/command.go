package vm

// CommandKind names a command.
type CommandKind string

// The commands of language.md §8.
const (
	CmdStartFlow   CommandKind = "start_flow"
	CmdSetSlot     CommandKind = "set_slot"
	CmdCorrectSlot CommandKind = "correct_slot"
	CmdCancelFlow  CommandKind = "cancel_flow"
	CmdAffirm      CommandKind = "affirm"
	CmdDeny        CommandKind = "deny"
	// CmdFallback says the message was not understood. The VM says the
	// fallback message and asks the pending question again, or says the
	// idle message when nothing is pending.
	CmdFallback CommandKind = "fallback"
	// CmdChitchat is small talk: pattern_chitchat answers it (by its
	// SmallTalk kind, or with the chitchat_message setting), then the
	// pending question is asked again.
	CmdChitchat CommandKind = "chitchat"
	// CmdHandoff asks for a person: the handoff setting's flow starts, or
	// its message is said.
	CmdHandoff CommandKind = "human_handoff"
	// CmdHelp asks what the assistant can do ("what can you do?",
	// "help"): the VM lists what the flows a message can start do (their
	// descriptions), then asks the pending question again.
	CmdHelp CommandKind = "help"
	// CmdRepeat asks the bot to say its last messages again ("what?",
	// "say that again"): pattern_repeat_bot_messages.
	CmdRepeat CommandKind = "repeat_bot_messages"
	// CmdSkipQuestion asks to skip the pending question:
	// pattern_skip_question.
	CmdSkipQuestion CommandKind = "skip_question"
	// CmdClarify says the message could start any of Flows: the
	// clarify_message setting asks which one.
	CmdClarify CommandKind = "clarify"
)

// Command is one instruction for the VM, produced by the understanding
// layer or given directly (tests, / commands in chat).
type Command struct {
	Kind CommandKind `json:"kind"`
	// Flow is the flow to start (start_flow), or the flow to cancel
	// (cancel_flow: "cancel the flight" wherever it is on the stack; empty
	// for the topmost flow).
	Flow string `json:"flow,omitempty"`
	// Slot and Value are the slot to set or correct and its raw value;
	// the VM converts and validates it against the slot's type.
	Slot  string `json:"slot,omitempty"`
	Value any    `json:"value,omitempty"`
	// Slots are the slots to fill when a flow starts, in order.
	Slots []SlotValue `json:"slots,omitempty"`
	// Flows are the flows a clarify command offers.
	Flows []string `json:"flows,omitempty"`
	// SmallTalk is the kind of small talk of a chitchat command (one of
	// ir.SmallTalkKinds: greet, thanks, goodbye, wait, ack), or "" when
	// the understanding layer did not say; pattern_chitchat reads it as
	// its small_talk slot.
	SmallTalk string `json:"small_talk,omitempty"`
}

// SlotValue is a slot name with a raw value.
type SlotValue struct {
	Slot  string `json:"slot"`
	Value any    `json:"value"`
}
