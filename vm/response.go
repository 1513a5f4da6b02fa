package vm

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"unicode"

	"github.com/soni-dev/soni/internal/text"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/tmpl"
)

// Utterance is one message the bot says in a turn: its text, and what the
// channel may show with it.
type Utterance struct {
	Text string `json:"text"`
	// Response is the name of the response the message was said from, or
	// "" for a plain message.
	Response string      `json:"response,omitempty"`
	Buttons  []ir.Button `json:"buttons,omitempty"`
	Image    string      `json:"image,omitempty"`
	// Custom is a variation's custom payload, passed through as given.
	Custom any `json:"custom,omitempty"`
	// Variations holds the texts of every variation of the response the
	// turn could have said here (translated, rendered with the values of
	// the moment), when Input.Variations asked for them: a conversation
	// test line matches any of them.
	Variations []string `json:"-"`
}

// rich reports whether the utterance carries more than its text.
func (u *Utterance) rich() bool {
	return u.Response != "" || len(u.Buttons) > 0 || u.Image != "" || u.Custom != nil
}

// Message returns the i-th reply of the turn with its response name and
// extras: Messages[i] when the turn said a response or extras, else the
// plain text of Replies[i].
func (r *Result) Message(i int) Utterance {
	if i < len(r.Messages) {
		return r.Messages[i]
	}
	if i < len(r.Replies) {
		return Utterance{Text: r.Replies[i]}
	}
	return Utterance{}
}

// message is a compiled message: a template, or a response.
type message struct {
	t    *tmpl.Template
	resp *respRT
}

// respRT is a response with its templates compiled.
type respRT struct {
	r    *ir.Response
	vars []*varRT
	// hasChannel is true when some variation is for one channel only.
	hasChannel bool
}

// varRT is a variation with its templates compiled.
type varRT struct {
	v    *ir.Variation
	text *tmpl.Template
	tr   map[string]*tmpl.Template
}

// compileResponses compiles the program's responses.
func (m *Machine) compileResponses() error {
	m.responses = make(map[string]*respRT, len(m.prog.Responses))
	for _, r := range m.prog.Responses {
		if r == nil {
			return fmt.Errorf("program has a nil response")
		}
		rr := &respRT{r: r}
		for i, v := range r.Variations {
			if v == nil {
				return fmt.Errorf("response %q has a nil variation", r.Name)
			}
			vr := &varRT{v: v}
			var err error
			if vr.text, err = parseTemplate(v.Text); err != nil {
				return fmt.Errorf("response %q variation %d: %w", r.Name, i+1, err)
			}
			for lang, t := range v.Translation {
				pt, err := parseTemplate(t)
				if err != nil {
					return fmt.Errorf("response %q variation %d translation %q: %w", r.Name, i+1, lang, err)
				}
				if vr.tr == nil {
					vr.tr = make(map[string]*tmpl.Template, len(v.Translation))
				}
				vr.tr[lang] = pt
			}
			rr.hasChannel = rr.hasChannel || v.Channel != ""
			rr.vars = append(rr.vars, vr)
		}
		m.responses[r.Name] = rr
	}
	return nil
}

// parseMessage compiles a message field: a template, or a reference to a
// response, which must exist.
func (m *Machine) parseMessage(t *ir.Template) (*message, error) {
	if t == nil {
		return nil, nil
	}
	if t.Response != "" {
		r := m.responses[t.Response]
		if r == nil {
			return nil, fmt.Errorf("%s: unknown response %q", t.Pos, t.Response)
		}
		return &message{resp: r}, nil
	}
	pt, err := parseTemplate(t)
	if err != nil {
		return nil, err
	}
	return &message{t: pt}, nil
}

// utter renders a message. extra, when not nil, is asked first for each
// name (the refused {value} of an invalid message, a setting's {action}).
func (t *turn) utter(msg *message, extra func(string) (any, bool)) Utterance {
	if t.getter == nil {
		t.getter = t.shown
	}
	get := t.getter
	if extra != nil {
		base := get
		get = func(name string) (any, bool) {
			if v, ok := extra(name); ok {
				return v, true
			}
			return base(name)
		}
	}
	if msg.resp == nil {
		return Utterance{Text: msg.t.Render(get)}
	}
	r := msg.resp
	u := Utterance{Response: r.r.Name}
	vr := t.pick(r)
	if vr == nil {
		t.trace(t.where() + "response " + r.r.Name + ": no variation fits this turn (its conditions or channels), so nothing is said")
		return u
	}
	lang := t.language()
	if tp := vr.translated(lang); tp != nil {
		u.Text = tp.Render(get)
	}
	u.Buttons = vr.v.Buttons
	u.Image = vr.v.Image
	u.Custom = vr.v.Custom
	if t.variations {
		for _, o := range r.vars {
			if tp := o.translated(lang); tp != nil {
				u.Variations = append(u.Variations, tp.Render(get))
			}
		}
	}
	return u
}

// translated returns the variation's text in lang ("es", or "es-ES" with
// "es" as its fallback), else its text as written; nil when it has none.
func (vr *varRT) translated(lang string) *tmpl.Template {
	if lang != "" && vr.tr != nil {
		if tp := vr.tr[lang]; tp != nil {
			return tp
		}
		if base, _, ok := strings.Cut(lang, "-"); ok {
			if tp := vr.tr[base]; tp != nil {
				return tp
			}
		}
	}
	return vr.text
}

// pick chooses the variation of a response to say: among the variations
// for the turn's channel (when the response has any, else those for every
// channel), the first whose condition holds; else one of those without a
// condition, chosen by a hash of the session, the revision and the
// response's name, so that a conversation run again says the same.
func (t *turn) pick(r *respRT) *varRT {
	channel := ""
	if r.hasChannel && t.channel != "" {
		for _, vr := range r.vars {
			if vr.v.Channel == t.channel {
				channel = t.channel
				break
			}
		}
	}
	plain := 0
	for _, vr := range r.vars {
		if vr.v.Channel != channel {
			continue
		}
		if len(vr.v.Condition) == 0 {
			plain++
			continue
		}
		if t.holds(vr.v.Condition) {
			return vr
		}
	}
	if plain == 0 {
		return nil
	}
	k := 0
	if plain > 1 {
		h := fnv.New32a()
		h.Write([]byte(t.st.Session))
		h.Write([]byte{'/'})
		h.Write(strconv.AppendUint(nil, t.st.Revision, 10))
		h.Write([]byte{'/'})
		h.Write([]byte(r.r.Name))
		k = int(h.Sum32() % uint32(plain))
	}
	for _, vr := range r.vars {
		if vr.v.Channel != channel || len(vr.v.Condition) > 0 {
			continue
		}
		if k == 0 {
			return vr
		}
		k--
	}
	return nil
}

// holds reports whether every slot condition holds: the slot, as the top
// flow sees it, has the value (compared as branch patterns compare), or is
// unset when the condition's value is null.
func (t *turn) holds(conds []ir.SlotCondition) bool {
	for _, c := range conds {
		v, ok := t.get(c.Slot)
		if c.Value == nil {
			if ok && v != nil {
				return false
			}
			continue
		}
		if !ok || v == nil || !equalText(v, tmpl.Format(c.Value)) {
			return false
		}
	}
	return true
}

// language returns the session's language: the language slot's value
// when it holds text, else the metadata's language, else the project's
// default language setting.
func (t *turn) language() string {
	if v, ok := t.get(ir.LanguageSlot); ok {
		if s, ok := v.(string); ok && s != "" {
			return s
		}
	}
	if s, ok := t.st.Metadata["language"].(string); ok && s != "" {
		return s
	}
	return t.m.settings.Language
}

// refused is how an invalid message shows the refused input as {value}:
// control characters escaped, cut to 80 bytes, so that a user's text
// can neither break the message's layout nor be read as a template.
func refused(raw any) string {
	s := strings.TrimSpace(tmpl.Format(raw))
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case unicode.IsControl(r) || r == unicode.ReplacementChar:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	out := b.String()
	if len(out) > 80 {
		out = text.Cut(out, 80) + "…"
	}
	return out
}
