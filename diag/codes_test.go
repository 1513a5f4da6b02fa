package diag

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRulesCatalogue(t *testing.T) {
	codeRE := regexp.MustCompile(`^[EW][0-9]{3}$`)
	nameRE := regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)
	codes := map[string]bool{}
	names := map[string]string{}
	prev := ""
	for _, r := range Rules {
		t.Run(r.Code, func(t *testing.T) {
			assert.Regexp(t, codeRE, r.Code)
			assert.False(t, codes[r.Code], "code %q is listed twice", r.Code)
			if other, ok := names[r.Name]; ok {
				assert.Failf(t, "duplicate name", "name %q is used by %s and %s", r.Name, other, r.Code)
			}
			assert.Regexp(t, nameRE, r.Name)
			assert.NotEmpty(t, r.Summary)
			assert.NotEmpty(t, r.Help)
			assert.Greater(t, r.Code, prev, "rules are in code order")
			switch r.Code[0] {
			case 'E':
				assert.Equal(t, Error, r.Severity)
			case 'W':
				assert.Equal(t, Warning, r.Severity)
			}
			got := RuleOf(r.Code)
			require.NotNil(t, got)
			assert.Equal(t, r, *got)
			assert.Equal(t, r.Severity, SeverityOf(r.Code))
		})
		codes[r.Code] = true
		names[r.Name] = r.Code
		prev = r.Code
	}
	assert.Nil(t, RuleOf("E999"))
	assert.Equal(t, Error, SeverityOf("E999"))
	assert.Equal(t, Error, SeverityOf(""))
}
