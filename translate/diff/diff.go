// Package diff says what a change to a set of manifests does to routing, in
// the terms a pull-request reviewer reads: which route matches of which
// Gateway, port and host were added, removed or changed, which requests now
// end somewhere else, which status conditions move, and which findings the
// change introduces or fixes.
//
// It compares two results of the one pipeline (load, offline controller,
// translate) and computes nothing of its own about routing: requests are
// run through translate/evaluate, the data-plane model explain and test use,
// and dead matches come from translate/shadow, which check reports from.
// It is pure: two Sides in, a Report out, every list sorted.
package diff

import (
	"fmt"
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate"
)

// Side is one version of the manifests, as the pipeline saw it.
type Side struct {
	// Output is translate's result over the whole world: IR and status.
	Output translate.Output
	// Findings are every finding of the run (loader, assumptions,
	// translation, unhealthy conditions), as check lists them.
	Findings []diag.Finding
	// Objects are the objects of the run by reference, for the changes
	// no other part places (see Unplaced); nil leaves that part out.
	Objects map[diag.ObjectRef]client.Object
}

// Report is everything that differs between two Sides. Each list is sorted
// so that the same change gives the same bytes.
type Report struct {
	Summary  Summary         `json:"summary"`
	Routes   []RouteChange   `json:"routes"`
	Requests []RequestChange `json:"requests"`
	Status   []StatusChange  `json:"status"`
	Findings FindingChanges  `json:"findings"`
	// Unplaced are the objects that changed where no other part shows
	// what the change does.
	Unplaced []Unplaced `json:"unplaced"`
}

// Summary counts the report's changes.
type Summary struct {
	// Text is the one-line summary (see String).
	Text string `json:"text"`
	// RoutesChanged is the number of route objects with a changed match.
	RoutesChanged int `json:"routesChanged"`
	// RequestsChanged is the number of representative requests whose
	// outcome differs.
	RequestsChanged int `json:"requestsChanged"`
	// ElsewhereChanged is the number of those routes whose Gateway is
	// not in the input (or that name none): diff places their changes at
	// route level, and cannot evaluate their requests without the
	// Gateway, so --fail-on request-changes counts them as changing.
	ElsewhereChanged int `json:"elsewhereChanged"`
	StatusChanges    int `json:"statusChanges"`
	NewErrors        int `json:"newErrors"`
	NewWarnings      int `json:"newWarnings"`
	// NewOther counts introduced info findings.
	NewOther int `json:"newInfos"`
	Fixed    int `json:"fixed"`
	// Unplaced counts the objects whose change diff cannot place.
	Unplaced int `json:"unplaced"`
}

// Compare computes what changes from old to new.
func Compare(old, new Side) Report {
	r := Report{
		Routes:   compareRoutes(old.Output, new.Output),
		Requests: compareRequests(old.Output.IR, new.Output.IR),
		Status:   compareStatus(old.Output.Status, new.Output.Status),
		Findings: compareFindings(old.Findings, new.Findings),
	}
	r.Routes, r.Requests, r.Status = nonNil(r.Routes), nonNil(r.Requests), nonNil(r.Status)
	r.Findings.Introduced, r.Findings.Fixed = nonNil(r.Findings.Introduced), nonNil(r.Findings.Fixed)
	r.Unplaced = nonNil(compareUnplaced(old.Objects, new.Objects, r))
	r.Summary = summarize(r)
	r.Summary.Text = r.Summary.String()
	return r
}

// Empty reports whether nothing changed.
func (r Report) Empty() bool {
	return len(r.Routes) == 0 && len(r.Requests) == 0 && len(r.Status) == 0 &&
		len(r.Findings.Introduced) == 0 && len(r.Findings.Fixed) == 0 && len(r.Unplaced) == 0
}

func summarize(r Report) Summary {
	routes, elsewhere := map[string]bool{}, map[string]bool{}
	for _, c := range r.Routes {
		name := c.Route.Kind + " " + c.Route.Namespace + "/" + c.Route.Name
		routes[name] = true
		if c.Place.Port == 0 && c.Place.Listener == "" && c.Place.Gateway != "" {
			elsewhere[name] = true
		}
	}
	s := Summary{RoutesChanged: len(routes), ElsewhereChanged: len(elsewhere), RequestsChanged: len(r.Requests), StatusChanges: len(r.Status),
		Fixed: len(r.Findings.Fixed), Unplaced: len(r.Unplaced)}
	for _, f := range r.Findings.Introduced {
		switch f.Severity {
		case diag.Error:
			s.NewErrors++
		case diag.Warning:
			s.NewWarnings++
		default:
			s.NewOther++
		}
	}
	return s
}

// String is the report's one-line summary, for the top of a pull-request
// comment: "3 routes changed, 2 requests change destination, 1 new error".
// Routes and requests are always counted; the rest only when not zero.
func (s Summary) String() string {
	parts := []string{
		count(s.RoutesChanged, "route changed", "routes changed"),
		count(s.RequestsChanged, "request changes destination", "requests change destination"),
	}
	if s.ElsewhereChanged > 0 {
		parts = append(parts, count(s.ElsewhereChanged, "route changed whose Gateway is not in the input (its requests are not evaluated)",
			"routes changed whose Gateway is not in the input (their requests are not evaluated)"))
	}
	if s.StatusChanges > 0 {
		parts = append(parts, count(s.StatusChanges, "status condition changes", "status conditions change"))
	}
	if s.NewErrors > 0 {
		parts = append(parts, count(s.NewErrors, "new error", "new errors"))
	}
	if s.NewWarnings > 0 {
		parts = append(parts, count(s.NewWarnings, "new warning", "new warnings"))
	}
	if s.NewOther > 0 {
		parts = append(parts, count(s.NewOther, "new info", "new infos"))
	}
	if s.Fixed > 0 {
		parts = append(parts, count(s.Fixed, "finding fixed", "findings fixed"))
	}
	if s.Unplaced > 0 {
		parts = append(parts, count(s.Unplaced, "object changed whose effect diff cannot place", "objects changed whose effect diff cannot place"))
	}
	return strings.Join(parts, ", ")
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// nonNil makes an empty list render as [] in JSON, not null, so that a
// consumer can iterate every part without a check.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
