package diag

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestListSort(t *testing.T) {
	a1 := Diagnostic{Pos: Pos{File: "a.yaml", Line: 1, Col: 1}, Severity: Error, Code: "E011", Message: "m"}
	a1w := Diagnostic{Pos: Pos{File: "a.yaml", Line: 1, Col: 1}, Severity: Warning, Code: "W001", Message: "m"}
	a1b := Diagnostic{Pos: Pos{File: "a.yaml", Line: 1, Col: 1}, Severity: Error, Code: "E011", Message: "n"}
	a1c := Diagnostic{Pos: Pos{File: "a.yaml", Line: 1, Col: 1}, Severity: Error, Code: "E030", Message: "m"}
	a2 := Diagnostic{Pos: Pos{File: "a.yaml", Line: 1, Col: 2}, Severity: Error, Code: "E011", Message: "m"}
	a10 := Diagnostic{Pos: Pos{File: "a.yaml", Line: 10, Col: 1}, Severity: Error, Code: "E011", Message: "m"}
	aNoLine := Diagnostic{Pos: Pos{File: "a.yaml"}, Severity: Warning, Code: "W011", Message: "empty"}
	b1 := Diagnostic{Pos: Pos{File: "b.yaml", Line: 1, Col: 1}, Severity: Error, Code: "E011", Message: "m"}
	none := Diagnostic{Severity: Error, Code: "E009", Message: "no flows"}
	withSugg := a1
	withSugg.Suggestion = "did you mean?"
	withPath := a1
	withPath.Path = "flows.x"

	tests := []struct {
		name string
		in   List
		want List
	}{
		{"nil", nil, nil},
		{"empty", List{}, List{}},
		{"one", List{a1}, List{a1}},
		{"file then line then column", List{b1, a10, a2, a1}, List{a1, a2, a10, b1}},
		{"lines compare as numbers", List{a10, a1}, List{a1, a10}},
		{"no position first, then file without line", List{b1, a1, aNoLine, none}, List{none, aNoLine, a1, b1}},
		{"errors before warnings at one position", List{a1w, a1}, List{a1, a1w}},
		{"then code, then message", List{a1c, a1b, a1}, List{a1, a1b, a1c}},
		{"exact duplicates removed", List{a1, b1, a1, a1}, List{a1, b1}},
		{"same code and message at another position kept", List{a2, a1}, List{a1, a2}},
		{"same position and code, other message kept", List{a1b, a1}, List{a1, a1b}},
		{"duplicates differing only in suggestion or path removed", List{withSugg, withPath, a1}, List{a1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := slices.Clone(tt.in)
			got.Sort()
			assert.Equal(t, tt.want, got)

			again := slices.Clone(got)
			again.Sort()
			assert.Equal(t, got, again, "sorting is idempotent")
		})
	}
}

func TestListSortIsDeterministic(t *testing.T) {
	base := List{
		{Pos: Pos{File: "b.yaml", Line: 2, Col: 1}, Severity: Warning, Code: "W004", Message: "x"},
		{Pos: Pos{File: "a.yaml", Line: 3, Col: 4}, Severity: Error, Code: "E011", Message: "y"},
		{Pos: Pos{File: "a.yaml", Line: 3, Col: 4}, Severity: Error, Code: "E011", Message: "y"},
		{Severity: Error, Code: "E009", Message: "z"},
		{Pos: Pos{File: "a.yaml", Line: 1, Col: 1}, Severity: Warning, Code: "W001", Message: "w"},
	}
	want := append(List(nil), base...)
	want.Sort()
	// Every rotation of the input sorts to the same list.
	for i := range base {
		in := append(append(List(nil), base[i:]...), base[:i]...)
		in.Sort()
		assert.Equal(t, want, in, "rotation %d", i)
	}
	assert.Len(t, want, 4)
}
