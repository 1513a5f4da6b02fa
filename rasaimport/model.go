package rasaimport

import (
	"fmt"
	"strconv"
	"strings"
)

// Rasa's LLM command generators name their model in config.yml, directly
// (llm: {provider, model, api_base, api_key}) or through a model group of
// endpoints.yml (llm: {model_group: ID}). soni's understanding talks to
// any OpenAI-compatible chat completions endpoint, so the import carries
// the model over as understanding: hybrid when the provider is OpenAI or
// the model sits behind an OpenAI-compatible api_base.

// rasaDefaultModel is the model Rasa's command generators use when
// config.yml names none (Rasa Pro 3.12 and later).
const rasaDefaultModel = "gpt-4o-2024-11-20"

// openAIBase is OpenAI's API, which Rasa's openai provider calls when no
// api_base is given.
const openAIBase = "https://api.openai.com/v1"

// understanding returns the settings.understanding block that carries the
// Rasa project's model over, or nil (and a report item saying why) when
// it cannot be.
func (im *importer) understanding(out string) map[string]any {
	p := im.p
	if !p.llm {
		return nil
	}
	conf := p.llmConf
	where := "config.yml"
	var m *node
	guessed := false
	switch {
	case conf.has("model_group"):
		id := conf.get("model_group").str()
		g := p.modelGroups[id]
		if g == nil || len(g.get("models").list()) == 0 {
			im.rep.addAbout(aboutUnderstanding, p.llmAt, "config", StatusManual, out, "define the model group in endpoints.yml, or set settings.understanding (docs/understanding.md)",
				"Rasa understood messages with the model group %q, which endpoints.yml does not define: the imported project uses soni's rules, which need trigger phrases and understand less", id)
			return nil
		}
		m, where = g.get("models").list()[0], fmt.Sprintf("endpoints.yml's model group %q", id)
	case conf.has("model") || conf.has("model_name") || conf.has("provider"):
		m = conf
	default:
		guessed = true
	}
	provider := strings.ToLower(m.get("provider").str())
	model := m.get("model").str()
	if model == "" {
		model = m.get("model_name").str()
	}
	if guessed {
		provider, model = "openai", rasaDefaultModel
	}
	base := m.get("api_base").str()
	if base == "" {
		base = m.get("base_url").str()
	}
	switch {
	case base != "":
	case provider == "" || provider == "openai":
		base = openAIBase
	default:
		im.rep.addAbout(aboutUnderstanding, p.llmAt, "config", StatusManual, out, "put an OpenAI-compatible endpoint in front of the model (a LiteLLM or vLLM server) and set settings.understanding.llm.base_url (docs/understanding.md)",
			"Rasa understood messages with the %s model %q (%s), which has no OpenAI-compatible endpoint soni can call: the imported project uses soni's rules, which need trigger phrases and understand less", provider, model, where)
		return nil
	}
	if model == "" {
		im.rep.addAbout(aboutUnderstanding, p.llmAt, "config", StatusManual, out, "name the model in settings.understanding.llm.model (docs/understanding.md)",
			"Rasa's command generator names no model (%s): the imported project uses soni's rules, which need trigger phrases and understand less", where)
		return nil
	}
	// LiteLLM names models provider/model; an OpenAI-compatible server
	// wants the model alone.
	if provider != "" {
		model = strings.TrimPrefix(model, provider+"/")
	}
	keyEnv := "OPENAI_API_KEY"
	if k := m.get("api_key").str(); strings.HasPrefix(k, "${") && strings.HasSuffix(k, "}") {
		keyEnv = strings.TrimSuffix(strings.TrimPrefix(k, "${"), "}")
	} else if provider != "" && provider != "openai" {
		keyEnv = strings.ToUpper(provider) + "_API_KEY"
	}
	llm := map[string]any{"base_url": base, "model": model, "api_key_env": keyEnv}
	if t := m.get("timeout").str(); t != "" {
		if secs, err := strconv.ParseFloat(t, 64); err == nil && secs > 0 {
			llm["timeout"] = strconv.FormatFloat(secs, 'f', -1, 64) + "s"
		}
	}
	u := map[string]any{"mode": "hybrid", "llm": llm}
	what := fmt.Sprintf("the model %q (%s)", model, where)
	if guessed {
		what = fmt.Sprintf("no model in config.yml, so Rasa's default %q", model)
	}
	im.rep.addAbout(aboutUnderstanding, p.llmAt, "config", StatusApproximated, out,
		fmt.Sprintf("set %s to the key (without a key, run with --understanding rules); record fixtures for the tests with --llm-fixtures (docs/understanding.md)", keyEnv),
		"Rasa understood messages with %s: the import carries it over as understanding: hybrid, where soni's rules answer when they are sure and the model answers the rest", what)
	return u
}
