package rasaimport

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/soni-dev/soni/internal/safefile"
)

// maxFileSize bounds one file of a Rasa project.
const maxFileSize = 8 << 20

// ReadError is a file or directory that could not be read or created
// (a missing path, a permission, an output path that is a file), as
// opposed to a Rasa project whose content is wrong.
type ReadError struct{ err error }

func (e *ReadError) Error() string { return e.err.Error() }

// rasaProject is a Rasa project as read from disk: every construct the
// importer translates, with where it is.
type rasaProject struct {
	// root is the project directory.
	root string
	// boundary is where symbolic links may point: the repository the
	// project is in (the nearest directory up from root that holds .git),
	// else the project directory itself (see followLink).
	boundary string
	// language is config.yml's language.
	language string
	// llm says whether config.yml's pipeline has an LLM command
	// generator.
	llm   bool
	llmAt loc
	// llmConf is the command generator's llm block, or nil.
	llmConf *node
	// modelGroups are endpoints.yml's model_groups, by id.
	modelGroups map[string]*node
	// actionsModule is endpoints.yml's action_endpoint actions_module
	// (in-process Python actions, Rasa 3.10 and later).
	actionsModule string
	// actionURL is endpoints.yml's action_endpoint url.
	actionURL string
	actionAt  loc
	// sessionConfig is the domain's session_config.
	sessionConfig *node

	slots     []*named
	responses []*named
	actions   []*named // the domain's actions list
	forms     []*named
	flows     []*rflow
	// rules are the NLU-based rules, translated after every data file
	// is read (rules.go).
	rules []rasaRule
	// entityValues maps an entity to the values its nlu.yml examples
	// annotate ([diavola](pizza_type)), in order, without duplicates
	// (compared without case).
	entityValues map[string][]string
	// intents maps an intent to its nlu.yml examples, in order.
	intents  map[string][]string
	intentAt map[string]loc
	tests    []*rtestFile
	py       map[string]*pyAction
	// pyFiles is how many Python files were read.
	pyFiles int
	// ignored are files and keys the importer reads but does not
	// translate (stories, rules, forms...), for the report.
	ignored []ignoredPart
}

// named is a named construct of the domain (a slot, a response, an
// action) and its definition.
type named struct {
	name string
	at   loc
	n    *node
}

// rflow is a Rasa flow.
type rflow struct {
	name string
	// file is the data file (relative to the project) that defines it.
	file string
	at   loc
	n    *node
	// rule is the name of the NLU-based rule the flow was made from
	// (rules.go), and forms the forms it opens.
	rule  string
	forms []string
}

// rtestFile is a Rasa end-to-end test file.
type rtestFile struct {
	// rel names it in the report: its path relative to the project, or
	// below the --tests directory as it was given.
	rel string
	// out is its path below the test directory (e2e_tests/happy/a.yml:
	// happy/a.yml), which the soni test file keeps under tests/.
	out string
	n   *node
}

// defaultTestDirs are where the importer looks for e2e tests when it is
// given no --tests: the directories Rasa's projects keep them in.
var defaultTestDirs = []string{"e2e_tests", "tests", "e2e"}

// ignoredPart is something of the Rasa project the importer does not
// translate, and why.
type ignoredPart struct {
	at   loc
	what string
	fix  string
}

// loadProject reads the Rasa project in dir.
func loadProject(dir string, testDirs []string) (*rasaProject, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, &ReadError{fmt.Errorf("cannot read the Rasa project %q: %v", dir, errors.Unwrap(err))}
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%q is not a directory: give the Rasa project's directory (the one with config.yml and domain.yml or domain/)", dir)
	}
	p := &rasaProject{root: dir, intents: map[string][]string{}, entityValues: map[string][]string{}, intentAt: map[string]loc{}, py: map[string]*pyAction{}}

	if n, err := p.readOptional("config.yml", "config.yaml", "config/config.yml", "config/config.yaml"); err != nil {
		return nil, err
	} else if n != nil {
		p.language = n.get("language").str()
		for _, c := range n.get("pipeline").list() {
			name := c.get("name").str()
			if strings.Contains(name, "CommandGenerator") && strings.Contains(name, "LLM") {
				if !p.llm {
					p.llm, p.llmAt, p.llmConf = true, c.at, c.get("llm")
				}
			}
		}
	}
	if n, err := p.readOptional("endpoints.yml", "endpoints.yaml"); err != nil {
		return nil, err
	} else if n != nil {
		if ae := n.get("action_endpoint"); ae != nil {
			p.actionURL, p.actionAt = ae.get("url").str(), ae.at
			p.actionsModule = ae.get("actions_module").str()
		}
		for _, g := range n.get("model_groups").list() {
			if id := g.get("id").str(); id != "" {
				if p.modelGroups == nil {
					p.modelGroups = map[string]*node{}
				}
				p.modelGroups[id] = g
			}
		}
	}

	// The domain: domain.yml, or every YAML file below domain/.
	domainFiles, err := p.yamlFiles("domain.yml", "domain.yaml", "domain")
	if err != nil {
		return nil, err
	}
	if len(domainFiles) == 0 {
		return nil, fmt.Errorf("%q has no domain.yml and no domain/ directory: is it a Rasa project?", dir)
	}
	for _, f := range domainFiles {
		n, err := p.read(f)
		if err != nil {
			return nil, err
		}
		p.domain(f, n)
	}

	dataFiles, err := p.yamlFiles("", "", "data")
	if err != nil {
		return nil, err
	}
	for _, f := range dataFiles {
		n, err := p.read(f)
		if err != nil {
			return nil, err
		}
		p.data(f, n)
	}
	if len(p.flows) == 0 {
		return nil, fmt.Errorf("%q defines no flows under data/: the importer translates Rasa CALM flows", dir)
	}
	p.ruleFlows()

	if err := p.readTests(testDirs); err != nil {
		return nil, err
	}

	if err := p.python(); err != nil {
		return nil, err
	}
	return p, nil
}

// readTests reads the e2e test files below each of dirs (the project's
// defaultTestDirs when dirs is empty). A directory outside the project is
// read as its own tree; links in it are followed while they stay in it.
// When no test file is found, the report says where it looked.
func (p *rasaProject) readTests(dirs []string) error {
	given := len(dirs) > 0
	if !given {
		dirs = defaultTestDirs
	}
	seen := map[string]bool{}
	for _, d := range dirs {
		tree, sub, name := p, d, d
		if given {
			var err error
			if tree, sub, err = p.testTree(d); err != nil {
				return err
			}
		}
		var files []string
		if st, err := os.Stat(filepath.Join(tree.root, filepath.FromSlash(sub))); given && err == nil && st.Mode().IsRegular() {
			files = []string{sub}
		} else if given && err != nil {
			return &ReadError{fmt.Errorf("cannot read the tests %q: %v", d, readErr(err))}
		} else {
			var err error
			if files, err = tree.yamlFiles("", "", sub); err != nil {
				return err
			}
		}
		if tree != p {
			p.ignored = append(p.ignored, tree.ignored...)
		}
		for _, f := range files {
			n, err := tree.read(f)
			if err != nil {
				return err
			}
			if !n.has("test_cases") {
				continue
			}
			rel := f
			if tree != p {
				rel = path.Join(filepath.ToSlash(name), f)
			}
			out := strings.TrimPrefix(strings.TrimPrefix(f, sub), "/")
			if out == "" {
				out = path.Base(f)
			}
			for base, i := out, 2; seen[out]; i++ {
				ext := path.Ext(base)
				out = fmt.Sprintf("%s_%d%s", strings.TrimSuffix(base, ext), i, ext)
			}
			seen[out] = true
			p.tests = append(p.tests, &rtestFile{rel: rel, out: out, n: n})
		}
	}
	if len(p.tests) == 0 {
		where := "e2e_tests/, tests/ or e2e/"
		if given {
			where = strings.Join(dirs, ", ")
		}
		p.ignored = append(p.ignored, ignoredPart{at: loc{File: "tests"}, what: fmt.Sprintf("no e2e test files (YAML files with test_cases) were found in %s, so no conversation tests were written", where),
			fix: "give the tests' directory with --tests DIR (repeatable), as you would to rasa test e2e"})
	}
	return nil
}

// testTree returns where the tests d given with --tests are read from:
// the project itself and d's path in it when d is inside the project,
// else a tree of its own rooted at d (or at d's directory for a file).
func (p *rasaProject) testTree(d string) (*rasaProject, string, error) {
	abs, err := filepath.Abs(d)
	if err != nil {
		return nil, "", &ReadError{fmt.Errorf("cannot read the tests %q: %v", d, err)}
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, "", &ReadError{fmt.Errorf("cannot read the tests %q: %v", d, readErr(err))}
	}
	rootAbs, _ := filepath.Abs(p.root)
	if rootReal, err := filepath.EvalSymlinks(rootAbs); err == nil {
		if rel, err := filepath.Rel(rootReal, real); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			if rel == "." {
				rel = ""
			}
			return p, filepath.ToSlash(rel), nil
		}
	}
	st, err := os.Stat(real)
	if err != nil {
		return nil, "", &ReadError{fmt.Errorf("cannot read the tests %q: %v", d, readErr(err))}
	}
	if st.Mode().IsRegular() {
		return &rasaProject{root: filepath.Dir(real)}, filepath.Base(real), nil
	}
	return &rasaProject{root: real}, "", nil
}

// readOptional reads the first of names that exists, or returns nil.
func (p *rasaProject) readOptional(names ...string) (*node, error) {
	for _, name := range names {
		if _, err := os.Stat(filepath.Join(p.root, name)); err == nil && p.inside(name) {
			return p.read(name)
		}
	}
	return nil, nil
}

// read reads one YAML file of the project (rel is relative to the root).
func (p *rasaProject) read(rel string) (*node, error) {
	b, err := safefile.ReadFile(filepath.Join(p.root, filepath.FromSlash(rel)), maxFileSize)
	if err != nil {
		return nil, &ReadError{fmt.Errorf("cannot read %s: %v", rel, readErr(err))}
	}
	return parseYAML(rel, b)
}

// yamlFiles lists, relative to the root and sorted, the file file or
// alt if one exists, else the YAML files below dir (hidden ones left
// out). Symbolic links are not followed out of the project.
func (p *rasaProject) yamlFiles(file, alt, dir string) ([]string, error) {
	for _, f := range []string{file, alt} {
		if f == "" {
			continue
		}
		if st, err := os.Stat(filepath.Join(p.root, f)); err == nil && st.Mode().IsRegular() && p.inside(f) {
			return []string{f}, nil
		}
	}
	return p.walk(dir, func(name string) bool {
		return strings.HasSuffix(name, ".yml") || strings.HasSuffix(name, ".yaml")
	})
}

// walk lists the regular files below dir (relative to the root) whose
// names match, sorted; hidden files and directories are left out.
// Symbolic links are followed while they stay inside the project (Rasa
// projects share domain and flow files between variants through links);
// a link that leaves the project, or that loops, is not followed and is
// reported. A file reached through a link is listed under the link's
// path.
func (p *rasaProject) walk(dir string, match func(string) bool) ([]string, error) {
	start := filepath.Join(p.root, filepath.FromSlash(dir))
	if dir == "" {
		start = p.root
	}
	st, err := os.Lstat(start)
	if err != nil {
		return nil, nil
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		real, ok := p.followLink(dir)
		if !ok {
			return nil, nil
		}
		if st, err = os.Stat(real); err != nil {
			return nil, nil
		}
	}
	if !st.IsDir() {
		return nil, nil
	}
	var out []string
	seen := map[string]bool{}
	if err := p.walkDir(dir, match, seen, &out); err != nil {
		return nil, &ReadError{fmt.Errorf("cannot read %s/: %v", dir, readErr(err))}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// walkDir adds to out the matching files below rel, following links
// inside the project; seen holds the real directories already walked, so
// that a link cycle ends.
func (p *rasaProject) walkDir(rel string, match func(string) bool, seen map[string]bool, out *[]string) error {
	abs := filepath.Join(p.root, filepath.FromSlash(rel))
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return err
	}
	if seen[real] {
		return nil
	}
	seen[real] = true
	entries, err := os.ReadDir(abs)
	if err != nil {
		return err
	}
	for _, d := range entries {
		if strings.HasPrefix(d.Name(), ".") {
			continue
		}
		child := path.Join(rel, d.Name())
		mode := d.Type()
		if mode&fs.ModeSymlink != 0 {
			target, ok := p.followLink(child)
			if !ok {
				continue
			}
			st, err := os.Stat(target)
			if err != nil {
				continue
			}
			mode = st.Mode().Type()
		}
		switch {
		case mode.IsDir():
			if err := p.walkDir(child, match, seen, out); err != nil {
				return err
			}
		case mode.IsRegular() && match(d.Name()):
			*out = append(*out, child)
		}
	}
	return nil
}

// inside says whether the file at rel may be read: it is no symbolic
// link, or one that stays inside the project (followLink reports one that
// does not).
func (p *rasaProject) inside(rel string) bool {
	st, err := os.Lstat(filepath.Join(p.root, filepath.FromSlash(rel)))
	if err != nil || st.Mode()&fs.ModeSymlink == 0 {
		return true
	}
	_, ok := p.followLink(rel)
	return ok
}

// linkBoundary returns where the links of the project at root may point:
// the repository it is in (the nearest directory up from it that holds
// .git: variants of one assistant share domain and flow files through
// links to a directory beside them), else root itself; both resolved.
func linkBoundary(root string) string {
	abs, err := filepath.Abs(root)
	if err != nil {
		return root
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return abs
	}
	for d := real; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return real
		}
		d = parent
	}
}

// followLink resolves the symbolic link at rel (relative to the root) and
// returns its real target when it stays inside the project's repository
// (p.boundary). A link that leaves it or cannot be resolved is reported
// and not followed; the report names the link, never the target outside.
func (p *rasaProject) followLink(rel string) (string, bool) {
	if p.boundary == "" {
		p.boundary = linkBoundary(p.root)
	}
	rootReal := p.boundary
	abs, err := filepath.Abs(filepath.Join(p.root, filepath.FromSlash(rel)))
	if err != nil {
		return "", false
	}
	target, err := filepath.EvalSymlinks(abs)
	if err != nil {
		p.ignored = append(p.ignored, ignoredPart{at: loc{File: rel}, what: fmt.Sprintf("the symbolic link %q points to nothing that exists (or loops), so it is not followed", rel),
			fix: "point the link at a file inside the project, or replace it with the file"})
		return "", false
	}
	if target != rootReal && !strings.HasPrefix(target, rootReal+string(filepath.Separator)) {
		p.ignored = append(p.ignored, ignoredPart{at: loc{File: rel}, what: fmt.Sprintf("the symbolic link %q points outside the project and its repository, so it is not followed", rel),
			fix: "copy what it points to into the project, or import from a directory that contains both"})
		return "", false
	}
	return target, true
}

// readErr says why a file could not be read, without its path (the
// caller names the file relative to the project).
func readErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var tl *safefile.TooLargeError
	if errors.As(err, &tl) {
		return fmt.Errorf("larger than %d MiB", tl.Limit>>20)
	}
	return err
}

// domain reads one domain file.
func (p *rasaProject) domain(file string, n *node) {
	if n == nil || n.kind != kMap {
		return
	}
	for i, k := range n.keys {
		v := n.vals[i]
		switch k {
		case "version", "intents", "entities", "config":
		case "slots":
			for j, name := range v.keys {
				p.slots = append(p.slots, &named{name: name, at: v.vals[j].at, n: v.vals[j]})
			}
		case "responses":
			for j, name := range v.keys {
				p.responses = append(p.responses, &named{name: name, at: v.vals[j].at, n: v.vals[j]})
			}
		case "actions":
			for _, a := range v.list() {
				name := a.str()
				if a.kind == kMap && len(a.keys) > 0 {
					name = a.keys[0]
				}
				if name != "" {
					p.actions = append(p.actions, &named{name: name, at: a.at, n: a})
				}
			}
		case "forms":
			for j, name := range v.keys {
				p.forms = append(p.forms, &named{name: name, at: v.vals[j].at, n: v.vals[j]})
			}
		case "session_config":
			p.sessionConfig = v
		default:
			p.ignored = append(p.ignored, ignoredPart{at: v.at, what: fmt.Sprintf("the domain key %q is not translated", k), fix: "nothing in soni corresponds to it; remove it or translate it by hand"})
		}
	}
}

// entityAnnotation matches [text](entity) and [text]{...} in nlu.yml
// examples.
var entityAnnotation = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[([^\]]*)\](?:\([^)]*\)|\{[^}]*\})`) })

// entityValue matches an annotation [text](entity) and captures both.
var entityValue = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[([^\]]+)\]\(([A-Za-z_][A-Za-z0-9_]*)\)`) })

// entityValue records a value an example annotates for an entity.
func (p *rasaProject) entityValue(entity, v string) {
	v = strings.TrimSpace(v)
	for _, x := range p.entityValues[entity] {
		if strings.EqualFold(x, v) {
			return
		}
	}
	p.entityValues[entity] = append(p.entityValues[entity], v)
}

// data reads one file under data/.
func (p *rasaProject) data(file string, n *node) {
	if n == nil || n.kind != kMap {
		return
	}
	for i, k := range n.keys {
		v := n.vals[i]
		switch k {
		case "version":
		case "flows":
			for j, name := range v.keys {
				p.flows = append(p.flows, &rflow{name: name, file: file, at: v.vals[j].at, n: v.vals[j]})
			}
		case "nlu":
			for _, it := range v.list() {
				switch {
				case it.has("intent"):
					intent := it.get("intent").str()
					if _, ok := p.intentAt[intent]; !ok {
						p.intentAt[intent] = it.at
					}
					for _, line := range strings.Split(it.get("examples").str(), "\n") {
						line = strings.TrimSpace(line)
						if !strings.HasPrefix(line, "-") {
							continue
						}
						for _, m := range entityValue().FindAllStringSubmatch(line, -1) {
							p.entityValue(m[2], m[1])
						}
						ex := strings.TrimSpace(entityAnnotation().ReplaceAllString(strings.TrimSpace(line[1:]), "$1"))
						if ex != "" {
							p.intents[intent] = append(p.intents[intent], ex)
						}
					}
				case it.has("synonym"), it.has("regex"), it.has("lookup"):
					kind := "synonym"
					if it.has("regex") {
						kind = "regex"
					} else if it.has("lookup") {
						kind = "lookup"
					}
					p.ignored = append(p.ignored, ignoredPart{at: it.at, what: fmt.Sprintf("the NLU %s %q is not translated", kind, it.get(kind).str()),
						fix: "give a categorical slot its synonyms under values:, or a text slot a pattern:"})
				}
			}
		case "rules":
			for _, r := range v.list() {
				p.rules = append(p.rules, rasaRule{file: file, n: r})
			}
		case "stories":
			p.ignored = append(p.ignored, ignoredPart{at: v.at, what: fmt.Sprintf("%d %s (Rasa's NLU-based dialogue) are not translated", len(v.list()), k),
				fix: "write each as a soni flow with a trigger, or keep them in Rasa; soni runs flows only"})
		case "responses":
			for j, name := range v.keys {
				p.responses = append(p.responses, &named{name: name, at: v.vals[j].at, n: v.vals[j]})
			}
		default:
			p.ignored = append(p.ignored, ignoredPart{at: v.at, what: fmt.Sprintf("the data key %q is not translated", k), fix: "translate it by hand"})
		}
	}
}

// python reads the action server's Python source: actions.py or every
// .py file below actions/.
func (p *rasaProject) python() error {
	files, err := p.walk("actions", func(name string) bool { return strings.HasSuffix(name, ".py") })
	if err != nil {
		return err
	}
	if st, err := os.Stat(filepath.Join(p.root, "actions.py")); err == nil && st.Mode().IsRegular() {
		files = append(files, "actions.py")
	}
	for _, f := range files {
		b, err := safefile.ReadFile(filepath.Join(p.root, filepath.FromSlash(f)), maxFileSize)
		if err != nil {
			return &ReadError{fmt.Errorf("cannot read %s: %v", f, readErr(err))}
		}
		p.pyFiles++
		for _, a := range scanPython(f, string(b)) {
			if _, dup := p.py[a.name]; !dup {
				p.py[a.name] = a
			}
		}
	}
	inherit(p.py)
	return nil
}
