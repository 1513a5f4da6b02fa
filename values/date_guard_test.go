package values

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestYearBesideSeparatorGuardsThePatterns checks that the numeric date
// patterns never match where yearBesideSeparator says they cannot, on
// random strings of digits, separators, spaces and letters.
func TestYearBesideSeparatorGuardsThePatterns(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const alphabet = "0123456789012345-/. a"
	for range 200000 {
		b := make([]byte, r.IntN(16))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		s := string(b)
		iso, dmy := yearBesideSeparator(s)
		if !iso {
			require.Nil(t, reISO.FindStringIndex(s), "%q", s)
		}
		if !dmy {
			require.Nil(t, reDMY.FindStringIndex(s), "%q", s)
		}
	}
}
