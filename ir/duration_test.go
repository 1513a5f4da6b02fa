package ir

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseDuration(t *testing.T) {
	tests := []struct {
		in      string
		want    time.Duration
		wantErr bool
	}{
		{in: "5s", want: 5 * time.Second},
		{in: "200ms", want: 200 * time.Millisecond},
		{in: "5", want: 5 * time.Second},
		{in: "0.5", want: 500 * time.Millisecond},
		{in: "0", wantErr: true},
		{in: "-1s", wantErr: true},
		{in: "soon", wantErr: true},
		{in: "", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseDuration(tc.in)
			if tc.wantErr {
				require.Error(t, err)
				assert.Contains(t, err.Error(), "invalid duration")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}
