package understand

// A word that only shares a stem with a value is never the value
// (docs/understanding.md, "A categorical value in another form"): "I
// tried charging it" is no billing ticket though "charging" and the
// synonym "charge" share the stem "charg". The forms of a word that keep
// its sense are its plural and its past ("charges", "charged"); a form
// in -ing names an activity of its own ("charging" a battery, "booking"
// a table) and counts only when the lexicon lists it in a group
// ("crashing" with "crash": a problem).

// keepsSense reports whether a word of a message may stand for a value
// word it shares a stem with.
func (r *Rules) keepsSense(w string) bool {
	if !endsIn(w, activityEndings) || len(w) <= 5 {
		return true
	}
	if r.mean == nil {
		return false
	}
	_, listed := r.mean.lex.words[w]
	return listed
}
