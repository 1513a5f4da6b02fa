package values

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestISODateIsSprintf: isoDate writes what fmt.Sprintf("%04d-%02d-%02d")
// writes, for every day of years across the range, written as ISO or not.
func TestISODateIsSprintf(t *testing.T) {
	for _, y := range []int{1, 9, 10, 99, 100, 999, 1000, 1999, 2024, 2027, 9999} {
		for m := time.January; m <= time.December; m++ {
			for day := 1; day <= 31; day++ {
				if !validDate(y, m, day) {
					continue
				}
				want := fmt.Sprintf("%04d-%02d-%02d", y, int(m), day)
				assert.Equal(t, want, isoDate(y, m, day, "5 March"))
				assert.Equal(t, want, isoDate(y, m, day, want))
			}
		}
	}
}
