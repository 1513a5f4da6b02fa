package understand

import (
	"regexp"
	"strings"
	"time"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// A date a question asks for in a layout it names (docs/understanding.md,
// "Text slots that hold an amount or a date"). An imported project often
// keeps a date in a text slot and says in its question how to write it
// ("Please use mm/dd/yyyy format"), with a validation that checks that
// layout. The question's layout then says how an all-numeric answer is
// read (03/02/2027 is March 2nd after mm/dd/yyyy) and how the date is
// stored: "03/02/2027" stays "03/02/2027" and "5 March 2027" becomes
// "03/05/2027", instead of the ISO date a date slot stores.

// dateLayoutRE is a layout of day, month and year in a question: dd, mm
// and yyyy in any order, joined by one separator.
var dateLayoutRE = regexp.MustCompile(`(?i)\b(dd|mm|yyyy)([/.-])(dd|mm|yyyy)([/.-])(dd|mm|yyyy)\b`)

// dateLayout is a layout a question names: the Go layout that writes it
// and the order in which it reads an all-numeric date ("" when the year
// comes first, which reads one way only).
type dateLayout struct {
	layout string
	order  values.DateOrder
}

// askedDateLayout is the date layout a question names, if it names one
// with a day, a month and a year, each once, and one separator.
func askedDateLayout(prompt string) (dateLayout, bool) {
	if !mayLayDate(prompt) {
		return dateLayout{}, false
	}
	m := dateLayoutRE.FindStringSubmatch(prompt)
	if m == nil || m[2] != m[4] {
		return dateLayout{}, false
	}
	// The Go layout of each part, by its letter: day, month, year.
	goLayout := func(part string) string {
		switch part[0] {
		case 'd':
			return "02"
		case 'm':
			return "01"
		}
		return "2006"
	}
	parts := []string{strings.ToLower(m[1]), strings.ToLower(m[3]), strings.ToLower(m[5])}
	seen := map[string]bool{}
	var layout []string
	for _, p := range parts {
		if seen[p] {
			return dateLayout{}, false
		}
		seen[p] = true
		layout = append(layout, goLayout(p))
	}
	var order values.DateOrder
	switch {
	case parts[0] == "mm" && parts[1] == "dd", parts[1] == "mm" && parts[2] == "dd":
		order = values.DateMDY
	case parts[0] == "dd" && parts[1] == "mm", parts[1] == "dd" && parts[2] == "mm":
		order = values.DateDMY
	}
	return dateLayout{layout: strings.Join(layout, m[2]), order: order}, true
}

// mayLayDate reports whether a text may hold a layout dateLayoutRE
// matches: one has a d, m or y (either case) right before a separator.
// Most questions have none, and are not run through the expression.
func mayLayDate(s string) bool {
	for i := 1; i < len(s); i++ {
		if c := s[i]; c == '/' || c == '.' || c == '-' {
			if p := s[i-1] | 0x20; p == 'd' || p == 'm' || p == 'y' {
				return true
			}
		}
	}
	return false
}

// pendingDateLayout is the layout the pending question names, when it
// asks for a text slot the rules read as a date (readas.go).
func (r *Rules) pendingDateLayout(v vm.View) (dateLayout, bool) {
	p := v.Pending
	if p == nil || p.Kind != vm.PendingCollect || r.prog == nil {
		return dateLayout{}, false
	}
	x := r.readAs[r.prog.ResolveSlot(p.Flow, p.Slot)]
	if x == nil || x.Type != ir.TypeDate {
		return dateLayout{}, false
	}
	return askedDateLayout(p.Prompt)
}

// inLayout writes the dates the reading gives the pending slot in the
// layout its question names.
func (r *Rules) inLayout(rd Reading, l dateLayout, v vm.View) Reading {
	for i, c := range rd.Commands {
		if (c.Kind != vm.CmdSetSlot && c.Kind != vm.CmdCorrectSlot) || c.Slot != v.Pending.Slot {
			continue
		}
		s, ok := c.Value.(string)
		if !ok {
			continue
		}
		if t, err := time.Parse("2006-01-02", s); err == nil {
			rd.Commands[i].Value = t.Format(l.layout)
		}
	}
	return rd
}

// slotDateLayout is the layout the question that asks for a slot names,
// when the rules read the slot as a date: its flow's collect of it, by
// the collect's message or the variations of its response.
func (r *Rules) slotDateLayout(flow, slot string) (dateLayout, bool) {
	if r.prog == nil {
		return dateLayout{}, false
	}
	if x := r.readAs[r.prog.ResolveSlot(flow, slot)]; x == nil || x.Type != ir.TypeDate {
		return dateLayout{}, false
	}
	f := r.prog.Flow(flow)
	if f == nil {
		return dateLayout{}, false
	}
	for _, n := range f.Nodes {
		if n == nil || n.Kind != ir.KindCollect || n.Slot != slot || n.Message == nil {
			continue
		}
		texts := []string{n.Message.Src}
		if resp := r.prog.Response(n.Message.Response); n.Message.Response != "" && resp != nil {
			for _, va := range resp.Variations {
				if va != nil && va.Text != nil {
					texts = append(texts, va.Text.Src)
				}
			}
		}
		for _, t := range texts {
			if l, ok := askedDateLayout(t); ok {
				return l, true
			}
		}
	}
	return dateLayout{}, false
}

// correctionsInLayout writes the dates the reading gives, by a
// correction, to a slot other than the pending one in the layout its
// own question names: "sorry, the date was 03/03/2027" at a later
// question stays 03/03/2027 when the date's question asked for
// mm/dd/yyyy.
func (r *Rules) correctionsInLayout(rd Reading, v vm.View) Reading {
	if len(r.readAs) == 0 || v.Pending == nil {
		return rd
	}
	flows := []string{v.Pending.Flow}
	if u := interrupted(v.Pending, v); u != "" {
		flows = append(flows, u)
	}
	for i, c := range rd.Commands {
		if c.Kind != vm.CmdCorrectSlot || c.Slot == v.Pending.Slot {
			continue
		}
		s, ok := c.Value.(string)
		if !ok {
			continue
		}
		t, err := time.Parse("2006-01-02", s)
		if err != nil {
			continue
		}
		for _, flow := range flows {
			if l, ok := r.slotDateLayout(flow, c.Slot); ok {
				rd.Commands[i].Value = t.Format(l.layout)
				break
			}
		}
	}
	return rd
}
