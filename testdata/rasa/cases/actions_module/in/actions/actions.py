from rasa_sdk import Action
from rasa_sdk.events import SlotSet


class ActionCheckSoil(Action):
    def name(self):
        return "action_check_soil"

    def run(self, dispatcher, tracker, domain):
        return [SlotSet("soil_moisture", 0.42)]
