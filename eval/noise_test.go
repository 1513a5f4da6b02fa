package eval

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/understand"
	"github.com/soni-dev/soni/understand/llm"
	"github.com/soni-dev/soni/vm"
)

// TestNoisyAnswer: the noisy oracle gives the same answer for the same
// seed and case, a different one for another seed, every kind of noise
// on the banking and travel sets, and answers that are noise around the labelled
// commands: a line is never a command the label does not hold.
func TestNoisyAnswer(t *testing.T) {
	seen := map[string]int{}
	changed, total := 0, 0
	for _, path := range []string{"../evals/banking.eval.yaml", "../evals/travel.eval.yaml"} {
		f, prog, dir, err := Load(path)
		require.NoError(t, err)
		total += len(f.Cases)
		_, err = RunWith(context.Background(), "banking", f, prog, dir, understand.New(prog), Hooks{BeforeCaseIn: func(i int, c Case, want []vm.Command, v vm.View) {
			for seed := uint64(1); seed <= 3; seed++ {
				a, kinds := NoisyAnswer(seed, i, c, want, v)
				b, again := NoisyAnswer(seed, i, c, want, v)
				assert.Equal(t, a, b, c.Name)
				assert.Equal(t, kinds, again, c.Name)
				require.NotEmpty(t, kinds, c.Name)
				for _, k := range kinds {
					seen[k]++
				}
				if a != llm.FormatCommands(want) {
					changed++
				}
				// The commands' kinds survive the noise, and no more.
				raws, _ := llm.ParseCommands(a)
				clean, _ := llm.ParseCommands(llm.FormatCommands(want))
				assert.Len(t, raws, len(clean), "%s: %q", c.Name, a)
			}
		}})
		require.NoError(t, err)
	}
	for _, k := range NoiseKinds {
		assert.Positive(t, seen[k], "kind %s never chosen", k)
	}
	assert.Greater(t, changed, 3*total*9/10, "most answers carry noise")
}
