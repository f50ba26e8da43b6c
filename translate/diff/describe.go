package diff

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gwsim/gwsim/translate/ir"
)

// aspects lists what a route's action is made of, in the order a reader
// wants them: where requests go first.
var aspects = []string{"backends", "directResponse", "redirect", "filters", "timeouts", "retry", "sessionPersistence", "reject"}

func aspectRank(a string) int { return slices.Index(aspects, a) }

// describeMatch renders what a match requires of a request, in the terms of
// the route's YAML: "PathPrefix /cart, POST, header x-canary=true, query v~[0-9]+".
// "=" is an Exact value match and "~" a RegularExpression.
func describeMatch(m ir.Match) string {
	parts := []string{m.PathType + " " + m.Path}
	if m.Method != "" {
		parts = append(parts, m.Method)
	}
	for _, h := range m.Headers {
		parts = append(parts, "header "+valueMatchString(h))
	}
	for _, q := range m.QueryParams {
		parts = append(parts, "query "+valueMatchString(q))
	}
	return strings.Join(parts, ", ")
}

func valueMatchString(v ir.ValueMatch) string {
	if v.Type == "RegularExpression" {
		return v.Name + "~" + v.Value
	}
	return v.Name + "=" + v.Value
}

// describeAction renders each aspect of what a route does with a request
// it takes; aspects the route does not set are left out.
func describeAction(filters []ir.Filter, a ir.Action, p *ir.Policies) []Detail {
	var out []Detail
	add := func(aspect, value string) {
		if value != "" {
			out = append(out, Detail{Aspect: aspect, After: value})
		}
	}
	if len(a.Backends) > 0 || (a.DirectResponse == nil && a.Redirect == nil) {
		add("backends", Shares(a.Backends))
	}
	if d := a.DirectResponse; d != nil {
		add("directResponse", directResponseString(d, a.Backends))
	}
	if r := a.Redirect; r != nil {
		add("redirect", redirectString(r))
	}
	var fs []string
	for _, f := range filters {
		fs = append(fs, filterString(f))
	}
	add("filters", strings.Join(fs, "; "))
	add("timeouts", compactJSON(a.Timeouts))
	add("retry", compactJSON(a.Retry))
	add("sessionPersistence", compactJSON(a.SessionPersistence))
	add("policies", policiesString(p))
	return out
}

// policiesString names the implementation policies that act on a rule and
// what each does there: "SecurityPolicy default/lock (authorization)".
func policiesString(p *ir.Policies) string {
	if p == nil {
		return ""
	}
	var order []ir.PolicyRef
	effects := map[ir.PolicyRef][]string{}
	add := func(ref ir.PolicyRef, effect string) {
		if _, ok := effects[ref]; !ok {
			order = append(order, ref)
		}
		if !slices.Contains(effects[ref], effect) {
			effects[ref] = append(effects[ref], effect)
		}
	}
	if f := p.FaultAbort; f != nil {
		add(f.Policy, fmt.Sprintf("fault abort %d", f.Status))
	}
	if f := p.FaultDelay; f != nil {
		add(f.Policy, "fault delay "+f.Delay)
	}
	if c := p.CORS; c != nil {
		add(c.Policy, "CORS")
	}
	if e := p.ExtAuth; e != nil {
		add(e.Policy, "external authorization")
	}
	for _, c := range p.Credentials {
		add(c.Policy, c.Type)
	}
	if a := p.Authorization; a != nil {
		add(a.Policy, "authorization")
	}
	for _, o := range p.ResponseOverrides {
		add(o.Policy, "response override")
	}
	if t := p.Timeouts; t != nil {
		add(t.Policy, "timeouts")
	}
	if r := p.Retry; r != nil {
		add(r.Policy, "retry")
	}
	for _, f := range p.NotSimulated {
		add(f.Policy, "not simulated: "+cmp.Or(f.Field, "whole policy"))
	}
	parts := make([]string, len(order))
	for i, ref := range order {
		kind := ref.Kind[strings.LastIndexByte(ref.Kind, '/')+1:]
		parts[i] = fmt.Sprintf("%s %s/%s (%s)", kind, ref.Namespace, ref.Name, strings.Join(effects[ref], ", "))
	}
	return strings.Join(parts, "; ")
}

// Shares renders how a rule splits requests between its backends, weights
// as percentages: "shop/cart-v1:8080 (90%) + shop/cart-v2:8080 (10%)". An
// invalid backend's share is answered with a 500 and reads "500
// BackendNotFound (10%)"; a backend's own filters follow it in brackets.
func Shares(backends []ir.WeightedBackend) string {
	var total int64
	for _, b := range backends {
		total += int64(b.Weight)
	}
	var parts []string
	for _, b := range backends {
		if b.Weight == 0 && total > 0 {
			continue // receives nothing
		}
		name := b.Cluster
		if b.Invalid != "" {
			name = "500 " + b.Invalid
		}
		var fs []string
		for _, f := range b.Filters {
			fs = append(fs, filterString(f))
		}
		if len(fs) > 0 {
			name += " [" + strings.Join(fs, "; ") + "]"
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", name, percent(int64(b.Weight), total)))
	}
	if len(parts) == 0 {
		return "500 (no backend)"
	}
	return strings.Join(parts, " + ")
}

// percent renders w of total as a percentage with at most one decimal.
func percent(w, total int64) string {
	if total == 0 {
		return "0%"
	}
	p := math.Round(float64(w)*1000/float64(total)) / 10
	return strconv.FormatFloat(p, 'f', -1, 64) + "%"
}

// directResponseString renders a rule's direct response. When it answers
// because no backend is valid, the backends' own reasons (BackendNotFound,
// RefNotPermitted...) say more than the response's, so they are given.
func directResponseString(d *ir.DirectResponse, backends []ir.WeightedBackend) string {
	var reasons []string
	for _, b := range backends {
		if b.Invalid == "" {
			return directString(d.Status, d.Reason)
		}
		if !slices.Contains(reasons, b.Invalid) {
			reasons = append(reasons, b.Invalid)
		}
	}
	if len(reasons) == 0 {
		return directString(d.Status, d.Reason)
	}
	return directString(d.Status, strings.Join(reasons, ", "))
}

func directString(status int, reason string) string {
	if reason == "" {
		return strconv.Itoa(status)
	}
	return fmt.Sprintf("%d (%s)", status, reason)
}

// redirectString renders a redirect by the parts it sets: "302 scheme=https port=443".
func redirectString(r *ir.Redirect) string {
	parts := []string{strconv.Itoa(r.StatusCode)}
	if r.Scheme != "" {
		parts = append(parts, "scheme="+r.Scheme)
	}
	if r.Hostname != "" {
		parts = append(parts, "hostname="+r.Hostname)
	}
	if r.Port != 0 {
		parts = append(parts, "port="+strconv.Itoa(int(r.Port)))
	}
	if r.PathType != "" {
		parts = append(parts, r.PathType+"="+r.Path)
	}
	return strings.Join(parts, " ")
}

// filterString renders a filter as its type and its settings as compact
// JSON: every setting shows, so that any change to a filter reads as one.
func filterString(f ir.Filter) string {
	var v any
	switch {
	case f.RequestHeaderModifier != nil:
		v = f.RequestHeaderModifier
	case f.ResponseHeaderModifier != nil:
		v = f.ResponseHeaderModifier
	case f.URLRewrite != nil:
		v = f.URLRewrite
	case f.RequestMirror != nil:
		v = f.RequestMirror
	case f.CORS != nil:
		v = f.CORS
	case f.ExternalAuth != nil:
		v = f.ExternalAuth
	case f.ExtensionRef != nil:
		v = f.ExtensionRef
	default:
		return f.Type
	}
	return f.Type + " " + compactJSON(v)
}

// compactJSON renders v as one line of JSON, "" for a nil pointer. The IR
// types marshal deterministically (structs, no maps but sorted ones).
func compactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic("bug: IR value does not marshal: " + err.Error())
	}
	if string(b) == "null" {
		return ""
	}
	return string(b)
}

// describeL4Match renders what a TLS, TCP or UDP route matches: the SNI of
// a TLSRoute, the port alone otherwise.
func describeL4Match(protocol string, r ir.L4Route) string {
	if r.SNI != "" {
		return "SNI " + r.SNI
	}
	return protocol + " port"
}

func describeL4Action(r ir.L4Route) []Detail {
	if r.Reject != "" {
		return []Detail{{Aspect: "reject", After: r.Reject}}
	}
	return []Detail{{Aspect: "backends", After: Shares(r.Backends)}}
}
