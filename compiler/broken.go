package compiler

import (
	"strings"

	"github.com/soni-dev/soni/diag"
)

// missingDefCodes are the diagnostics about a name that no file defines:
// when a file could not be parsed, the definition may be in it.
var missingDefCodes = map[string]bool{
	diag.CodeUnknownFlow:         true,
	diag.CodeUnknownSlot:         true,
	diag.CodeUnknownOutput:       true,
	diag.CodeUndeclaredAction:    true,
	diag.CodeUndeclaredValidator: true,
	diag.CodeConfirmLabel:        true,
}

// missingUseCodes are the diagnostics about a definition that nothing
// uses or starts: when a file could not be parsed, the use may be in it.
var missingUseCodes = map[string]bool{
	diag.CodeUnusedSlot:      true,
	diag.CodeUnusedAction:    true,
	diag.CodeUnstartableFlow: true,
}

// blameBroken keeps a file that could not be parsed from passing for
// mistakes in the others. The project-wide checks see only the files that
// parsed, so a flow, slot or action defined in a broken file looks
// undefined where it is used, and one used only there looks unused. Such
// diagnostics in the other files keep their code and position, and say
// that the broken file may be the cause, so that it is fixed first (its
// own errors sort first, diag.Less).
func blameBroken(ds diag.List, broken []string) {
	if len(broken) == 0 {
		return
	}
	files := quoteList(broken)
	if len(broken) > 1 {
		files = strings.Join([]string{quoteList(broken[:len(broken)-1]), quote(broken[len(broken)-1])}, " or ")
	}
	verb := "could not be parsed and may"
	if len(broken) > 1 {
		verb = "could not be parsed; one may"
	}
	for i := range ds {
		d := &ds[i]
		if contains(broken, d.Pos.File) {
			continue
		}
		switch {
		case missingDefCodes[d.Code]:
			d.Message += "; but " + files + " " + verb + " define it: fix that file first"
		case missingUseCodes[d.Code]:
			d.Message += "; but " + files + " " + verb + " use it: fix that file first"
		}
	}
}
