package compiler

import (
	"github.com/goccy/go-yaml/ast"
	"github.com/soni-dev/soni/diag"
)

// message reads a message field: a template string, or {response: NAME}.
// It returns the template or the response name; at most one is set.
func (d *decoder) message(e entry) (text, resp posStr) {
	if _, ok := d.unwrap(e.value).(*ast.MappingNode); ok {
		for _, f := range d.entries(e.value, e.key.Path) {
			if f.key.V == "response" {
				resp = d.scalarStr(f.value, f.key.Path)
			}
		}
		return posStr{}, resp
	}
	return d.scalarStr(e.value, e.key.Path), posStr{}
}

// response decodes a response: a list of variations (the schema checked
// the shape; anything else is skipped).
func (d *decoder) response(e entry) *response {
	r := &response{Name: e.key, Pos: e.key.Pos, Path: e.key.Path}
	for i, it := range d.items(e.value) {
		p := index(e.key.Path, i)
		v := &variation{Pos: d.itemPos(e.value, i, it), Path: p}
		for _, f := range d.entries(it, p) {
			switch f.key.V {
			case "text":
				v.Text = d.scalarStr(f.value, f.key.Path)
			case "image":
				v.Image = d.scalarStr(f.value, f.key.Path)
			case "channel":
				v.Channel = d.scalarStr(f.value, f.key.Path)
			case "custom":
				v.Custom = d.generic(f.value)
			case "condition":
				var sc *slotCond
				d.eachMapping(f, func(pos diag.Pos) {
					sc = &slotCond{Pos: pos}
					v.Condition = append(v.Condition, sc)
				}, func(g entry) {
					switch g.key.V {
					case "name":
						sc.Name = d.scalarStr(g.value, g.key.Path)
					case "value":
						sc.Value = d.generic(g.value)
					}
				})
			case "buttons":
				var bt *button
				d.eachMapping(f, func(pos diag.Pos) {
					bt = &button{Pos: pos}
					v.Buttons = append(v.Buttons, bt)
				}, func(g entry) {
					switch g.key.V {
					case "title":
						bt.Title = d.scalarStr(g.value, g.key.Path)
					case "payload":
						bt.Payload = d.scalarStr(g.value, g.key.Path)
					}
				})
			case "translation":
				for _, g := range d.entries(f.value, f.key.Path) {
					v.Translation = append(v.Translation, &translation{Lang: g.key, Text: d.scalarStr(g.value, g.key.Path)})
				}
			}
		}
		r.Variations = append(r.Variations, v)
	}
	return r
}

// eachMapping reads the list e holds as a list of mappings: item is
// called for each item with its position, then field for each entry.
func (d *decoder) eachMapping(e entry, item func(pos diag.Pos), field func(g entry)) {
	for j, it := range d.items(e.value) {
		item(d.itemPos(e.value, j, it))
		for _, g := range d.entries(it, index(e.key.Path, j)) {
			field(g)
		}
	}
}
