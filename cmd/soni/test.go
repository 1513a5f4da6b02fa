package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/soni-dev/soni/actions"
	"github.com/soni-dev/soni/convtest"
	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/understand/llm"
	"github.com/soni-dev/soni/vm"
	"github.com/urfave/cli/v2"
)

func testCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "test",
		Usage:     "run conversation tests (YAML files with test_cases)",
		ArgsUsage: "PATH...",
		Description: "PATH is a test file or a directory searched recursively for test files.\n" +
			"The project under test is --flows, else the file's flows: key, else the nearest\n" +
			"directory from the file's up to PATH that holds flow files, else PATH itself when\n" +
			"flow files sit further below it. See docs/testing.md.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "flows", Usage: "test the project at `PATH` (a flow file, a directory or a compiled program), for every file"},
			&cli.BoolFlag{Name: "update", Usage: "rewrite the bot steps of failing turns with the actual replies"},
			&cli.StringFlag{Name: "junit", Usage: "write a JUnit XML report to `FILE`"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text or json"},
			&cli.BoolFlag{Name: "coverage", Usage: "print the steps no test reached, per flow"},
			&cli.Float64Flag{Name: "coverage-min", Usage: "fail when a project's step coverage is below `PERCENT` (implies --coverage)", DefaultText: "off"},
			&cli.StringFlag{Name: "run", Usage: "run only the test cases whose names match `REGEXP`"},
			&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Usage: "run `N` test cases at once", DefaultText: "the number of CPUs"},
			&cli.StringFlag{Name: "sender-suffix", Value: "auto", Usage: "add `SUFFIX` to the sender_id a Rasa action server sees; auto is a new one each run, so per-sender state from the last run is not seen; empty adds none"},
			llmFixturesFlag(),
		}, append(understandingFlags(), limitFlags()...)...),
		Action: func(c *cli.Context) (err error) {
			format := c.String("format")
			if format != "text" && format != "json" {
				return usageError("test: unknown format %q: use text or json", format)
			}
			if c.NArg() == 0 {
				return usageError("test: missing PATH (a test file or a directory of tests)")
			}
			if c.Int("jobs") < 0 {
				return usageError("test: --jobs must be at least 1, not %d", c.Int("jobs"))
			}
			minCov := c.Float64("coverage-min")
			if minCov < 0 || minCov > 100 {
				return usageError("test: --coverage-min must be between 0 and 100, not %v", minCov)
			}
			over, finish, err := llmOverrides(e, c)
			if err != nil {
				return err
			}
			defer func() { err = finish(err) }()
			suffix := c.String("sender-suffix")
			if suffix == "auto" {
				suffix = runSuffix()
			}
			opts := convtest.Options{
				Flows:    c.String("flows"),
				Jobs:     c.Int("jobs"),
				Compiler: compilerOptions(c),
				Actions: func(p *ir.Program, dir string, env func(string) (string, bool)) vm.ActionRunner {
					return actions.New(p, dir, actions.Options{LookupEnv: env, RasaSenderSuffix: suffix})
				},
				Understander: func(p *ir.Program, dir string) (vm.Understander, error) {
					u, _, err := llm.Select(p, dir, over, nil)
					return u, err
				},
			}
			if pat := c.String("run"); pat != "" {
				re, err := regexp.Compile(pat)
				if err != nil {
					return usageError("test: --run %q is not a valid regular expression: %s", pat, err)
				}
				opts.Run = re
			}
			paths := c.Args().Slice()
			suite, err := loadSuite(e, paths, opts)
			if err != nil {
				return err
			}
			report := suite.Run(c.Context)
			if opts.Run != nil && report.Passed+report.Failed+report.Skipped == 0 {
				// Most likely a typo in the pattern: say so rather than
				// let "0 passed, 0 failed" pass unnoticed.
				fmt.Fprintf(e.stderr, "soni: test: --run %q matches no test case\n", opts.Run.String())
			}
			if c.Bool("update") && report.Failed > 0 {
				changed, err := convtest.Update(report)
				for _, f := range changed {
					fmt.Fprintf(e.stderr, "updated %s\n", f)
				}
				if err != nil {
					// Cases that could not be rewritten are left as they
					// are and still fail below; say why, then report.
					for _, line := range strings.Split(err.Error(), "\n") {
						fmt.Fprintf(e.stderr, "soni: test: --update: %s\n", line)
					}
				}
				if len(changed) > 0 {
					if suite, err = loadSuite(e, paths, opts); err != nil {
						return err
					}
					report = suite.Run(c.Context)
				}
			}
			if err := writeReport(e, report, format); err != nil {
				return cli.Exit(fmt.Sprintf("test: %s", err), exitUsage)
			}
			if out := c.String("junit"); out != "" {
				if err := writeJUnit(out, report); err != nil {
					return cli.Exit(fmt.Sprintf("test: cannot write %q: %s", out, errText(err)), exitUsage)
				}
			}
			failed := report.Failed > 0
			if c.Bool("coverage") || c.IsSet("coverage-min") {
				w := e.stdout
				if format == "json" {
					w = e.stderr
				}
				_ = convtest.WriteCoverage(w, report.Coverage)
				if c.IsSet("coverage-min") {
					for _, pc := range report.Coverage {
						if pc.Percent() < minCov {
							fmt.Fprintf(e.stderr, "coverage of %s is %.1f%%, below --coverage-min %v\n", pc.Project, pc.Percent(), minCov)
							failed = true
						}
					}
				}
			}
			if format == "text" {
				fmt.Fprintln(e.stdout, report.Summary())
			} else {
				fmt.Fprintln(e.stderr, report.Summary())
			}
			if failed {
				return cli.Exit("", exitFailed)
			}
			return nil
		},
	}
}

// loadSuite loads the test files and their projects; any problem in them
// prints its diagnostics and exits 2.
func loadSuite(e *env, paths []string, opts convtest.Options) (*convtest.Suite, error) {
	suite := convtest.Load(paths, opts)
	if suite.Diags.HasErrors() {
		_ = diag.WriteText(e.stderr, suite.Diags, suite.Sources, diag.TextOptions{Color: isTerminal(e.stderr) && e.color()})
		return nil, cli.Exit("", exitUsage)
	}
	return suite, nil
}

// writeReport writes the failures (text) or one object per case (json).
func writeReport(e *env, r *convtest.Report, format string) error {
	if format == "json" {
		return convtest.WriteJSON(e.stdout, r)
	}
	// The summary line is written last, after any coverage.
	return convtest.WriteFailures(e.stdout, r, convtest.TextOptions{Color: e.color(), Notes: importNotes()})
}

func writeJUnit(path string, r *convtest.Report) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := convtest.WriteJUnit(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// runSuffix is a sender_id suffix of its own for one soni test run: a
// dash and eight random hex digits.
func runSuffix() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return "-" + hex.EncodeToString(b[:])
}
