//go:build linux

package supervise

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCommandEnvRoundTrip: the command's environment goes through the
// supervisor's unchanged, whatever its variables hold, and none of the
// supervisor's own variables leaks into it.
func TestCommandEnvRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		env  []string
	}{
		{name: "empty", env: []string{}},
		{name: "plain", env: []string{"PATH=/bin", "HOME=/home/ana"}},
		{name: "values with = and newlines", env: []string{"A=b=c", "B=line1\nline2", "C="}},
		{name: "names like ours", env: []string{"SONI_ACTION_ENV_0=x", "SONI_ACTION_SUPERVISOR=1", "GORACE=halt_on_error=1"}},
		{name: "many", env: []string{"V0=0", "V1=1", "V2=2", "V3=3", "V4=4", "V5=5", "V6=6", "V7=7", "V8=8", "V9=9", "V10=10", "V11=11"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sup := supervisorEnv(tc.env)
			assert.Contains(t, sup, envKey+"="+envValue)
			assert.Equal(t, tc.env, commandEnv(sup))
		})
	}
}
