package cmd

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/url"
	"slices"
	"strings"

	"github.com/gwsim/gwsim/diag"
)

// sarifFindings prints a SARIF 2.1.0 log: one run whose rules are the codes
// the findings carry, each with its help and doc link, and one result per
// finding at its file:line. Suppressed findings are results too, marked
// with a suppression (inSource for the annotation, external for --ignore
// and the config file), as code-scanning tools expect.
//
// The log is made for GitHub code scanning, which rejects a whole upload
// when one result has no physical location: every result is at a file of
// the repository, its URI relative to %SRCROOT% (the repository root,
// repoLocator). A finding about no file of the repository (a summary of
// the whole run, an object read from standard input or from outside the
// repository) is a tool execution notification of the run's invocation
// instead, which consumers show as part of the run, not as an alert.
type sarifFindings struct{}

// sarifSchema is the schema URI SARIF consumers (GitHub code scanning
// among them) recognise for 2.1.0.
const sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"

// sarifRootID names the base every artifact URI is relative to, the one
// GitHub and other consumers map onto the checkout.
const sarifRootID = "%SRCROOT%"

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                    `json:"tool"`
	OriginalURIBaseIDs map[string]sarifArtifactBase `json:"originalUriBaseIds"`
	Invocations        []sarifInvocation            `json:"invocations"`
	Results            []sarifResult                `json:"results"`
}

// sarifArtifactBase describes %SRCROOT% without an absolute URI, so that
// the log does not depend on where the checkout sits.
type sarifArtifactBase struct {
	Description sarifText `json:"description"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level          string          `json:"level"`
	Message        sarifText       `json:"message"`
	AssociatedRule sarifRuleRef    `json:"associatedRule"`
	Locations      []sarifLocation `json:"locations,omitempty"`
}

type sarifRuleRef struct {
	ID    string `json:"id"`
	Index int    `json:"index"`
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
	Locations           []sarifLocation    `json:"locations"`
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
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId"`
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
	loc := r.locator()
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{Name: "gwsim", Version: gwsimVersion(), InformationURI: projectURL, Rules: rules}},
		OriginalURIBaseIDs: map[string]sarifArtifactBase{sarifRootID: {Description: sarifText{
			Text: "The root of the repository the manifests belong to (the directory holding .git), else the directory gwsim ran in."}}},
		Results: make([]sarifResult, 0, len(r.Findings)+len(r.Suppressed)),
	}
	inv := sarifInvocation{ExecutionSuccessful: !r.Unread}
	add := func(f diag.Finding, sup []sarifSuppression) {
		if uri, ok := loc.locate(f.Source.File); ok {
			res := sarifResultOf(f, uri, index)
			res.Suppressions = sup
			run.Results = append(run.Results, res)
			return
		}
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarifNotificationOf(f, sup, index))
	}
	for _, f := range r.Findings {
		add(f, nil)
	}
	for _, s := range r.Suppressed {
		kind := "external"
		if s.InSource {
			kind = "inSource"
		}
		add(s.Finding, []sarifSuppression{{Kind: kind, Justification: "suppressed by " + s.By}})
	}
	run.Invocations = []sarifInvocation{inv}
	return writeJSON(w, sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}})
}

// sarifRules lists the codes the report uses, sorted, and where each is.
// A finding always names a rule of the log (GitHub rejects a ruleId that
// is not among the rules): a code missing from the table gets a rule of
// its own id, a finding without a code the rule of its reason.
func sarifRules(r findingsReport) ([]sarifRule, map[string]int) {
	var ids []string
	for _, f := range r.Findings {
		ids = append(ids, sarifRuleID(f))
	}
	for _, s := range r.Suppressed {
		ids = append(ids, sarifRuleID(s.Finding))
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	rules := make([]sarifRule, 0, len(ids))
	index := map[string]int{}
	for _, id := range ids {
		index[id] = len(rules)
		c, ok := diag.LookupCode(id)
		if !ok {
			rules = append(rules, sarifRule{ID: id, Name: id, ShortDescription: sarifText{Text: id}, Help: sarifText{Text: id},
				HelpURI: projectURL, Properties: sarifRuleProps{Tags: []string{}}})
			continue
		}
		rules = append(rules, sarifRule{
			ID: c.ID, Name: c.Reason, ShortDescription: sarifText{Text: c.Title}, Help: sarifText{Text: c.Help},
			HelpURI: c.HelpURL(), Properties: sarifRuleProps{Tags: []string{c.Group.String()}},
		})
	}
	return rules, index
}

// sarifRuleID is the rule a finding belongs to: its code, else its reason.
func sarifRuleID(f diag.Finding) string {
	return cmp.Or(f.Code, f.Reason, "gwsim")
}

func sarifResultOf(f diag.Finding, uri string, index map[string]int) sarifResult {
	id := sarifRuleID(f)
	res := sarifResult{RuleID: id, RuleIndex: index[id], Level: sarifLevel(f.Severity), Message: sarifText{Text: sarifMessage(f)},
		PartialFingerprints: map[string]string{"gwsimFinding/v1": findingFingerprint(f)}}
	loc := sarifLocation{PhysicalLocation: &sarifPhysicalLocation{ArtifactLocation: sarifArtifact{URI: fileURI(uri), URIBaseID: sarifRootID}}}
	if f.Source.Line > 0 {
		loc.PhysicalLocation.Region = &sarifRegion{StartLine: f.Source.Line}
	}
	loc.LogicalLocations = sarifLogical(f)
	res.Locations = []sarifLocation{loc}
	return res
}

// sarifMessage is a finding's text, or its code's title when the text is
// blank (a message made of a manifest's spaces): GitHub refuses a result
// or notification whose message has no text.
func sarifMessage(f diag.Finding) string {
	msg := findingText(f)
	if strings.TrimSpace(msg) != "" {
		return msg
	}
	if c, ok := diag.LookupCode(f.Code); ok {
		return c.Title
	}
	return sarifRuleID(f)
}

// sarifNotificationOf renders a finding that has no file in the
// repository; its message starts with the place it has, if any
// (<stdin>:12, a path outside the repository).
func sarifNotificationOf(f diag.Finding, sup []sarifSuppression, index map[string]int) sarifNotification {
	id := sarifRuleID(f)
	msg := sarifMessage(f)
	if where := f.Source.String(); where != "" {
		msg = where + ": " + msg
	}
	for _, s := range sup {
		msg += " (" + s.Justification + ")"
	}
	n := sarifNotification{Level: sarifLevel(f.Severity), Message: sarifText{Text: msg}, AssociatedRule: sarifRuleRef{ID: id, Index: index[id]}}
	if l := sarifLogical(f); l != nil {
		n.Locations = []sarifLocation{{LogicalLocations: l}}
	}
	return n
}

func sarifLogical(f diag.Finding) []sarifLogicalLocation {
	if f.Object.Kind == "" {
		return nil
	}
	return []sarifLogicalLocation{{FullyQualifiedName: f.Object.String(), Kind: "resource"}}
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

// fileURI turns a repository path into a relative URI reference: slashes
// kept, anything else a URI cannot hold escaped, and colons too, so that
// no first segment reads as a scheme (a:b.yaml is not the URI a:b.yaml).
func fileURI(path string) string {
	return strings.ReplaceAll((&url.URL{Path: path}).EscapedPath(), ":", "%3A")
}

// findingFingerprint identifies a finding apart from where it is, so that
// tools that track findings across runs follow it when lines move: a hash
// of its code, object, field and message.
func findingFingerprint(f diag.Finding) string {
	h := sha256.Sum256([]byte(f.Code + "\x00" + f.Object.String() + "\x00" + f.Field + "\x00" + f.Message))
	return hex.EncodeToString(h[:16])
}
