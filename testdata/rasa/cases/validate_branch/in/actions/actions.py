from rasa_sdk import Action
from rasa_sdk.events import SlotSet


class ValidateCheckIn(Action):
    def name(self):
        return "validate_check_in"

    def run(self, dispatcher, tracker, domain):
        value = tracker.get_slot("check_in")
        if value == "yesterday":
            dispatcher.utter_message(text="That date is in the past.")
            return [SlotSet("check_in", None)]
        return [SlotSet("check_in", value), SlotSet("check_in_readable", value.title())]
