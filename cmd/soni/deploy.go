package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/versions"
	"github.com/urfave/cli/v2"
)

// deployCommand is soni deploy check: what a new program would do with
// every live session of a store, before it ships.
func deployCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "deploy",
		Usage: "check a new version of the flows against the live sessions before it ships",
		Subcommands: []*cli.Command{{
			Name:      "check",
			Usage:     "say, per live session of --store, whether NEW_PROJECT moves it, lets it finish on its version, or runs pattern_code_change (exit 1 then)",
			ArgsUsage: "NEW_PROJECT",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "store", Usage: storeUsage},
				&cli.BoolFlag{Name: "json", Usage: "print the report as JSON"},
			},
			Action: func(c *cli.Context) error {
				path, err := oneProject(c)
				if err != nil {
					return err
				}
				if !c.IsSet("store") {
					return usageError("deploy check: give --store URL, the store of the live sessions to check %s against", path)
				}
				prog, err := loadProgram(e, c, path, true)
				if err != nil {
					return err
				}
				store, err := openStore(c.String("store"), "", readOnly)
				if err != nil {
					return storeError("deploy check", c.String("store"), err)
				}
				defer store.Close()
				eng, err := soni.New(prog, soni.Options{Store: store, Dir: soni.ProjectDir(path)})
				if err != nil {
					return cli.Exit(fmt.Sprintf("deploy check: %s", err), exitFailed)
				}
				rep, err := eng.CheckDeploy(c.Context)
				if err != nil {
					return cli.Exit(fmt.Sprintf("deploy check: %s", err), exitFailed)
				}
				if c.Bool("json") {
					enc := json.NewEncoder(e.stdout)
					enc.SetIndent("", "  ")
					if err := enc.Encode(rep); err != nil {
						return err
					}
				} else {
					printDeployReport(e, rep)
				}
				if n := rep.CodeChanges(); n > 0 {
					return cli.Exit(fmt.Sprintf("deploy check: %d of %d sessions would run pattern_code_change: their running flows would end", n, len(rep.Sessions)), exitFailed)
				}
				return nil
			},
		}},
	}
}

// shortVersion shortens a version for a table: its hash's first 12 digits.
func shortVersion(v string) string {
	if v == "" {
		return "-"
	}
	if i := strings.IndexByte(v, ':'); i >= 0 && len(v) > i+13 {
		return v[:i+13]
	}
	return v
}

// deploySummary counts a report's sessions per path, in a fixed order:
// what soni deploy check prints last and soni serve logs at each reload.
func deploySummary(rep *soni.DeployReport) string {
	var parts []string
	for _, p := range []versions.Path{versions.Same, versions.Move, versions.Finish, versions.Stay, versions.CodeChange} {
		parts = append(parts, fmt.Sprintf("%s %d", p, rep.Paths[p]))
	}
	if len(rep.Unreadable) > 0 {
		parts = append(parts, fmt.Sprintf("unreadable %d", len(rep.Unreadable)))
	}
	return strings.Join(parts, ", ")
}

func printDeployReport(e *env, rep *soni.DeployReport) {
	fmt.Fprintf(e.stdout, "new version %s (version_policy %s), %d live sessions\n", shortVersion(rep.Version), rep.Policy, len(rep.Sessions))
	if len(rep.Sessions) > 0 {
		tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "SESSION\tVERSION\tPATH\tFLOWS\tREASON")
		for _, s := range rep.Sessions {
			flows, reason := strings.Join(s.Stack, ","), s.Reason
			if flows == "" {
				flows = "-"
			}
			if reason == "" {
				reason = "-"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", s.Session, shortVersion(s.Version), s.Path, flows, reason)
		}
		_ = tw.Flush()
	}
	for _, id := range rep.Unreadable {
		fmt.Fprintf(e.stdout, "unreadable checkpoint: %s (soni sessions list shows it; a turn would fail until it is reset)\n", id)
	}
	fmt.Fprintln(e.stdout, deploySummary(rep))
}
