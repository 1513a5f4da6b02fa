package rasaimport

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/soni-dev/soni/syntax"
)

// Rasa 3.14 lets a flow hand the conversation to an agent: a call step
// whose target is a sub-agent (a ReAct agent over MCP tools, or an
// external A2A agent, configured under sub_agents/), optionally ended by
// exit_if conditions, or a call of one MCP tool (call with mcp_server).
// soni runs neither. The import must not make such a step a silent
// success, so it becomes an action step whose action has no runner: the
// flow fails loudly there (the user hears the action's failure message,
// the trace names it) until a person gives the action a runner that does
// the agent's job, and the report counts each as needing a person.

// agentUse is an agentic call of the Rasa project.
type agentUse struct {
	name string
	at   loc
	// what says what Rasa would run, for the comment and the report.
	what string
	// does says what it does for the user, as an action's description.
	does string
}

// agentCall reports whether a call step hands over to an agent or an MCP
// tool rather than calling a flow, and describes it.
func (im *importer) agentCall(st *node) (string, bool) {
	target := st.get("call").str()
	switch {
	case target == "":
		return "", false
	case st.has("mcp_server"):
		return fmt.Sprintf("the MCP tool %q of the server %q", target, st.get("mcp_server").str()), true
	case im.flows[target] != nil:
		return "", false
	case st.has("exit_if"):
		return fmt.Sprintf("the Rasa sub-agent %q (until its exit_if conditions hold)", target), true
	case im.p.subAgent(target):
		return fmt.Sprintf("the Rasa sub-agent %q", target), true
	}
	return "", false
}

// subAgent reports whether sub_agents/ holds an agent's configuration
// for name.
func (p *rasaProject) subAgent(name string) bool {
	_, ok := p.subAgentConfig(name)
	return ok
}

// subAgentConfig finds the sub-agent name: the directory sub_agents/NAME/
// (its config.yml may be missing or unreadable, then the config is nil),
// else the directory of sub_agents/ whose config.yml names it. Rasa names
// an agent by its config's agent.name, which need not be its directory's
// name (sub_agents/research_agent/ may configure research_new_cars).
func (p *rasaProject) subAgentConfig(name string) (*node, bool) {
	if !validName(name) {
		return nil, false
	}
	if st, err := os.Stat(filepath.Join(p.root, "sub_agents", name)); err == nil && st.IsDir() {
		return p.readAgentConfig(name), true
	}
	entries, err := os.ReadDir(filepath.Join(p.root, "sub_agents"))
	if err != nil {
		return nil, false
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if n := p.readAgentConfig(e.Name()); n.get("agent").get("name").str() == name {
			return n, true
		}
	}
	return nil, false
}

// readAgentConfig reads sub_agents/DIR/config.yml, or gives nil.
func (p *rasaProject) readAgentConfig(dir string) *node {
	rel := "sub_agents/" + dir + "/config.yml"
	if !p.inside(rel) {
		return nil
	}
	if _, err := os.Stat(filepath.Join(p.root, filepath.FromSlash(rel))); err != nil {
		return nil
	}
	n, err := p.read(rel)
	if err != nil {
		return nil
	}
	return n
}

// subAgentDescription is the description in the sub-agent's config.yml,
// or "".
func (p *rasaProject) subAgentDescription(name string) string {
	n, _ := p.subAgentConfig(name)
	return strings.TrimSpace(n.get("agent").get("description").str())
}

// useAgent records an agentic call, the first time it is seen.
func (im *importer) useAgent(name, what string, at loc) {
	if im.agents == nil {
		im.agents = map[string]*agentUse{}
	}
	if im.agents[name] == nil {
		// The description is what the user hears when the step fails
		// ("Sorry, something went wrong while trying to ..."): a verb
		// phrase in words, never the agent's name; the agent's own
		// description, written about the agent, goes in the comment.
		does := "hand this over to another assistant"
		if strings.HasPrefix(what, "the MCP tool") {
			does = "reach an outside service"
		} else if d := im.p.subAgentDescription(name); d != "" {
			what += " (" + d + ")"
		}
		im.agents[name] = &agentUse{name: name, at: at, what: what, does: does}
		im.agentOrder = append(im.agentOrder, name)
	}
}

// agentStep translates an agentic call into an action step of an action
// with no runner, and reports it as needing a person.
func (b *flowBuilder) agentStep(st *node, m *syntax.Step, what string) *syntax.Step {
	name := st.get("call").str()
	b.im.useAgent(name, what, st.at)
	keys := []string{}
	for _, k := range st.keys {
		if k != "call" && k != "id" && k != "next" {
			keys = append(keys, k)
		}
	}
	extra := ""
	if len(keys) > 0 {
		extra = fmt.Sprintf(" (its %s not translated)", strings.Join(keys, ", "))
	}
	b.im.rep.add(st.at, "step", StatusManual, b.out,
		fmt.Sprintf("give the action %q a runner that does what the agent did (run: http or exec, or a Go function), or rewrite the step with soni's steps", name),
		"flow %q hands the conversation to %s%s, which soni cannot run: the imported step calls the action %q, which has no runner, so the flow fails there, loudly, until a person gives it one", b.f.name, what, extra, name)
	setType(m, "action")
	m.Action().Call = syntax.S(name)
	return m
}

// agentActions declares the actions that stand for agentic calls: a
// description and no runner.
func (im *importer) agentActions(actions []*syntax.Action) []*syntax.Action {
	for _, name := range im.agentOrder {
		a := im.agents[name]
		if slices.ContainsFunc(actions, func(x *syntax.Action) bool { return x.Name.V == name }) {
			continue
		}
		d := &syntax.Action{Name: syntax.S(name), Description: syntax.S(a.does)}
		d.Comments.AddHead("", "Rasa ran "+a.what+" here; soni cannot. This action has no runner, so the step fails loudly until it gets one.")
		actions = append(actions, d)
	}
	return actions
}
