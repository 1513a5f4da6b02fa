// Package rasaimport translates a Rasa CALM assistant into a soni
// project: `soni import rasa SRC -o DIR`.
//
// It reads the Rasa project (config.yml, endpoints.yml, domain.yml or
// domain/, the flows and nlu.yml under data/, the e2e tests under
// e2e_tests/ and the action server's Python source under actions/) with
// the position of every construct, and writes:
//   - domain.yaml: the settings, the conversation slots, the responses
//     and the custom actions, each run on the Rasa action server of
//     endpoints.yml (run: rasa, see package actions);
//   - flows/...: the flows, one file per Rasa data file, every step kind
//     translated (collect, action, say, set_slots, call, link, noop, next
//     with if/then/else as branch steps, pypred conditions as expressions);
//   - tests/...: the e2e tests as conversation tests;
//   - IMPORT.md: the migration report: what converted, and what needs a
//     person, with FILE:LINE in the Rasa project and a suggested fix.
//
// What soni cannot express is kept in the output as a comment and listed
// in the report; nothing is dropped silently. A manifest (.soni-import.json)
// records the files the importer wrote, so that re-running the import
// overwrites only those, and never a file a person edited since.
// docs/importing.md describes the translation.
package rasaimport
