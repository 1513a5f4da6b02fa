package diag

import (
	"errors"
	"io"
	"net/url"
	"path/filepath"
	"strings"
)

// SARIFVersion and SARIFSchema identify the SARIF format WriteSARIF emits.
const (
	SARIFVersion = "2.1.0"
	SARIFSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
)

// ToolInfo names the tool in a SARIF log (runs[0].tool.driver).
type ToolInfo struct {
	// Name is the tool's name, such as "soni". It must not be empty.
	Name string
	// Version is the tool's version; left out of the log when empty.
	Version string
	// InformationURI is the tool's home page; left out when empty.
	InformationURI string
}

// The SARIF object model, reduced to the properties WriteSARIF fills. Field
// order is output order.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool       sarifTool       `json:"tool"`
		ColumnKind string          `json:"columnKind"`
		Artifacts  []sarifArtifact `json:"artifacts,omitempty"`
		Results    []sarifResult   `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri,omitempty"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string             `json:"id"`
		Name                 string             `json:"name"`
		ShortDescription     sarifText          `json:"shortDescription"`
		FullDescription      sarifText          `json:"fullDescription"`
		Help                 sarifText          `json:"help"`
		DefaultConfiguration sarifConfiguration `json:"defaultConfiguration"`
	}
	sarifText struct {
		Text string `json:"text"`
	}
	sarifConfiguration struct {
		Level string `json:"level"`
	}
	sarifArtifact struct {
		Location sarifArtifactLocation `json:"location"`
	}
	sarifArtifactLocation struct {
		URI   string `json:"uri"`
		Index *int   `json:"index,omitempty"`
	}
	sarifResult struct {
		RuleID     string             `json:"ruleId"`
		RuleIndex  *int               `json:"ruleIndex,omitempty"`
		Level      string             `json:"level"`
		Message    sarifText          `json:"message"`
		Locations  []sarifLocation    `json:"locations,omitempty"`
		Properties *sarifResultExtras `json:"properties,omitempty"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	}
	sarifPhysicalLocation struct {
		ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
		Region           *sarifRegion          `json:"region,omitempty"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn,omitempty"`
	}
	sarifResultExtras struct {
		Path string `json:"path"`
	}
)

// WriteSARIF writes l as a SARIF 2.1.0 log with one run. The driver's rules
// are the whole catalogue (Rules), so a code-scanning tool can show the help
// of every code; each diagnostic becomes a result pointing at its rule.
// Columns count Unicode code points (columnKind "unicodeCodePoints"), as
// Pos.Col does. File names become relative URIs with forward slashes, or
// file:// URIs for absolute paths; every file appears once in artifacts.
// A diagnostic without a file has no locations. The output is indented by
// two spaces and ends with a newline.
func WriteSARIF(w io.Writer, l List, tool ToolInfo) error {
	if tool.Name == "" {
		return errors.New("sarif: tool name is empty")
	}
	rules := make([]sarifRule, len(Rules))
	ruleIndex := make(map[string]int, len(Rules))
	for i, r := range Rules {
		ruleIndex[r.Code] = i
		rules[i] = sarifRule{
			ID:                   r.Code,
			Name:                 r.Name,
			ShortDescription:     sarifText{r.Summary},
			FullDescription:      sarifText{r.Help},
			Help:                 sarifText{r.Help},
			DefaultConfiguration: sarifConfiguration{r.Severity.String()},
		}
	}

	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:           tool.Name,
			Version:        tool.Version,
			InformationURI: tool.InformationURI,
			Rules:          rules,
		}},
		ColumnKind: "unicodeCodePoints",
		Results:    make([]sarifResult, 0, len(l)),
	}
	artifactIndex := map[string]int{}
	for _, d := range l {
		res := sarifResult{
			RuleID:  d.Code,
			Level:   d.Severity.String(),
			Message: sarifText{messageWithSuggestion(d)},
		}
		if i, ok := ruleIndex[d.Code]; ok {
			res.RuleIndex = &i
		}
		if d.Pos.File != "" {
			uri := fileURI(d.Pos.File)
			idx, ok := artifactIndex[uri]
			if !ok {
				idx = len(run.Artifacts)
				artifactIndex[uri] = idx
				run.Artifacts = append(run.Artifacts, sarifArtifact{Location: sarifArtifactLocation{URI: uri}})
			}
			loc := sarifPhysicalLocation{ArtifactLocation: sarifArtifactLocation{URI: uri, Index: &idx}}
			if d.Pos.IsValid() {
				loc.Region = &sarifRegion{StartLine: d.Pos.Line, StartColumn: max(d.Pos.Col, 0)}
			}
			res.Locations = []sarifLocation{{PhysicalLocation: loc}}
		}
		if d.Path != "" {
			res.Properties = &sarifResultExtras{Path: d.Path}
		}
		run.Results = append(run.Results, res)
	}

	return writeIndentedJSON(w, sarifLog{
		Schema:  SARIFSchema,
		Version: SARIFVersion,
		Runs:    []sarifRun{run},
	})
}

// fileURI turns a file name into a URI reference: forward slashes, each
// path segment percent-encoded, relative names kept relative and absolute
// ones given the file scheme.
func fileURI(name string) string {
	p := filepath.ToSlash(name)
	if strings.HasPrefix(p, "/") {
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	return (&url.URL{Path: p}).String()
}
