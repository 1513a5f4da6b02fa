// Package convtest runs conversation tests: YAML files whose top level has
// test_cases, each a scripted conversation with the replies, slots and
// events expected at every turn (docs/testing.md describes the format).
//
// The phases run in one direction, like the compiler's: [Load] finds the
// test files below the paths it is given, reads them with positions
// (package syntax's test file model, syntax.DecodeTests), resolves and compiles the project each file tests, and checks every name
// a test uses against the compiled program. Any problem in a test file or
// its project is a diagnostic, never a pass. [Suite.Run] then runs every
// case as a new conversation, in parallel on a pool of workers, and returns
// a [Report] whose order does not depend on scheduling. The report renders
// as text ([WriteText]), JSON lines ([WriteJSON]) or JUnit XML
// ([WriteJUnit]); [Update] rewrites the bot steps of failing turns in place
// (through syntax.EncodeTests, which keeps the rest of the file as it
// was), [WriteTestCase] writes a logged conversation as a test file, and
// [Report.Coverage] tells which steps no case reached.
package convtest
