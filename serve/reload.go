package serve

import (
	"context"
	"net/http"
)

// Reloaded is what a reload did: the new program version, and what it
// does with the live sessions (soni deploy check's summary line).
type Reloaded struct {
	Version string `json:"version"`
	Summary string `json:"summary"`
}

// reload answers POST /v1/program/reload: it runs Options.Reload, which
// builds the project again and swaps the engine as SIGHUP does (soni
// serve sets it). A project that no longer compiles leaves the old
// program serving and is answered 422 with the reason.
func (s *Server) reload(w http.ResponseWriter, r *http.Request) {
	if s.opts.Reload == nil {
		writeError(w, http.StatusNotFound, "not_found", "this server cannot reload its program: soni serve can (POST /v1/program/reload, or SIGHUP)")
		return
	}
	res, err := s.opts.Reload(context.WithoutCancel(r.Context()))
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, "reload_failed", "the reload failed and the old program stays: "+err.Error())
		return
	}
	writeJSON(w, http.StatusOK, res)
}
