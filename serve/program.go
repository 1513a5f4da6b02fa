package serve

import (
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
)

// programJSON is the answer of GET /v1/program for one engine, made once.
type programJSON struct {
	eng  *soni.Engine
	once sync.Once
	body []byte
	err  error
}

// program answers the compiled program, the canonical IR JSON that soni
// compile writes, with the positions relative to the project: the
// inspector draws its graph from it, and a client has no business with
// this machine's directories.
func (s *Server) program(w http.ResponseWriter, _ *http.Request) {
	eng := s.eng.Load()
	p := s.programJSON.Load()
	if p == nil || p.eng != eng {
		p = &programJSON{eng: eng}
		s.programJSON.Store(p)
	}
	// The inspector draws the patterns' flows too: the program carries
	// soni's default patterns, marked builtin, where it defines none.
	p.once.Do(func() { p.body, p.err = encodeRelative(eng.Program(), s.opts.Project) })
	if p.err != nil {
		writeError(w, http.StatusInternalServerError, "internal", "the program could not be encoded")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(p.body)
}

// encodeRelative encodes prog with every position's file relative to the
// project's directory. A program whose positions are relative already
// (the compiler's own) is encoded as it is.
func encodeRelative(prog *ir.Program, project string) ([]byte, error) {
	base := ""
	if project != "" {
		if abs, err := filepath.Abs(soni.ProjectDir(project)); err == nil {
			base = abs
		}
	}
	rel := func(file string) string { return relativeFile(file, base) }
	if !anyPos(reflect.ValueOf(prog), func(p *diag.Pos) bool { return p.File != rel(p.File) }) {
		return ir.Encode(prog)
	}
	b, err := ir.Encode(prog)
	if err != nil {
		return nil, err
	}
	cp, err := ir.Decode(b) // a deep copy: the engine's program is shared
	if err != nil {
		return nil, err
	}
	anyPos(reflect.ValueOf(cp), func(p *diag.Pos) bool {
		p.File = rel(p.File)
		return false
	})
	return ir.Encode(cp)
}

// relativeFile makes file relative to base, with forward slashes. A
// relative file that names a file in base is relative to it already; one
// outside base keeps only its name.
func relativeFile(file, base string) string {
	if file == "" || strings.HasPrefix(file, ir.DefaultsDir) {
		return file // soni's default patterns name no file of this machine
	}
	if !filepath.IsAbs(file) {
		if base == "" {
			return filepath.ToSlash(file)
		}
		if _, err := os.Stat(filepath.Join(base, file)); err == nil && filepath.IsLocal(file) {
			return filepath.ToSlash(file)
		}
		abs, err := filepath.Abs(file)
		if err != nil {
			return filepath.Base(file)
		}
		file = abs
	}
	if base != "" {
		if r, err := filepath.Rel(base, file); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(r)
		}
	}
	return filepath.Base(file)
}

var posType = reflect.TypeFor[diag.Pos]()

// anyPos calls f on every diag.Pos reachable from v through pointers,
// structs and slices, until f returns true; it reports whether one did.
func anyPos(v reflect.Value, f func(*diag.Pos) bool) bool {
	switch v.Kind() {
	case reflect.Pointer:
		return !v.IsNil() && anyPos(v.Elem(), f)
	case reflect.Struct:
		if v.Type() == posType {
			return v.CanAddr() && f(v.Addr().Interface().(*diag.Pos))
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() && anyPos(v.Field(i), f) {
				return true
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if anyPos(v.Index(i), f) {
				return true
			}
		}
	}
	return false
}
