package convtest

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLoadKeepsNoParseTree: a loaded suite holds no value of the YAML
// library. Its tokens link to every other token of the file, so one node
// kept for --update held the whole parse (60% of the memory of a loaded
// 1,000-case file) while the cases ran.
func TestLoadKeepsNoParseTree(t *testing.T) {
	s := Load([]string{benchFile(t, 2)}, Options{})
	require.False(t, s.Diags.HasErrors(), "%v", s.Diags)
	require.NotEmpty(t, s.Files)
	assert.Empty(t, yamlValuesIn(reflect.ValueOf(s)), "values of the YAML library reachable from the suite")
}

// yamlValuesIn walks everything reachable from v and returns the paths of
// the go-yaml types it finds.
func yamlValuesIn(v reflect.Value) []string {
	var found []string
	seen := map[uintptr]bool{}
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		if !v.IsValid() {
			return
		}
		if pkg := v.Type().PkgPath(); strings.HasPrefix(pkg, "github.com/goccy/go-yaml") {
			found = append(found, path+" ("+v.Type().String()+")")
			return
		}
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() || seen[v.Pointer()] {
				return
			}
			seen[v.Pointer()] = true
			if strings.HasPrefix(v.Type().Elem().PkgPath(), "github.com/goccy/go-yaml") {
				found = append(found, path+" ("+v.Type().String()+")")
				return
			}
			walk(v.Elem(), path)
		case reflect.Interface:
			walk(v.Elem(), path)
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				walk(v.Field(i), path+"."+v.Type().Field(i).Name)
			}
		case reflect.Slice, reflect.Array:
			if v.Kind() == reflect.Slice && v.IsNil() {
				return
			}
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i), path+"[]")
			}
		case reflect.Map:
			it := v.MapRange()
			for it.Next() {
				walk(it.Key(), path+"{key}")
				walk(it.Value(), path+"{}")
			}
		}
	}
	walk(v, "suite")
	return found
}
