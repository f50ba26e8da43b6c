package cmd

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/gwsim/gwsim/internal/safetext"
	"github.com/gwsim/gwsim/translate/explain"
	"github.com/gwsim/gwsim/translate/ir"
)

// renderExplain prints a trace as numbered steps (text) or as JSON.
func renderExplain(w io.Writer, f format, t explain.Trace) error {
	if f == formatJSON {
		return writeJSON(w, t)
	}
	// Every line's text is made visible (safetext.Visible) where it is
	// written: steps, answers and notes quote names, hosts and headers
	// from the manifests and the request, and the only line breaks are
	// the ones written here.
	var b strings.Builder
	writeExplainRequest(&b, t.Request)
	steps := explainSteps(t)
	for i, step := range steps {
		fmt.Fprintf(&b, "%d. %s\n", i+1, safetext.Visible(step[0]))
		for _, line := range step[1:] {
			b.WriteString("   " + safetext.Visible(line) + "\n")
		}
	}
	if len(steps) > 0 {
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "Answer: %s\n", safetext.Visible(t.Answer))
	if t.GRPCStatus != "" {
		fmt.Fprintf(&b, "gRPC status: %s\n", safetext.Visible(t.GRPCStatus))
	}
	writeNearMisses(&b, t.NearMisses)
	for _, n := range t.Notes {
		fmt.Fprintf(&b, "\nNote: %s\n", safetext.Visible(n))
	}
	writePolicyNotes(&b, t.Policies)
	if t.Caveat != "" {
		fmt.Fprintf(&b, "\nCaveat: %s\n", safetext.Visible(t.Caveat))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeExplainRequest(b *strings.Builder, r explain.RequestView) {
	var line strings.Builder
	writeRequestLine(&line, r)
	b.WriteString(safetext.Visible(line.String()) + "\n")
	names := make([]string, 0, len(r.Headers))
	for k := range r.Headers {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		for _, v := range r.Headers[k] {
			fmt.Fprintf(b, "  %s: %s\n", safetext.Visible(k), safetext.Visible(v))
		}
	}
	b.WriteString("\n")
}

// writeRequestLine writes the request's first line, without its line break.
func writeRequestLine(b *strings.Builder, r explain.RequestView) {
	host := r.Host
	if (r.Scheme == "http" && r.Port != 80) || (r.Scheme == "https" && r.Port != 443) {
		host += ":" + strconv.Itoa(int(r.Port))
	}
	var notes []string
	if r.SNI != "" && r.SNI != r.Host {
		notes = append(notes, "SNI "+r.SNI)
	}
	if r.Address != "" {
		notes = append(notes, "address "+r.Address)
	}
	if r.ClientIP != "" {
		notes = append(notes, "from "+r.ClientIP)
	}
	switch {
	case r.Method == "": // a connection
		fmt.Fprintf(b, "Connection: %s://%s:%d", r.Scheme, r.Host, r.Port)
	case r.GRPC:
		scheme := "grpc"
		if r.Scheme == "https" {
			scheme = "grpcs"
		}
		fmt.Fprintf(b, "gRPC call: %s://%s%s", scheme, host, r.Path)
	default:
		fmt.Fprintf(b, "Request: %s %s://%s%s", r.Method, r.Scheme, host, r.Path)
	}
	if r.NormalizedPath != "" {
		notes = append(notes, "path normalised to "+r.NormalizedPath)
	}
	if len(notes) > 0 {
		fmt.Fprintf(b, " (%s)", strings.Join(notes, ", "))
	}
}

// explainSteps lists the steps the request went through; each step is its
// headline followed by indented detail lines.
func explainSteps(t explain.Trace) [][]string {
	var steps [][]string
	if g := t.Gateway; g != nil {
		steps = append(steps, []string{fmt.Sprintf("%s takes port %d", refString(explain.Ref(*g)), t.Request.Port)})
	}
	if l := t.Listener; l != nil {
		steps = append(steps, listenerLines(t, *l))
	}
	if c := t.Connection; c != nil {
		steps = append(steps, connectionLines(*c))
	}
	if t.VirtualHost != "" {
		steps = append(steps, []string{"Virtual host " + t.VirtualHost})
	}
	if r := t.Route; r != nil {
		steps = append(steps, routeLines(*r, t.Losers))
	}
	if len(t.PolicyEffects) > 0 {
		steps = append(steps, policyEffectLines(t.PolicyEffects))
	}
	if len(t.Filters) > 0 || t.Forwarded != nil {
		steps = append(steps, filterLines(t))
	}
	if t.Location != "" {
		steps = append(steps, []string{fmt.Sprintf("Redirect %d, Location: %s", t.Status, t.Location)})
	}
	if c := t.CORS; c != nil {
		steps = append(steps, corsLines(*c))
	}
	if p := t.Settings; p != nil {
		steps = append(steps, settingsLines(*p))
	}
	if len(t.Backends) > 0 {
		steps = append(steps, backendLines(t.Backends, t.Route))
	}
	return steps
}

func listenerLines(t explain.Trace, l explain.ListenerStep) []string {
	host := "any hostname"
	if l.Hostname != "" {
		host = "hostname " + l.Hostname
	}
	by := "host " + t.Request.Host
	switch l.By {
	case "sni":
		by = "SNI " + t.Request.SNI
	case "port":
		by = "the connection"
	}
	head := fmt.Sprintf("Listener %s (%d/%s, %s) takes %s", l.Name, l.Port, l.Protocol, host, by)
	if l.Object.Kind != "Gateway" {
		head += " (declared by " + refString(l.Object) + ")"
	}
	lines := []string{head}
	for _, s := range l.Skipped {
		lines = append(lines, fmt.Sprintf("tried first: listener %s (hostname %s) does not cover it", s.Name, s.Hostname))
	}
	return lines
}

func routeLines(r explain.RouteStep, losers []explain.Loser) []string {
	lines := []string{"Route " + routeStepString(r)}
	if len(losers) > 0 {
		lines = append(lines, "also matched, lost on precedence:")
	}
	for _, l := range losers {
		lines = append(lines, "- "+routeStepString(l.RouteStep), "  decided by "+l.DecidedBy.Message)
	}
	return lines
}

// routeStepString renders `HTTPRoute ns/name (file:line) rule 1 "api"
// match 0: PathPrefix /api`.
func routeStepString(r explain.RouteStep) string {
	return fmt.Sprintf("%s %s match %d: %s", refString(r.Object), ruleString(r.Rule, r.RuleName), r.Match, formatMatch(r.Spec))
}

func ruleString(rule int, name string) string {
	if name == "" {
		return fmt.Sprintf("rule %d", rule)
	}
	return fmt.Sprintf("rule %d %q", rule, name)
}

func filterLines(t explain.Trace) []string {
	lines := []string{"Filters"}
	if len(t.Filters) == 0 {
		lines[0] = "Filters: none"
	}
	for _, f := range t.Filters {
		lines = append(lines, fmt.Sprintf("- %s: %s", f.Scope, formatFilters([]ir.Filter{f.Filter})))
	}
	if fw := t.Forwarded; fw != nil {
		lines = append(lines, fmt.Sprintf("forwarded request: %s %s%s", t.Request.Method, fw.Host, fw.Path))
		for _, c := range fw.Changes {
			lines = append(lines, "  "+changeString(c))
		}
	}
	if rh := t.ResponseHeaders; rh != nil {
		lines = append(lines, "response headers: "+formatHeaderModifier(*rh))
	}
	for _, m := range t.Mirrors {
		lines = append(lines, fmt.Sprintf("mirrored to %s (%s)", m.Cluster, formatShare(m.Numerator, m.Denominator)))
	}
	return lines
}

func changeString(c explain.Change) string {
	switch {
	case c.What != "header":
		return fmt.Sprintf("%s: %s -> %s", c.What, c.From, c.Value)
	case c.Op == "added":
		return fmt.Sprintf("+ %s: %s", c.Name, c.Value)
	case c.Op == "removed":
		return fmt.Sprintf("- %s: %s", c.Name, c.From)
	}
	return fmt.Sprintf("~ %s: %s -> %s", c.Name, c.From, c.Value)
}

func backendLines(bs []explain.BackendStep, r *explain.RouteStep) []string {
	lines := []string{"Backends"}
	invalidShare := "500"
	if r != nil && r.Object.Kind == "GRPCRoute" {
		invalidShare = "503 (gRPC UNAVAILABLE)" // GRPCRouteRule.BackendRefs
	}
	for _, b := range bs {
		line := fmt.Sprintf("- %s weight %d (%s%%)", backendName(b), b.Weight, strconv.FormatFloat(b.Percent, 'f', -1, 64))
		if b.Chosen {
			line += ", chosen for this request"
		}
		if b.Invalid != "" {
			line += fmt.Sprintf(", invalid (%s): its share gets a %s", b.Invalid, invalidShare)
		}
		lines = append(lines, line)
		if len(b.Filters) > 0 {
			lines = append(lines, "  filters: "+formatFilters(b.Filters))
		}
		switch {
		case b.BackendRef != nil && b.BackendRef.Source == "" && b.Invalid != "":
			lines = append(lines, "  "+refString(*b.BackendRef)+": not in the input")
		case b.BackendRef != nil && b.Extension != "":
			lines = append(lines, "  "+refString(*b.BackendRef)+": "+b.Extension+"; what it does with the request is not simulated")
		case b.BackendRef != nil && b.Address != "":
			lines = append(lines, "  "+refString(*b.BackendRef)+" at "+b.Address+": "+endpointsString(b.Endpoints, b.NoReadyEndpoints))
		case b.BackendRef != nil:
			lines = append(lines, "  "+refString(*b.BackendRef)+": "+endpointsString(b.Endpoints, b.NoReadyEndpoints))
		}
	}
	return lines
}

// backendName is the backend's cluster, or, for an invalid backendRef
// that has none, what it names.
func backendName(b explain.BackendStep) string {
	if b.Cluster != "" || b.BackendRef == nil {
		return orDash(b.Cluster)
	}
	name := b.BackendRef.Namespace + "/" + b.BackendRef.Name
	if b.Port != 0 {
		name += ":" + strconv.Itoa(int(b.Port))
	}
	return name
}

func endpointsString(es []ir.Endpoint, noneReady bool) string {
	switch {
	case noneReady:
		return "no ready endpoints in its EndpointSlices"
	case len(es) == 0:
		return "endpoints not in the input (assumed)"
	}
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = fmt.Sprintf("%s:%d", e.Address, e.Port)
	}
	return "endpoints " + strings.Join(out, ", ")
}

func writeNearMisses(b *strings.Builder, ms []explain.NearMiss) {
	if len(ms) == 0 {
		return
	}
	b.WriteString("\nNear misses, nearest first:\n")
	for i, m := range ms {
		fmt.Fprintf(b, "%d. %s: %s\n", i+1, safetext.Visible(nearMissHead(m)), plural(len(m.Failed), "condition failed", "conditions failed"))
		for _, f := range m.Failed {
			fmt.Fprintf(b, "   - %s: %s\n", conditionLabel(f.Condition), safetext.Visible(f.Message))
			if f.Source != "" && f.Source != m.Object.Source {
				fmt.Fprintf(b, "     (%s)\n", safetext.Visible(f.Source))
			}
		}
	}
}

// conditionLabel names a failed condition in the text output.
func conditionLabel(c explain.Condition) string {
	switch c {
	case explain.CondAttached:
		return "attachment"
	case explain.CondListenerHostname:
		return "listener hostname"
	case explain.CondQueryParam:
		return "query parameter"
	case explain.CondRejected:
		return "rejected by validation"
	case explain.CondChannel:
		return "not served by the channel"
	case explain.CondParentRefs:
		return "parentRefs"
	}
	return strings.ToLower(string(c))
}

// nearMissHead names the object of a near miss and, for a route, the
// parentRef and the nearest rule and match.
func nearMissHead(m explain.NearMiss) string {
	parts := []string{refString(m.Object)}
	if m.Listener != "" {
		parts = append(parts, "listener "+m.Listener)
	}
	if m.ParentRef != nil {
		parts = append(parts, fmt.Sprintf("parentRef %d", *m.ParentRef))
	}
	if m.Rule != nil && m.Match != nil {
		rule := fmt.Sprintf("%s match %d", ruleString(*m.Rule, m.RuleName), *m.Match)
		if m.Spec != nil {
			rule += " (" + formatMatch(*m.Spec) + ")"
		}
		parts = append(parts, rule)
	}
	return strings.Join(parts, ", ")
}

// refString renders `Kind ns/name (file:line)`.
func refString(r explain.Ref) string {
	name := r.Name
	if r.Namespace != "" {
		name = r.Namespace + "/" + name
	}
	if r.Source == "" {
		return r.Kind + " " + name
	}
	return fmt.Sprintf("%s %s (%s)", r.Kind, name, r.Source)
}

// writePolicyNotes lists the policies that target a step of the trace, one
// line each, with where the policy is defined.
func writePolicyNotes(b *strings.Builder, ps []explain.PolicyNote) {
	if len(ps) == 0 {
		return
	}
	b.WriteString("\nPolicies (their effect is not simulated; the real answer may differ):\n")
	for _, p := range ps {
		name := func(r explain.Ref) string {
			if r.Namespace == "" {
				return r.Kind + " " + r.Name
			}
			return r.Kind + " " + r.Namespace + "/" + r.Name
		}
		target := name(p.Target)
		if p.Section != "" {
			target = fmt.Sprintf("%s %s of %s", p.Step, p.Section, target)
		}
		policy := name(p.Policy)
		if p.Policy.Source != "" {
			policy += " (" + p.Policy.Source + ")"
		}
		fmt.Fprintf(b, "   - %s\n", safetext.Visible(fmt.Sprintf("%s: %s targets %s", p.Step, policy, target)))
	}
}
