package compiler

import (
	"path/filepath"
	"reflect"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
)

// relativize rewrites every position of a compiled program so that its
// file is relative to the project root (slash-separated), whatever way
// the project's path was typed: `soni compile flows/banking`,
// `./flows/banking/` and an absolute path give the same bytes and hash,
// and a served program does not show where the project lives. files are
// the project's file names as read; a position naming another file is
// left alone.
//
// The walk uses reflection so that a position added to the IR later is
// rewritten too without a change here.
func relativize(prog *ir.Program, root string, files []string) {
	rel := make(map[string]string, len(files))
	for _, f := range files {
		if r, err := filepath.Rel(root, filepath.FromSlash(f)); err == nil {
			rel[f] = filepath.ToSlash(r)
		}
	}
	posType := reflect.TypeFor[diag.Pos]()
	seen := map[uintptr]bool{}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() || seen[v.Pointer()] {
				return
			}
			seen[v.Pointer()] = true
			walk(v.Elem())
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Struct:
			if v.Type() == posType {
				if f := v.FieldByName("File"); f.CanSet() {
					// Only a rewrite that changes something writes:
					// soni's default patterns are shared by every
					// program, and never rewritten.
					if r, ok := rel[f.String()]; ok && r != f.String() {
						f.SetString(r)
					}
				}
				return
			}
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		case reflect.Map:
			// Map values cannot be set in place: positions in maps are
			// copied out, rewritten and stored back.
			for _, k := range v.MapKeys() {
				e := v.MapIndex(k)
				if e.Kind() == reflect.Pointer || e.Kind() == reflect.Interface {
					walk(e)
					continue
				}
				c := reflect.New(e.Type()).Elem()
				c.Set(e)
				walk(c)
				v.SetMapIndex(k, c)
			}
		}
	}
	walk(reflect.ValueOf(prog))
}
