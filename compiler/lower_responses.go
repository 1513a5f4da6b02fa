package compiler

import (
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
)

// lowerResponse lowers a response and its variations.
func lowerResponse(r *syntax.Response) *ir.Response {
	out := &ir.Response{Name: r.Name.V, Pos: r.Pos}
	for _, v := range r.Variations {
		lv := &ir.Variation{Text: tmplOf(v.Text), Image: v.Image.V, Custom: v.Custom, Channel: v.Channel.V, Pos: v.Pos}
		for _, c := range v.Condition {
			lv.Condition = append(lv.Condition, ir.SlotCondition{Slot: c.Name.V, Value: c.Value})
		}
		for _, b := range v.Buttons {
			lv.Buttons = append(lv.Buttons, ir.Button{Title: b.Title.V, Payload: b.Payload.V})
		}
		for _, t := range v.Translation {
			if lv.Translation == nil {
				lv.Translation = map[string]*ir.Template{}
			}
			if _, dup := lv.Translation[t.Lang.V]; !dup {
				lv.Translation[t.Lang.V] = tmplOf(t.Text)
			}
		}
		out.Variations = append(out.Variations, lv)
	}
	return out
}
