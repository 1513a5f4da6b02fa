package llm

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/soni-dev/soni/internal/safefile"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/understand"
	"github.com/soni-dev/soni/vm"
)

// Overrides are the command line's understanding flags; "" keeps what
// the environment or the project says.
type Overrides struct {
	Mode, BaseURL, Model string
	// OnHealth, when set, is the model's Config.OnHealth: the front end
	// hears when the model stops answering and when it answers again.
	OnHealth func(Health)
	// Client, when set, sends the model's requests (soni serve's traces
	// wrap it); nil is Config's default.
	Client *http.Client
}

// Select builds the understanding layer a program asks for: the flags
// first, then the environment (SONI_UNDERSTANDING, SONI_LLM_BASE_URL,
// SONI_LLM_MODEL), then the project's understanding settings, whose
// strings may use ${VAR}; the default is the rules. The API key is read
// from the environment only (understanding.llm.api_key_env, default
// SONI_LLM_API_KEY). dir is the project directory, for a prompt file.
func Select(prog *ir.Program, dir string, o Overrides, getenv func(string) string) (vm.Understander, string, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	u := ir.Understanding{}
	if prog.Settings.Understanding != nil {
		u = *prog.Settings.Understanding
	}
	pick := func(flag, env, setting string) string {
		switch {
		case flag != "":
			return flag
		case getenv(env) != "":
			return getenv(env)
		}
		return os.Expand(setting, getenv)
	}
	mode := pick(o.Mode, "SONI_UNDERSTANDING", u.Mode)
	if mode == "" {
		mode = "rules"
	}
	rules := understand.New(prog)
	switch mode {
	case "rules":
		return rules, mode, nil
	case "llm", "hybrid":
	default:
		return nil, "", fmt.Errorf("unknown understanding mode %q: use rules, llm or hybrid", mode)
	}
	cfg := Config{
		BaseURL:    pick(o.BaseURL, "SONI_LLM_BASE_URL", u.BaseURL),
		Model:      pick(o.Model, "SONI_LLM_MODEL", u.Model),
		MaxHistory: u.MaxHistory,
		OnHealth:   o.OnHealth,
		Client:     o.Client,
	}
	keyEnv := u.APIKeyEnv
	if keyEnv == "" {
		keyEnv = "SONI_LLM_API_KEY"
	}
	cfg.APIKey = getenv(keyEnv)
	answer, err := ParseAnswerFormat(u.ResponseFormat)
	if err != nil {
		return nil, "", err
	}
	cfg.Answer = answer
	if u.Timeout != "" {
		d, err := time.ParseDuration(u.Timeout)
		if err != nil || d <= 0 {
			return nil, "", fmt.Errorf("understanding.llm.timeout %q is not a positive duration", u.Timeout)
		}
		cfg.Timeout = d
	}
	if u.Prompt != "" {
		path := u.Prompt
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		src, err := safefile.ReadFile(path, 1<<20)
		if err != nil {
			return nil, "", fmt.Errorf("understanding.llm.prompt %q: %v", u.Prompt, strings.TrimPrefix(err.Error(), "open "+path+": "))
		}
		if cfg.Prompt, err = ParsePrompt(string(src)); err != nil {
			return nil, "", fmt.Errorf("understanding.llm.prompt %q: %v", u.Prompt, err)
		}
	}
	model, err := New(cfg)
	if err != nil {
		return nil, "", err
	}
	if mode == "hybrid" {
		return &Hybrid{Rules: rules, Model: model}, mode, nil
	}
	return model, mode, nil
}
