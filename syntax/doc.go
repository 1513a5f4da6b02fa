// Package syntax is the typed, positioned document model of soni's YAML
// files: one set of Go structs per file format, one decoder that reads
// them from goccy/go-yaml's syntax tree, and one encoder that writes them
// back as canonical YAML, keeping the comments.
//
// node.go holds what every format shares: [Pos], the positioned scalar
// [Str] (with the position of each of its characters when the file allows
// it), [Comment] and [Comments] (comments attached to a node), the
// [Reader] that walks a syntax tree (anchors, merge keys, duplicate keys,
// positions of list items) and the writer tree ([Map], [Seq]) with [Emit],
// which writes YAML with comments in one canonical layout.
//
// flows.go holds the project files' model: [File] with its settings,
// slots, actions, validators, flows and responses, read by [DecodeFlows]
// and written by [Encode]. The compiler checks and lowers these structs;
// `soni init` writes its project files through them, and the Rasa
// importer builds its pattern overrides with them (its other project
// files still go from ordered maps through [Emit]). flows_encode.go holds
// [Encode]; package syntaxtest checks that a project survives a decode and
// an encode unchanged.
//
// tests.go holds the conversation test files' model: [TestFile] with its
// fixtures, stubs, metadata and [TestCase]s of [TestStep]s, [Command]s and
// Rasa-style [Assertion]s, free-form values kept as positioned [Data];
// read by [DecodeTests] and written by [EncodeTests], which rewrites only
// what changed in a file it read (comments, quoting and layout kept) and
// writes a file built in code through [Emit]. Package convtest runs
// them; soni test --update, soni log --format test and the Rasa importer
// write them. evals.go holds the eval files' model, [EvalFile], read by
// [DecodeEvals] for soni eval.
//
// Positions are 1-based lines and columns, columns counted in runes, as
// goccy/go-yaml reports them; a zero Pos means the value was not read from
// a file (a writer set it).
package syntax
