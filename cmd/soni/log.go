package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/convtest"
	"github.com/urfave/cli/v2"
)

func logCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "log",
		Usage:     "print a session's event log: a transcript, JSON records, or a conversation test",
		ArgsUsage: "SESSION PATH",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "store", Usage: storeUsage},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "text (a transcript), json (one record per line) or test (a conversation test case)"},
		}, limitFlags()...),
		Action: func(c *cli.Context) error {
			if c.NArg() != 2 {
				return usageError("log: takes SESSION and PATH (the project), got %d arguments", c.NArg())
			}
			session, path := c.Args().Get(0), c.Args().Get(1)
			if err := checkpoints.ValidateID(session); err != nil {
				return usageError("log: %s", err)
			}
			format := c.String("format")
			if format != "text" && format != "json" && format != "test" {
				return usageError("log: unknown format %q: use text, json or test", format)
			}
			store, err := openStore(c.String("store"), defaultCheckpoints(path), readOnly)
			if err != nil {
				return storeError("log", c.String("store"), err)
			}
			defer store.Close()
			recs, err := readLog(c.Context, store, session)
			if err != nil {
				return cli.Exit(fmt.Sprintf("log: %s", err), exitFailed)
			}
			if len(recs) == 0 {
				return cli.Exit(fmt.Sprintf("log: session %q has no logged turns in this store", session), exitFailed)
			}
			switch format {
			case "json":
				enc := json.NewEncoder(e.stdout)
				enc.SetEscapeHTML(false)
				for _, r := range recs {
					if err := enc.Encode(r); err != nil {
						return cli.Exit(fmt.Sprintf("log: %s", err), exitFailed)
					}
				}
			case "text":
				writeTranscript(e.stdout, recs)
			case "test":
				warnings := convtest.WriteTestCase(e.stdout, session, path, recs)
				for _, w := range warnings {
					fmt.Fprintln(e.stderr, "soni: log:", w)
				}
			}
			return nil
		},
	}
}

// readLog reads a session's turn records from a store.
func readLog(ctx context.Context, store checkpoints.Store, session string) ([]soni.TurnRecord, error) {
	raw, err := store.Log(ctx, session, 0, 0)
	if err != nil {
		return nil, err
	}
	out := make([]soni.TurnRecord, 0, len(raw))
	for _, r := range raw {
		var tr soni.TurnRecord
		if err := json.Unmarshal(r.Data, &tr); err != nil {
			return nil, fmt.Errorf("the record of revision %d is not a turn record: %v", r.Revision, err)
		}
		out = append(out, tr)
	}
	return out, nil
}

// writeTranscript prints the conversation as people read it.
func writeTranscript(w io.Writer, recs []soni.TurnRecord) {
	for _, r := range recs {
		switch {
		case r.Given != nil:
			b, _ := json.Marshal(r.Given)
			fmt.Fprintf(w, "[%d] user (commands): %s\n", r.Revision, b)
		default:
			fmt.Fprintf(w, "[%d] user: %s\n", r.Revision, r.Text)
		}
		for i, t := range r.Replies {
			// A reply said from a response names it, and its buttons.
			var extra []string
			if i < len(r.Messages) {
				m := r.Messages[i]
				if m.Response != "" {
					extra = append(extra, m.Response)
				}
				for _, b := range m.Buttons {
					extra = append(extra, fmt.Sprintf("[%s: %s]", b.Title, b.Payload))
				}
			}
			if len(extra) > 0 {
				fmt.Fprintf(w, "    bot: %s  (%s)\n", t, strings.Join(extra, " "))
				continue
			}
			fmt.Fprintf(w, "    bot: %s\n", t)
		}
	}
}

func sessionsCommand(e *env) *cli.Command {
	storeFlag := &cli.StringFlag{Name: "store", Usage: storeUsage}
	// Neither listing nor pruning ever changes a database store's tables.
	open := func(c *cli.Context, cmd string) (checkpoints.Store, error) {
		switch {
		case c.IsSet("store"):
			return openStore(c.String("store"), "", readOnly)
		case c.NArg() == 1:
			return openStore("", defaultCheckpoints(c.Args().First()), readOnly)
		}
		return nil, usageError("sessions %s: give --store URL, or the project PATH whose default store to use", cmd)
	}
	return &cli.Command{
		Name:  "sessions",
		Usage: "list or prune the conversations of a store",
		Subcommands: []*cli.Command{
			{
				Name:      "list",
				Usage:     "list the sessions: id, revision, last activity, the flow on top",
				ArgsUsage: "[PATH]",
				Flags:     []cli.Flag{storeFlag},
				Action: func(c *cli.Context) error {
					store, err := open(c, "list")
					if err != nil {
						return sessionsError(c, err)
					}
					defer store.Close()
					infos, err := store.List(c.Context, "", 0)
					if err != nil {
						return cli.Exit(fmt.Sprintf("sessions list: %s", err), exitFailed)
					}
					tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
					fmt.Fprintln(tw, "SESSION\tREVISION\tLAST ACTIVITY\tFLOW\tVERSION")
					for _, in := range infos {
						flow, ver := "-", ""
						if b, _, err := store.Load(c.Context, in.ID); err == nil {
							var cp struct {
								Fingerprint string
								Stack       []struct{ Flow string }
							}
							if json.Unmarshal(b, &cp) == nil {
								ver = cp.Fingerprint
								if len(cp.Stack) > 0 {
									flow = cp.Stack[len(cp.Stack)-1].Flow
								}
							}
						}
						fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", in.ID, in.Revision, in.Updated.UTC().Format(time.RFC3339), flow, shortVersion(ver))
					}
					return tw.Flush()
				},
			},
			{
				Name:      "prune",
				Usage:     "delete the sessions idle for longer than --older-than, with their logs and message ids",
				ArgsUsage: "[PATH]",
				Flags: []cli.Flag{storeFlag,
					&cli.StringFlag{Name: "older-than", Required: true, Usage: "idle `AGE`: 30d, 12h, 90m"},
				},
				Action: func(c *cli.Context) error {
					age, err := parseAge(c.String("older-than"))
					if err != nil {
						return usageError("sessions prune: %s", err)
					}
					store, err := open(c, "prune")
					if err != nil {
						return sessionsError(c, err)
					}
					defer store.Close()
					before := time.Now().Add(-age)
					n, err := store.Prune(c.Context, before)
					if err != nil {
						return cli.Exit(fmt.Sprintf("sessions prune: %s (%d pruned before the error)", err, n), exitFailed)
					}
					fmt.Fprintf(e.stdout, "pruned %d sessions idle for more than %s\n", n, c.String("older-than"))
					// Then the program versions no session uses any more.
					gone, err := soni.PruneVersions(c.Context, store, before)
					if err != nil {
						return cli.Exit(fmt.Sprintf("sessions prune: program versions: %s", err), exitFailed)
					}
					if len(gone) > 0 {
						fmt.Fprintf(e.stdout, "pruned %d program versions no session uses\n", len(gone))
					}
					return nil
				},
			},
		},
	}
}

func sessionsError(c *cli.Context, err error) error {
	if _, ok := err.(cli.ExitCoder); ok {
		return err
	}
	return storeError("sessions", c.String("store"), err)
}

// parseAge reads an age: a Go duration, or a number of days ("30d").
func parseAge(s string) (time.Duration, error) {
	if d, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseFloat(d, 64)
		if err == nil && n > 0 {
			return time.Duration(n * float64(24*time.Hour)), nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("--older-than %q is not an age: write 30d, 12h or 90m", s)
	}
	return d, nil
}
