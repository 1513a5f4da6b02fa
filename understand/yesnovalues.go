package understand

import (
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/values"
)

// A categorical slot whose two values are a yes and a no ("Do you see an
// error message?" with values yes and no, as imported projects often
// declare them) is a yes/no question: "nope" and "yep, there's an error
// popping up" answer it as they answer a boolean slot, with the value
// that says so (docs/understanding.md, "Pending collect").

// yesNoValues are the values of a categorical slot that read as yes and
// as no, when it has exactly two values and they do.
func yesNoValues(def *ir.Slot) (yes, no string, ok bool) {
	if def == nil || def.Type != ir.TypeCategorical || len(def.Values) != 2 {
		return "", "", false
	}
	for _, v := range def.Values {
		y, isYesNo := values.YesNoExact(v.Value)
		switch {
		case !isYesNo:
			return "", "", false
		case y:
			yes = v.Value
		default:
			no = v.Value
		}
	}
	return yes, no, yes != "" && no != ""
}

// yesNoValue is the value of a yes/no slot (boolean, or categorical
// with a yes and a no value) that a yes or a no gives.
func yesNoValue(def *ir.Slot, yes bool) any {
	if y, n, ok := yesNoValues(def); ok {
		if yes {
			return y
		}
		return n
	}
	return yes
}
