package compiler

import "github.com/soni-dev/soni/diag"

// check_templates reports malformed templates (E034) at the brace that is
// wrong.
func checkTemplates(c *checker) {
	for _, u := range c.tmpls {
		if u.Err == nil {
			continue
		}
		line, col := runeLineCol(u.Src.V, u.Err.Offset)
		c.ds.Add(u.Src.At(line, col), diag.CodeTemplate, u.Src.Path, "%s", u.Err.Msg)
	}
}
