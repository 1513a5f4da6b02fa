package ir

// DefaultsDir is the directory the positions of soni's default patterns
// and their responses name: the compiler compiles them from the YAML
// files embedded in it (compiler/defaults/), and a [Program] carries
// each one its project does not define, marked Builtin.
const DefaultsDir = "<soni defaults>/"

// DefaultsFile is the file of the default patterns and their responses,
// as positions name it.
const DefaultsFile = DefaultsDir + "patterns.yaml"

// The responses the default patterns say (Rasa's names where Rasa has
// one). A project that defines a response of one of these names changes
// what the default pattern says without overriding the pattern.
const (
	ResponseAskRephrase         = "utter_ask_rephrase"
	ResponseCannotHandle        = "utter_cannot_handle"
	ResponseCanDoSomethingElse  = "utter_can_do_something_else"
	ResponseClarification       = "utter_clarification_options_rasa"
	ResponseCodeChange          = "utter_inform_code_change"
	ResponseCorrected           = "utter_corrected_previous_input"
	ResponseFlowCancelled       = "utter_flow_cancelled_rasa"
	ResponseContinueInterrupted = "utter_flow_continue_interrupted"
	ResponseChitchat            = "utter_free_chitchat_response"
	// The answers of the default pattern_chitchat to each kind of small
	// talk (SmallTalkKinds); utter_free_chitchat_response answers the
	// rest.
	ResponseGreet         = "utter_greet"
	ResponseYouAreWelcome = "utter_you_are_welcome"
	ResponseGoodbye       = "utter_goodbye"
	ResponseTakeYourTime  = "utter_take_your_time"
	ResponseAcknowledge   = "utter_acknowledge"
	ResponseHelp          = "utter_help"
	ResponseHumanHandoff  = "utter_human_handoff_not_available"
	ResponseInternalError = "utter_internal_error_rasa"
	ResponseSkipQuestion  = "utter_skip_question_answer"
	// The default messages of an invalid value of a categorical, boolean
	// or numeric slot go by these names (their text is soni's default
	// invalid message); a project may define them.
	ResponseCategoricalRejection = "utter_categorical_slot_rejection"
	ResponseBooleanRejection     = "utter_boolean_slot_rejection"
	ResponseFloatRejection       = "utter_float_slot_rejection"
)

// DefaultResponses lists the names of the responses the default patterns
// say, sorted.
var DefaultResponses = []string{
	ResponseAskRephrase, ResponseCanDoSomethingElse, ResponseCannotHandle, ResponseClarification, ResponseCodeChange,
	ResponseCorrected, ResponseFlowCancelled, ResponseContinueInterrupted,
	ResponseChitchat, ResponseHelp, ResponseHumanHandoff, ResponseInternalError,
	ResponseSkipQuestion, ResponseBooleanRejection, ResponseCategoricalRejection, ResponseFloatRejection,
	ResponseAcknowledge, ResponseGoodbye, ResponseGreet, ResponseTakeYourTime, ResponseYouAreWelcome,
}
