package ir

import "github.com/soni-dev/soni/diag"

// Response is a named message with its variations, shaped like a Rasa
// domain response. A step says it with response: NAME instead of a
// message; a collect with no message asks with utter_ask_SLOT.
type Response struct {
	Name string `json:"name"`
	// Variations are tried as the VM's response rule says: the ones of the
	// turn's channel first, then, among them, the first whose condition
	// holds, else one without a condition chosen by a hash of the session
	// and the revision.
	Variations []*Variation `json:"variations"`
	// Builtin is true for a response soni provides for its default
	// patterns, because the project does not define one of that name.
	Builtin bool     `json:"builtin,omitempty"`
	Pos     diag.Pos `json:"pos"`
}

// Variation is one way of saying a response.
type Variation struct {
	// Text is the message, a template; nil for a variation that only has
	// an image, buttons or a custom payload.
	Text *Template `json:"text,omitempty"`
	// Condition holds when every slot condition holds; an empty one
	// always holds.
	Condition []SlotCondition `json:"condition,omitempty"`
	Buttons   []Button        `json:"buttons,omitempty"`
	Image     string          `json:"image,omitempty"`
	// Custom is any JSON value, passed through to the channel as given.
	Custom any `json:"custom,omitempty"`
	// Channel limits the variation to one channel ("rest", "chat",
	// "test"); "" is for every channel.
	Channel string `json:"channel,omitempty"`
	// Translation maps a language code to the text in that language.
	Translation map[string]*Template `json:"translation,omitempty"`
	Pos         diag.Pos             `json:"pos"`
}

// SlotCondition is one condition of a variation: the slot holds the value
// (compared by its text, so 5 matches "5"), or is unset when Value is nil.
type SlotCondition struct {
	Slot  string `json:"slot"`
	Value any    `json:"value"`
}

// Button is a quick reply: a title to show and the payload sent back as
// the user's message when it is chosen.
type Button struct {
	Title   string `json:"title"`
	Payload string `json:"payload"`
}

// HasExtras reports whether the variation has buttons, an image or a
// custom payload.
func (v *Variation) HasExtras() bool {
	return len(v.Buttons) > 0 || v.Image != "" || v.Custom != nil
}

// LanguageSlot is the conversation slot that holds the session's
// language when it is declared: responses say their translation into it.
const LanguageSlot = "language"

// AskResponse is the name of the response a collect of slot asks with when
// it has no message: utter_ask_SLOT, as in Rasa.
func AskResponse(slot string) string { return "utter_ask_" + slot }
