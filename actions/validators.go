package actions

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/soni-dev/soni/internal/jsonval"
	"github.com/soni-dev/soni/tmpl"
	"github.com/soni-dev/soni/vm"
)

// RegisterValidator binds a validator name to a Go function, replacing any
// earlier one. A registered function is used before the declaration's run
// block, as for actions.
func (r *Runner) RegisterValidator(name string, fn vm.ValidatorFunc) {
	r.validators.Register(name, fn)
}

// validatorRequest is the JSON object a validator's command reads and its
// endpoint receives.
type validatorRequest struct {
	Validator string `json:"validator"`
	Session   string `json:"session"`
	Slot      string `json:"slot"`
	Value     any    `json:"value"`
}

// RunValidator runs one named validator: the registered function, else
// the declared exec command, else the declared http endpoint, within the
// declaration's timeout (else Options.Timeout). A command or endpoint gets
// {"validator", "session", "slot", "value"} and answers one JSON object
// {"valid": bool, "value"?: any, "message"?: string}; anything else is a
// failure of the validator.
func (r *Runner) RunValidator(ctx context.Context, req vm.ValidatorRequest) (vm.Verdict, error) {
	decl := req.Decl
	if decl == nil && r.prog != nil {
		decl = r.prog.Validator(req.Validator)
	}
	times := r.timesOf("validator", decl)
	if times.err != nil {
		return vm.Verdict{}, times.err
	}
	if fn := r.validators.Lookup(req.Validator); fn != nil {
		return runGo(ctx, times.timeout, "validator", req.Validator, func(ctx context.Context) (vm.Verdict, error) {
			return fn(ctx, req)
		})
	}
	if decl == nil || decl.Run == nil || (len(decl.Run.Exec) == 0 && decl.Run.HTTP == nil) {
		return vm.Verdict{}, fmt.Errorf("validator %q has no runner: declare it under validators with run: exec/http, register a Go function (Engine.RegisterValidator), or stub it in tests (stub_validators)", req.Validator)
	}
	body, err := json.Marshal(validatorRequest{Validator: req.Validator, Session: req.Session, Slot: req.Slot, Value: req.Value})
	if err != nil {
		return vm.Verdict{}, fmt.Errorf("validator %q: cannot encode value %q as JSON: %v", req.Validator, tmpl.Format(req.Value), err)
	}
	var out map[string]any
	if len(decl.Run.Exec) > 0 {
		out, err = r.runExec(ctx, body, decl, times.timeout)
	} else {
		out, err = r.runHTTP(ctx, "validator", body, decl, times)
	}
	if err != nil {
		return vm.Verdict{}, err
	}
	return verdictOf(req.Validator, out)
}

// verdictOf reads a validator's answer: "valid" must be a boolean,
// "message" a string when given; "value" may be any JSON value.
func verdictOf(name string, out map[string]any) (vm.Verdict, error) {
	var v vm.Verdict
	valid, ok := out["valid"].(bool)
	if !ok {
		return v, fmt.Errorf("validator %q answered without a boolean %q: answer {\"valid\": true} or {\"valid\": false, \"message\": \"...\"}", name, "valid")
	}
	v.Valid = valid
	if m, present := out["message"]; present && m != nil {
		s, ok := m.(string)
		if !ok {
			return v, fmt.Errorf("validator %q answered a %q that is a JSON %s, not a string", name, "message", jsonval.Kind(m))
		}
		v.Message = s
	}
	v.Value = out["value"]
	for _, k := range slices.Sorted(maps.Keys(out)) {
		if k != "valid" && k != "message" && k != "value" {
			return v, fmt.Errorf("validator %q answered an unknown key %q: the answer has only %q, %q and %q", name, k, "valid", "value", "message")
		}
	}
	return v, nil
}
