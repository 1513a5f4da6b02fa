package understand

import (
	"strings"

	lexdata "github.com/soni-dev/soni/lexicon"
)

// The lexicon's sections for the words the rules once compared in code,
// one word or two at a time (docs/understanding.md, "The lexicon"). Each
// is named for what it does; the words are in lexicon/en.yaml and
// lexicon/es.yaml.
var (
	// pronounWishTails may end a wish that stands for the flow on top
	// ("I don't want to do this anymore").
	pronounWishTails = lexdata.Set("pronoun_wish_tails")
	// alonePhrases are a count of one person ("on my own").
	alonePhrases = lexdata.Set("alone_phrases")
	// groupPronouns name a group the speaker is in ("the two of us").
	groupPronouns = lexdata.Set("group_pronouns")
	// countLinks join a count and what it counts ("two of us", "a couple
	// of nights").
	countLinks = lexdata.Set("count_links")
	// coupleWords count two before countLinks or a night word.
	coupleWords = lexdata.Set("couple_words")
	// personCountWords and nightCountWords are the words a count of
	// people or of nights may come with; a number slot whose words
	// (unitOf) hold one counts people or nights.
	personCountWords = lexdata.Get("person_count_words")
	nightCountWords  = lexdata.Get("night_count_words")
	// lengthLeads come before a length of stay ("for a week").
	lengthLeads = lexdata.Set("length_leads")
	// pluralEndings end a plural noun unless a notPluralEndings does
	// ("kids", not "class").
	pluralEndings, notPluralEndings = lexdata.Get("plural_endings"), lexdata.Get("not_plural_endings")
	// activityEndings end a word that names an activity of its own
	// ("charging", "booking"): see keepsSense.
	activityEndings = lexdata.Get("activity_endings")
	// listAfterPairs are two words that are one list_after_words word
	// ("as well" is "aswell").
	listAfterPairs = lexdata.Map("list_after_pairs")
	// clauseNegations negate only inside a clause or before a negated
	// copula ("there is no rush"), not alone at the start ("no").
	clauseNegations = lexdata.Set("clause_negations")
	// requestLeadStarts are question fillers that start a request lead
	// instead ("and also").
	requestLeadStarts = lexdata.Set("request_lead_starts")
	// noneOfNouns are not_value_cues words that say nothing about the
	// value after a none_before word ("without any currency sign").
	noneOfNouns = lexdata.Set("none_of_nouns")
	// countAsks are two words that ask for a number ("how many").
	countAsks = lexdata.Set("count_asks")
	// slotCountLeads may come before a slot's name in a correction ("the
	// number of guests").
	slotCountLeads = lexdata.Phrases("slot_count_leads")
	// politePairs are two polite words that may end a value ("Bob thank
	// you"); trailing_polite holds the single ones.
	politePairs = lexdata.Set("polite_pairs")
	// capitalPronouns are always written with a capital and name no one
	// ("I").
	capitalPronouns = lexdata.Set("capital_pronouns")
	// momentAlone are moment_units words that ask for a moment on their
	// own ("¿momento?").
	momentAlone = lexdata.Set("moment_alone")
	// numberJoiners may join the words of one number ("two hundred and
	// ten"): no word of a count's unit.
	numberJoiners = lexdata.Set("number_joiners")
	// cancelVerbPairs are two-word cancel verbs and the one word they
	// stand for ("never mind the ticket" is "forget the ticket").
	cancelVerbPairs = lexdata.Map("cancel_verb_pairs")
	// speakerSubjects are the speaker as a subject ("I'll do it later").
	speakerSubjects = lexdata.Set("speaker_subjects")
	// valuePronouns stand for values said before ("use them for the
	// amount"), besides pronoun_objects.
	valuePronouns = lexdata.Set("value_pronouns")
	// usedAsLinks come between a value and the slot it is used as ("use
	// Maria as the recipient", "60 for the amount").
	usedAsLinks, usedAsLinkPhrases = lexdata.Get("used_as_links"), lexdata.Phrases("used_as_links")
	// oldValueNegations start an old value said before the new one ("not
	// 50, I meant 55").
	oldValueNegations = lexdata.Set("old_value_negations")
)

// endsIn reports whether w ends in one of endings.
func endsIn(w string, endings []string) bool {
	for _, e := range endings {
		if strings.HasSuffix(w, e) {
			return true
		}
	}
	return false
}

// startsWithAny reports whether w starts with one of words ("nights"
// with "night").
func startsWithAny(w string, words []string) bool {
	for _, p := range words {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// holdsAny reports whether set holds one of words, as written.
func holdsAny(set map[string]bool, words []string) bool {
	for _, w := range words {
		if set[w] {
			return true
		}
	}
	return false
}

// lastWordOf is the index of the space before the last of words that s
// holds between spaces, or -1.
func lastWordOf(s string, words []string) int {
	i := -1
	for _, w := range words {
		i = max(i, strings.LastIndex(s, " "+w+" "))
	}
	return i
}
