package cmd

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/url"
	"slices"

	"github.com/gwsim/gwsim/translate/diag"
)

// sarifFindings prints a SARIF 2.1.0 log: one run whose rules are the codes
// the findings carry, each with its help and doc link, and one result per
// finding at its file:line. Suppressed findings are results too, marked
// with a suppression (inSource for the annotation, external for --ignore
// and the config file), as code-scanning tools expect.
type sarifFindings struct{}

// sarifSchema is the schema URI SARIF consumers (GitHub code scanning
// among them) recognise for 2.1.0.
const sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string         `json:"id"`
	Name             string         `json:"name"`
	ShortDescription sarifText      `json:"shortDescription"`
	Help             sarifText      `json:"help"`
	HelpURI          string         `json:"helpUri"`
	Properties       sarifRuleProps `json:"properties"`
}

type sarifRuleProps struct {
	Tags []string `json:"tags"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID              string             `json:"ruleId"`
	RuleIndex           int                `json:"ruleIndex"`
	Level               string             `json:"level"`
	Message             sarifText          `json:"message"`
	Locations           []sarifLocation    `json:"locations,omitempty"`
	PartialFingerprints map[string]string  `json:"partialFingerprints"`
	Suppressions        []sarifSuppression `json:"suppressions,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation *sarifPhysicalLocation `json:"physicalLocation,omitempty"`
	LogicalLocations []sarifLogicalLocation `json:"logicalLocations,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

type sarifLogicalLocation struct {
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

type sarifSuppression struct {
	Kind          string `json:"kind"`
	Justification string `json:"justification"`
}

func (sarifFindings) render(w io.Writer, r findingsReport) error {
	rules, index := sarifRules(r)
	results := make([]sarifResult, 0, len(r.Findings)+len(r.Suppressed))
	for _, f := range r.Findings {
		results = append(results, sarifResultOf(f, index))
	}
	for _, s := range r.Suppressed {
		res := sarifResultOf(s.Finding, index)
		kind := "external"
		if s.InSource {
			kind = "inSource"
		}
		res.Suppressions = []sarifSuppression{{Kind: kind, Justification: "suppressed by " + s.By}}
		results = append(results, res)
	}
	log := sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{{
		Tool:    sarifTool{Driver: sarifDriver{Name: "gwsim", Version: gwsimVersion(), InformationURI: projectURL, Rules: rules}},
		Results: results,
	}}}
	return writeJSON(w, log)
}

// sarifRules lists the codes the report uses, sorted, and where each is.
func sarifRules(r findingsReport) ([]sarifRule, map[string]int) {
	var ids []string
	for _, f := range r.Findings {
		ids = append(ids, f.Code)
	}
	for _, s := range r.Suppressed {
		ids = append(ids, s.Code)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	rules := make([]sarifRule, 0, len(ids))
	index := map[string]int{}
	for _, id := range ids {
		c, ok := diag.LookupCode(id)
		if !ok {
			continue
		}
		index[id] = len(rules)
		rules = append(rules, sarifRule{
			ID: c.ID, Name: c.Reason, ShortDescription: sarifText{Text: c.Title}, Help: sarifText{Text: c.Help},
			HelpURI: c.HelpURL(), Properties: sarifRuleProps{Tags: []string{c.Group.String()}},
		})
	}
	return rules, index
}

func sarifResultOf(f diag.Finding, index map[string]int) sarifResult {
	res := sarifResult{RuleID: f.Code, RuleIndex: -1, Level: sarifLevel(f.Severity), Message: sarifText{Text: findingText(f)},
		PartialFingerprints: map[string]string{"gwsimFinding/v1": findingFingerprint(f)}}
	if i, ok := index[f.Code]; ok {
		res.RuleIndex = i
	}
	var loc sarifLocation
	if f.Source.File != "" {
		loc.PhysicalLocation = &sarifPhysicalLocation{ArtifactLocation: sarifArtifact{URI: fileURI(f.Source.File)}}
		if f.Source.Line > 0 {
			loc.PhysicalLocation.Region = &sarifRegion{StartLine: f.Source.Line}
		}
	}
	if f.Object.Kind != "" {
		loc.LogicalLocations = []sarifLogicalLocation{{FullyQualifiedName: f.Object.String(), Kind: "resource"}}
	}
	if loc.PhysicalLocation != nil || loc.LogicalLocations != nil {
		res.Locations = []sarifLocation{loc}
	}
	return res
}

func sarifLevel(s diag.Severity) string {
	switch s {
	case diag.Error:
		return "error"
	case diag.Warning:
		return "warning"
	}
	return "note"
}

// fileURI turns a source path into a relative URI reference: slashes kept,
// anything else a URI cannot hold escaped (<stdin> becomes %3Cstdin%3E).
func fileURI(path string) string {
	return (&url.URL{Path: path}).EscapedPath()
}

// findingFingerprint identifies a finding apart from where it is, so that
// tools that track findings across runs follow it when lines move: a hash
// of its code, object, field and message.
func findingFingerprint(f diag.Finding) string {
	h := sha256.Sum256([]byte(f.Code + "\x00" + f.Object.String() + "\x00" + f.Field + "\x00" + f.Message))
	return hex.EncodeToString(h[:16])
}
