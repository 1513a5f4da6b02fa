package convtest

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/vm"
)

// ProjectCoverage says which steps of a project's flows the cases reached.
type ProjectCoverage struct {
	// Project is the project's path.
	Project string
	// Flows are in name order.
	Flows []*FlowCoverage
	// Covered and Total count the steps of every flow.
	Covered, Total int
}

// FlowCoverage says which steps of one flow the cases reached.
type FlowCoverage struct {
	Flow           string
	Covered, Total int
	// Missed are the steps no case reached, in step order.
	Missed []StepRef
}

// StepRef is a step of a flow with its position.
type StepRef struct {
	Step string
	Pos  diag.Pos
}

// Percent returns the share of steps covered, from 0 to 100; a project
// with no steps is fully covered.
func (c *ProjectCoverage) Percent() float64 { return percent(c.Covered, c.Total) }

// Percent returns the share of the flow's steps covered, from 0 to 100.
func (c *FlowCoverage) Percent() float64 { return percent(c.Covered, c.Total) }

func percent(covered, total int) float64 {
	if total == 0 {
		return 100
	}
	return 100 * float64(covered) / float64(total)
}

// coverage merges the steps each worker saw into per-project coverage.
func coverage(projects []*Project, visits []map[*Project]map[vm.StepVisit]bool) []*ProjectCoverage {
	var out []*ProjectCoverage
	for _, p := range projects {
		pc := &ProjectCoverage{Project: p.Path}
		seen := func(key vm.StepVisit) bool {
			for _, v := range visits {
				if v[p][key] {
					return true
				}
			}
			return false
		}
		flows := append(p.Program.Flows[:0:0], p.Program.Flows...)
		sort.Slice(flows, func(i, j int) bool { return flows[i].Name < flows[j].Name })
		for _, f := range flows {
			if f.Builtin {
				continue // soni's default patterns are not the project's to cover
			}
			fc := &FlowCoverage{Flow: f.Name, Total: len(f.Nodes)}
			for _, n := range f.Nodes {
				if seen(vm.StepVisit{Flow: f.Name, Step: n.ID}) {
					fc.Covered++
				} else {
					fc.Missed = append(fc.Missed, StepRef{Step: n.ID, Pos: p.filePos(n.Pos)})
				}
			}
			pc.Flows = append(pc.Flows, fc)
			pc.Covered += fc.Covered
			pc.Total += fc.Total
		}
		out = append(out, pc)
	}
	return out
}

// WriteCoverage writes the coverage of each project: the project's total,
// then per flow the steps covered and every step not reached with its
// file:line:col.
func WriteCoverage(w io.Writer, cov []*ProjectCoverage) error {
	var b strings.Builder
	for _, pc := range cov {
		fmt.Fprintf(&b, "coverage of %s: %d/%d steps (%.1f%%)\n", pc.Project, pc.Covered, pc.Total, pc.Percent())
		width := 0
		for _, fc := range pc.Flows {
			width = max(width, len(fc.Flow))
		}
		for _, fc := range pc.Flows {
			fmt.Fprintf(&b, "  %-*s  %d/%d (%.1f%%)\n", width, fc.Flow, fc.Covered, fc.Total, fc.Percent())
			for _, m := range fc.Missed {
				fmt.Fprintf(&b, "    not reached: %s %s\n", m.Step, m.Pos)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// filePos turns a program position, relative to the project directory,
// into one that names the file as the project's path was given, so that
// a report's positions can be clicked.
func (p *Project) filePos(pos diag.Pos) diag.Pos {
	if pos.File != "" && !filepath.IsAbs(filepath.FromSlash(pos.File)) {
		pos.File = filepath.ToSlash(filepath.Join(p.Dir, filepath.FromSlash(pos.File)))
	}
	return pos
}
