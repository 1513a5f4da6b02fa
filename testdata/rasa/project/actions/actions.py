from typing import Any, Dict, List, Text

from rasa_sdk import Action, Tracker
from rasa_sdk.events import SlotSet
from rasa_sdk.executor import CollectingDispatcher


def ledger_balance(sender_id: Text) -> float:
    return 1200.0


class CheckFunds(Action):
    def name(self) -> Text:
        return "action_check_funds"

    def run(self, dispatcher: CollectingDispatcher, tracker: Tracker, domain: Dict[Text, Any]) -> List[Dict[Text, Any]]:
        amount = tracker.get_slot("amount")
        return [SlotSet("has_funds", amount <= ledger_balance(tracker.sender_id))]


class ExecuteTransfer(Action):
    def name(self) -> Text:
        # the name Rasa calls it by
        return "action_execute_transfer"

    def run(self, dispatcher, tracker, domain):
        payees = tracker.slots.get("recent_payees") or []
        payees.append(tracker.get_slot("recipient"))
        return [SlotSet("transfer_ok", True), SlotSet(key="recent_payees", value=payees)]


class GetBalance(Action):
    def name(self):
        return 'action_get_balance'

    def run(self, dispatcher, tracker, domain):
        dispatcher.utter_message(text="Let me look that up.")
        return [SlotSet("balance", ledger_balance(tracker.sender_id))]


class GuessColour(Action):
    def name(self):
        return "action_guess_colour"

    def run(self, dispatcher, tracker, domain):
        slot = "favourite_colour"
        return [SlotSet(slot, "green")]


class AskFeedback(Action):
    def name(self):
        return "action_ask_feedback_text"

    def run(self, dispatcher, tracker, domain):
        dispatcher.utter_message(response="utter_ask_support_reason")
        return []
