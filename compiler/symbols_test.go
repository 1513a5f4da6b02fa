package compiler

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSymbols(t *testing.T) {
	t.Parallel()
	src := `slots:
  city:
    type: categorical
    values: [madrid, paris]
actions:
  book:
    inputs: [city]
    outputs: [ref]
responses:
  utter_done:
    - text: "Booked {city}"
flows:
  trip:
    description: Book a trip
    slots:
      - name: ref
        type: text
    steps:
      - step: ask
        type: collect
        slot: city
        message: "Where to?"
      - step: check
        type: say
        condition: city == "paris" && slots["city"] != ""
        message: "Paris, then"
        jump_to: run
      - step: run
        type: action
        call: book
        map_outputs:
          ref: ref
      - step: done
        type: say
        response: utter_done
      - step: more
        type: link
        target: other
  other:
    steps:
      - step: hi
        type: say
        message: "Hi {city}, {ref}"
`
	r := CompileSourcesIndexed([]Source{{Name: "t.yaml", Src: []byte(src)}}, Options{})
	s := r.Symbols()
	require.NotNil(t, s)
	var got []string
	for _, o := range s.Occs {
		got = append(got, fmt.Sprintf("%d:%d %s def=%v sets=%v", o.Pos.Line, o.Pos.Col, o.ID, o.Def, o.Sets))
	}
	assert.Equal(t, []string{
		"2:3 slot city def=true sets=false",
		"6:3 action book def=true sets=false",
		"7:14 slot city def=false sets=false",
		"10:3 response utter_done def=true sets=false",
		"11:22 slot city def=false sets=false",
		"13:3 flow trip def=true sets=false",
		"16:15 slot trip.ref def=true sets=false",
		"19:15 step trip.ask def=true sets=false",
		"21:15 slot city def=false sets=true",
		"23:15 step trip.check def=true sets=false",
		"25:20 slot city def=false sets=false",
		"25:46 slot city def=false sets=false",
		"27:18 step trip.run def=false sets=false",
		"28:15 step trip.run def=true sets=false",
		"30:15 action book def=false sets=false",
		"32:16 slot trip.ref def=false sets=true",
		"33:15 step trip.done def=true sets=false",
		"35:19 response utter_done def=false sets=false",
		"36:15 step trip.more def=true sets=false",
		"38:17 flow other def=false sets=false",
		"39:3 flow other def=true sets=false",
		"41:15 step other.hi def=true sets=false",
		"43:23 slot city def=false sets=false",
	}, got)
	defs := map[string]*Definition{}
	for _, d := range s.Defs {
		defs[d.ID.String()] = d
	}
	assert.Equal(t, []string{"madrid", "paris"}, defs["slot city"].Values)
	assert.Equal(t, "categorical", defs["slot city"].Type)
	assert.Equal(t, []string{"city"}, defs["action book"].Inputs)
	assert.Equal(t, []string{"ref"}, defs["action book"].Outputs)
	assert.Equal(t, []string{"Booked {city}"}, defs["response utter_done"].Variations)
	assert.Equal(t, "Book a trip", defs["flow trip"].Description)
	assert.Equal(t, []string{"ref"}, defs["flow trip"].Slots)
	assert.Equal(t, []string{"ask", "check", "run", "done", "more"}, defs["flow trip"].Steps)
	assert.Equal(t, "action", defs["step trip.run"].Type)
	// {ref} in flow other names no slot it sees: no occurrence. A plain
	// compile keeps no index.
	assert.Nil(t, CompileSource("t.yaml", []byte(src), Options{}).Symbols())
}
