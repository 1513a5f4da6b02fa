package understand

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// Small talk, requests for help and for a person, in English and Spanish
// (docs/understanding.md, "Small talk, help and a person"). Each entry is
// a normalized phrase; the message must be the phrase, with fillers and
// polite words around it, or start with it when it is marked as a lead
// ("thanks, that's all").
var (
	// chitchatPhrases are small talk, by its kind (ir.SmallTalkKinds;
	// "" for small talk of no kind), which pattern_chitchat answers.
	chitchatPhrases = map[string][]string{
		ir.SmallTalkGreet: {
			"hi", "hello", "hey", "hey there", "hi there", "hello there", "hiya", "yo", "howdy",
			"good morning", "good afternoon", "good evening", "morning", "greetings",
			"hola", "buenas", "buenos dias", "buenas tardes", "buenas noches", "que tal", "hola que tal",
			"how are you", "how are you doing", "hows it going", "whats up", "sup", "como estas",
		},
		ir.SmallTalkThanks: {
			"thanks", "thank you", "thx", "ty", "thanks a lot", "thank you so much", "thanks so much",
			"many thanks", "cheers", "much appreciated", "great thanks", "perfect thanks",
			"gracias", "muchas gracias", "mil gracias", "muy amable",
		},
		ir.SmallTalkGoodbye: {
			"bye", "goodbye", "bye bye", "see you", "see ya", "see you later", "later", "good night",
			"have a nice day", "have a good day", "take care", "thats all", "thats all thanks",
			"that is all", "nothing else", "im done", "all done", "adios", "hasta luego", "chao",
			"chau", "nos vemos", "hasta pronto", "eso es todo", "nada mas",
		},
		// asking for a moment: not an answer, not a number
		ir.SmallTalkWait: {
			"one moment", "one sec", "one second", "just a sec", "just a second", "just a moment",
			"hang on", "hold on", "wait", "wait a sec", "wait a second", "wait a moment",
			"give me a moment", "give me a sec", "give me a second", "one minute", "a moment",
			"un momento", "un segundo", "espera", "espera un momento", "un momentito",
		},
		// reactions
		ir.SmallTalkAck: {"cool", "nice", "awesome", "lol", "haha", "wow", "ok cool", "great", "genial"},
		"": {
			"tell me a joke", "tell me something funny", "you are great", "youre great", "i love you",
			"who are you", "are you a bot", "are you human", "are you a robot", "quien eres",
			"eres un bot",
		},
	}
	helpPhrases = []string{
		"help", "help me", "i need help", "can you help me", "can you help", "what can you do",
		"what can i do", "what do you do", "what are my options", "what are the options",
		"options", "menu", "how does this work", "what can i ask", "what can you help me with",
		"what can you help with", "what do you offer", "what services do you offer",
		"ayuda", "ayudame", "necesito ayuda", "que puedes hacer", "que sabes hacer",
		"como funciona", "que opciones hay", "que opciones tengo", "en que me puedes ayudar",
		"en que puedes ayudarme",
	}
	// repeatPhrases ask the bot to say its last messages again
	// (pattern_repeat_bot_messages).
	repeatPhrases = []string{
		"what", "sorry what", "say that again", "say it again", "say that", "say it", "repeat that", "repeat",
		"repeat please", "can you repeat that", "could you repeat that", "come again",
		"pardon", "pardon me", "what did you say", "i didnt get that", "i missed that",
		"repite", "repitelo", "puedes repetir", "puedes repetirlo", "que dijiste", "como dices",
	}
	// skipPhrases ask to skip the pending question (pattern_skip_question).
	skipPhrases = []string{
		"skip", "skip it", "skip this", "skip this one", "skip this question", "skip that",
		"next question", "i dont want to answer", "i dont want to answer that",
		"id rather not say", "id rather not answer", "rather not say", "i prefer not to say",
		"saltar", "salta", "saltala", "siguiente pregunta", "prefiero no decirlo",
		"prefiero no contestar",
	}
	handoffPhrases = []string{
		"human", "a human", "agent", "an agent", "operator", "person", "a person", "real person",
		"a real person", "talk to a human", "speak to a human", "talk to a person",
		"speak to a person", "talk to someone", "speak to someone", "talk to an agent",
		"speak to an agent", "let me talk to a person", "let me speak to a person",
		"let me talk to a human", "let me talk to someone", "i want to talk to a person",
		"i want to talk to a human", "i want to speak to a human", "can i talk to a human",
		"can i speak to a human", "can i talk to a person", "can i speak to someone",
		"connect me to an agent", "connect me with an agent", "customer service",
		"human please", "agent please", "representative", "a representative",
		"talk to a representative", "speak to a representative", "live agent",
		"hablar con una persona", "hablar con un humano", "hablar con alguien",
		"quiero hablar con una persona", "quiero hablar con un humano",
		"quiero hablar con alguien", "un agente", "una persona", "persona real", "operador",
		"pasame con un agente", "pasame con una persona", "atencion al cliente",
	}
)

// handoffRE finds a request for a person inside a sentence: "can I
// speak with someone from the bank", "I want to talk to a real person".
var handoffRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(handoffPattern) })

// handoffPattern is handoffRE's expression, compiled on first use.
const handoffPattern = `\b(talk|speak|chat) (to|with) (a |an |the |some )?(real |live |actual )?(person|human|agent|representative|operator|someone|somebody|people)\b|\b(someone|somebody) (call|contact|ring) me\b|\bhablar con (una persona|un humano|alguien|un agente|un operador)\b` +
	// "put me through to a human", "get me a real person", "is there
	// someone I can speak to", "transfer me to an agent".
	`|\b(put|transfer|connect|pass|get|send|forward|escalate) (me|this|it) (through |over )?(to |with )?(a |an |the |some )?(real |live |actual |human )?(person|human|agent|representative|operator|someone|somebody|manager|supervisor)\b` +
	`|\b(someone|somebody|a person|a human|an agent|anyone|anybody) (i|we) (can|could) (talk|speak|chat) (to|with)\b` +
	`|\b(a|an) (real|actual|live) (person|human|agent)\b` +
	`|\b(pasame|pasadme|ponme) con (alguien|una persona|un humano|un agente)\b` +
	// "let me talk to your support staff", "can I speak with customer
	// support", "I want a human", "hablar con soporte".
	`|\b(talk|speak|chat) (to|with) (a |an |the |your |some )?(customer |tech |technical )?(support|service|team|staff|manager|supervisor|representative)\b` +
	`|^(i )?(want|need|would like|wanna) (a |an |to a |to an )?(real |live )?(human|person|agent)$` +
	`|\bhablar con (el |la |un |una |alguien de )?(soporte|responsable|encargado|encargada|supervisor|supervisora|gerente|atencion al cliente)\b`

// handoffNouns are the words every handoffRE match has: the regular
// expression runs only on a message with one of them.
var handoffNouns = wordSet("person", "human", "agent", "representative", "operator", "someone", "somebody",
	"people", "manager", "supervisor", "persona", "humano", "alguien", "agente", "operador", "anyone", "anybody",
	"support", "service", "team", "staff", "soporte", "responsable", "encargado", "encargada", "supervisora",
	"gerente", "atencion")

var smallTalk = func() map[string]vm.Command {
	m := map[string]vm.Command{}
	for kind, phrases := range chitchatPhrases {
		for _, p := range phrases {
			m[p] = vm.Command{Kind: vm.CmdChitchat, SmallTalk: kind}
		}
	}
	for k, phrases := range map[vm.CommandKind][]string{vm.CmdHelp: helpPhrases, vm.CmdHandoff: handoffPhrases, vm.CmdRepeat: repeatPhrases, vm.CmdSkipQuestion: skipPhrases} {
		for _, p := range phrases {
			m[p] = vm.Command{Kind: k}
		}
	}
	return m
}()

// texting are the short forms people type in chat, read as the words
// they stand for in small talk: "what can u do", "thx", "ty".
var texting = map[string]string{
	"u": "you", "r": "are", "ur": "your", "ya": "you", "wat": "what", "wut": "what", "whatcha": "what",
	"plz": "please", "pls": "please", "thnx": "thanks", "thanx": "thanks", "tnx": "thanks",
	"cya": "see you", "cu": "see you", "hru": "how are you", "wassup": "whats up", "sup": "whats up",
	"k": "ok", "kk": "ok", "gr8": "great", "msg": "message", "bb": "bye", "byee": "bye",
}

// smallTalkFirst are the words a chitchat phrase may start with, around
// words included: a message that starts with none has no small talk
// before it.
var smallTalkFirst = func() map[string]bool {
	m := map[string]bool{}
	for _, phrases := range chitchatPhrases {
		for _, p := range phrases {
			first, _, _ := strings.Cut(p, " ")
			m[first] = true
		}
	}
	for w := range smallTalkAround {
		m[w] = true
	}
	for _, l := range momentLeads {
		m[l[0]] = true
	}
	for p := range momentLetMe {
		first, _, _ := strings.Cut(p, " ")
		m[first] = true
	}
	for w := range momentUnits {
		m[w] = true
	}
	return m
}()

// smallTalkLeads are words around small talk that do not change it.
var smallTalkAround = map[string]bool{
	"please": true, "pls": true, "oh": true, "ok": true, "okay": true, "well": true,
	"hmm": true, "um": true, "uh": true, "so": true, "just": true, "there": true,
	"again": true, "now": true, "then": true, "por": true, "favor": true, "bueno": true, "sorry": true,
	"pues": true, "vale": true, "y": true, "and": true, "ah": true, "guys": true, "folks": true,
}

// smallTalkOf reads a normalized message as small talk, a request for
// help or for a person. The message must be one of the phrases, with
// words around it that do not change it ("hi there", "ok thanks",
// "help please"), or two such phrases ("hi, what can you do?": the one
// that asks for something wins: a person, then help; two kinds of small
// talk are read as the first of ir.SmallTalkKinds: "thanks, bye" is a
// goodbye).
func smallTalkOf(norm string) (vm.Command, bool) {
	words := strings.Fields(norm)
	changed := false
	for i, w := range words {
		if x, ok := texting[w]; ok {
			words[i], changed = x, true
		}
	}
	if changed {
		norm = strings.Join(words, " ")
		words = strings.Fields(norm)
	}
	if len(words) == 0 || len(words) > 14 {
		return vm.Command{}, false
	}
	if len(words) <= 12 && hasAny(words, handoffNouns) && handoffRE().MatchString(norm) {
		return vm.Command{Kind: vm.CmdHandoff}, true
	}
	if c, ok := smallTalkPhrase(words); ok {
		return c, true
	}
	// Two phrases: "hi, can you help me", "thanks, bye".
	for i := 1; i < len(words); i++ {
		a, okA := smallTalkPhrase(words[:i])
		b, okB := smallTalkPhrase(words[i:])
		if okA && okB {
			for _, k := range []vm.CommandKind{vm.CmdHandoff, vm.CmdHelp, vm.CmdRepeat, vm.CmdSkipQuestion} {
				if a.Kind == k || b.Kind == k {
					return vm.Command{Kind: k}, true
				}
			}
			for _, kind := range ir.SmallTalkKinds {
				if a.SmallTalk == kind || b.SmallTalk == kind {
					return vm.Command{Kind: vm.CmdChitchat, SmallTalk: kind}, true
				}
			}
			return vm.Command{Kind: vm.CmdChitchat}, true
		}
	}
	return vm.Command{}, false
}

// SmallTalkKind reads a message as small talk and says its kind (one of
// ir.SmallTalkKinds), or "" when it is no small talk of a known kind: a
// language model that answers chitchat gets its kind from here. A thumbs
// up is an acknowledgement.
func SmallTalkKind(msg string) string {
	norm := values.Normalize(msg)
	if norm == "" {
		if yes, ok := values.YesNo(strings.TrimSpace(msg)); ok && yes {
			return ir.SmallTalkAck
		}
		return ""
	}
	if c, ok := smallTalkOf(collapseRepeats(norm)); ok && c.Kind == vm.CmdChitchat {
		return c.SmallTalk
	}
	return ""
}

// smallTalkPhrase reads words as one phrase, with the words around it
// that do not change it.
func smallTalkPhrase(words []string) (vm.Command, bool) {
	for len(words) > 0 && smallTalkAround[words[0]] {
		words = words[1:]
	}
	for len(words) > 0 && smallTalkAround[words[len(words)-1]] {
		words = words[:len(words)-1]
	}
	if len(words) == 0 {
		return vm.Command{}, false
	}
	c, ok := smallTalk[strings.Join(words, " ")]
	if !ok && asksForAMoment(words) {
		return vm.Command{Kind: vm.CmdChitchat, SmallTalk: ir.SmallTalkWait}, true
	}
	return c, ok
}

// asksForAMoment reads the ways people ask for a moment beyond the
// phrases of the list: a lead, a count and a unit of time ("hang on a
// sec", "give me 5 minutes", "dame un minuto", "momento"), or "let me"
// and a verb of looking or thinking with nothing after it ("let me
// check", "déjame ver"), or "brb".
func asksForAMoment(words []string) bool {
	if len(words) == 0 || len(words) > 5 {
		return false
	}
	if momentLetMe[strings.Join(words, " ")] {
		return true
	}
	lead := 0
	for _, l := range momentLeads {
		if len(l) < len(words) && slices.Equal(words[:len(l)], l) {
			lead = len(l)
			break
		}
	}
	rest := words[lead:]
	if len(rest) > 0 && (momentCounts[rest[0]] || (lead > 0 && isNumberish(rest[0]))) && len(rest) > 1 {
		rest = rest[1:]
	}
	if len(rest) == 1 && momentUnits[rest[0]] {
		// A unit alone is one only when it says so by itself.
		return lead > 0 || len(words) > 1 || rest[0] == "momento" || rest[0] == "momentito"
	}
	return false
}

var (
	momentLeads = [][]string{
		{"hang", "on"}, {"hold", "on"}, {"wait"}, {"give", "me"}, {"gimme"}, {"just"},
		{"espera"}, {"esperame"}, {"espere"}, {"dame"}, {"deme"},
	}
	momentCounts = wordSet("a", "an", "one", "un", "una", "few", "couple", "two", "five", "ten",
		"dos", "cinco", "diez")
	momentUnits = wordSet("sec", "secs", "second", "seconds", "moment", "moments", "min", "mins",
		"minute", "minutes", "tick", "momento", "momentito", "segundo", "segundos", "minuto", "minutos")
	momentLetMe = wordSet("let me check", "let me see", "let me think", "let me look", "let me check that",
		"let me think about it", "let me look it up", "let me find it", "let me find out", "let me get it",
		"brb", "be right back", "dejame ver", "dejame pensar", "dejame mirar", "deja que mire",
		"deja que lo mire", "ahora vuelvo", "un momento que lo miro")
)

// withoutSmallTalkLead drops small talk that starts a longer message ("ah,
// one moment, show my transactions", "hi there, I lost my card"): the
// rest says what the message is about.
func withoutSmallTalkLead(norm string) string {
	first, _, _ := strings.Cut(norm, " ")
	if !smallTalkFirst[first] {
		return norm
	}
	words := strings.Fields(norm)
	for i := min(len(words)-1, 5); i >= 1; i-- {
		if c, ok := smallTalkPhrase(words[:i]); ok && c.Kind == vm.CmdChitchat {
			return strings.Join(words[i:], " ")
		}
	}
	return norm
}
