package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestClockOf(t *testing.T) {
	c, err := clockOf("")
	require.NoError(t, err)
	assert.Nil(t, c, "the real clock")
	c, err = clockOf("2027-03-10")
	require.NoError(t, err)
	assert.Equal(t, time.Date(2027, 3, 10, 0, 0, 0, 0, time.UTC), c())
	_, err = clockOf("next week")
	assert.EqualError(t, err, `-today "next week" is not a date like 2026-03-15`)
}
