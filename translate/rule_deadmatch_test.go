package translate_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate"
	"github.com/gwsim/gwsim/translate/translatetest"
)

const deadMatchGateway = `apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: gc}
spec: {controllerName: example.com/c}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: infra}
spec:
  gatewayClassName: gc
  listeners:
  - {name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}
---
apiVersion: v1
kind: Service
metadata: {name: svc, namespace: a}
spec: {ports: [{port: 80}]}
---
apiVersion: v1
kind: Service
metadata: {name: svc, namespace: b}
spec: {ports: [{port: 80}]}
`

// deadRoute is an HTTPRoute for example.com with one rule per path given
// (type:value), created at the given time ("" for none).
func deadRoute(ns, name, created string, paths ...string) string {
	ts := ""
	if created != "" {
		ts = fmt.Sprintf(", creationTimestamp: %q", created)
	}
	var rules []string
	for _, p := range paths {
		typ, value, _ := strings.Cut(p, ":")
		rules = append(rules, fmt.Sprintf("  - matches: [{path: {type: %s, value: %q}}]\n    backendRefs: [{name: svc, port: 80}]", typ, value))
	}
	return fmt.Sprintf("---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: %s, namespace: %s%s}\nspec:\n  parentRefs: [{name: gw, namespace: infra}]\n  hostnames: [example.com]\n  rules:\n%s\n",
		name, ns, ts, strings.Join(rules, "\n"))
}

// deadMatchFindings translates docs and returns the findings of the two
// new reasons as "Reason Kind ns/name field: message".
func deadMatchFindings(t *testing.T, docs string) []string {
	t.Helper()
	in, _ := translatetest.Decode(t, "w.yaml", deadMatchGateway+docs)
	var out []string
	for _, f := range translate.Translate(in, translate.Options{}).Findings {
		if f.Reason == diag.ReasonUnreachableMatch || f.Reason == diag.ReasonConflictingMatch {
			if f.Severity != diag.Warning {
				t.Errorf("%s is a %s, want a warning", f.Reason, f.Severity)
			}
			out = append(out, fmt.Sprintf("%s %s %s: %s", f.Reason, f.Object, f.Field, f.Message))
		}
	}
	return out
}

func TestDeadMatchFindings(t *testing.T) {
	const older, newer = "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z"
	tests := []struct {
		name string
		docs string
		want []string // substrings, one per finding, in order
	}{
		{"distinct paths", deadRoute("a", "r1", "", "PathPrefix:/a") + deadRoute("a", "r2", "", "PathPrefix:/b"), nil},
		{"older route wins", deadRoute("a", "r1", newer, "PathPrefix:/a") + deadRoute("a", "r2", older, "PathPrefix:/a/"),
			[]string{"UnreachableMatch HTTPRoute a/r1 spec.rules[0].matches[0]: never receives traffic on Gateway infra/gw port 80 host example.com: HTTPRoute a/r2 rules[0].matches[0] comes first and takes every request it matches (identical match; the older route wins)"}},
		{"written longer wins over older", deadRoute("a", "r1", older, "PathPrefix:/a") + deadRoute("a", "r2", newer, "PathPrefix:/a/"),
			[]string{"UnreachableMatch HTTPRoute a/r1 spec.rules[0].matches[0]: never receives traffic on Gateway infra/gw port 80 host example.com: HTTPRoute a/r2 rules[0].matches[0] comes first and takes every request it matches (identical match; its prefix is written longer (a trailing slash), and precedence counts prefix length before age)"}},
		{"older route wins, swapped names", deadRoute("a", "r1", older, "PathPrefix:/a") + deadRoute("a", "r2", newer, "PathPrefix:/a"),
			[]string{"UnreachableMatch HTTPRoute a/r2 spec.rules[0].matches[0]: never receives traffic on Gateway infra/gw port 80 host example.com: HTTPRoute a/r1 rules[0].matches[0] comes first and takes every request it matches (identical match; the older route wins)"}},
		{"same age: first by name", deadRoute("a", "r1", "", "Exact:/a") + deadRoute("a", "r2", "", "Exact:/a"),
			[]string{"UnreachableMatch HTTPRoute a/r2 spec.rules[0].matches[0]: never receives traffic on Gateway infra/gw port 80 host example.com: HTTPRoute a/r1 rules[0].matches[0] comes first and takes every request it matches (identical match and the same creationTimestamp; the first route by namespace/name wins)"}},
		{"within a route", deadRoute("a", "r1", "", "Exact:/a", "Exact:/a"),
			[]string{"UnreachableMatch HTTPRoute a/r1 spec.rules[1].matches[0]: never receives traffic on Gateway infra/gw port 80 host example.com: HTTPRoute a/r1 rules[0].matches[0] comes first and takes every request it matches (identical match; within a route the earlier rule and match win)"}},
		{"regex covers a prefix", deadRoute("a", "r1", "", "RegularExpression:/api/.*", "PathPrefix:/api/v1"),
			[]string{"UnreachableMatch HTTPRoute a/r1 spec.rules[1].matches[0]: never receives traffic on Gateway infra/gw port 80 host example.com: HTTPRoute a/r1 rules[0].matches[0] comes first and takes every request it matches (its RegularExpression path matches every path this match does; gwsim ranks RegularExpression before PathPrefix)"}},
		{"across namespaces: a warning on both", deadRoute("a", "r1", newer, "PathPrefix:/a") + deadRoute("b", "r1", older, "PathPrefix:/a"),
			[]string{
				"ConflictingMatch HTTPRoute a/r1 spec.rules[0].matches[0]: HTTPRoute b/r1 rules[0].matches[0] claims the same host and match on Gateway infra/gw port 80 host example.com; it takes every request there (identical match; the older route wins), so this match receives none",
				"ConflictingMatch HTTPRoute b/r1 spec.rules[0].matches[0]: HTTPRoute a/r1 rules[0].matches[0] in another namespace claims the same host and match on Gateway infra/gw port 80 host example.com; this match takes every request there (identical match; the older route wins)",
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := deadMatchFindings(t, tt.docs)
			check(t, got, tt.want)
		})
	}
}

// grpcRoute is a GRPCRoute for example.com with one rule per method match
// (service/method, either side may be empty).
func grpcRoute(name, created string, methods ...string) string {
	var rules []string
	for _, m := range methods {
		svc, method, _ := strings.Cut(m, "/")
		mm := fmt.Sprintf("{service: %q}", svc)
		if method != "" {
			mm = fmt.Sprintf("{service: %q, method: %q}", svc, method)
		}
		rules = append(rules, fmt.Sprintf("  - matches: [{method: %s}]\n    backendRefs: [{name: svc, port: 80}]", mm))
	}
	return fmt.Sprintf("---\napiVersion: gateway.networking.k8s.io/v1\nkind: GRPCRoute\nmetadata: {name: %s, namespace: a, creationTimestamp: %q}\nspec:\n  parentRefs: [{name: gw, namespace: infra}]\n  hostnames: [example.com]\n  rules:\n%s\n",
		name, created, strings.Join(rules, "\n"))
}

func TestDeadGRPCMatchFindings(t *testing.T) {
	const older, newer = "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z"
	tests := []struct {
		name string
		docs string
		want []string
	}{
		{"different methods", grpcRoute("g1", older, "pkg.Svc/Get") + grpcRoute("g2", newer, "pkg.Svc/Put"), nil},
		{"same method: the older route wins", grpcRoute("g1", newer, "pkg.Svc/Get") + grpcRoute("g2", older, "pkg.Svc/Get"),
			[]string{"UnreachableMatch GRPCRoute a/g1 spec.rules[0].matches[0]: never receives traffic on Gateway infra/gw port 80 host example.com: GRPCRoute a/g2 rules[0].matches[0] comes first and takes every request it matches (identical match; the older route wins)"}},
		{"the whole service before one of its methods is live", grpcRoute("g1", older, "pkg.Svc/", "pkg.Svc/Get"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, deadMatchFindings(t, tt.docs), tt.want)
		})
	}
}

// check compares findings with the prefixes they must start with.
func check(t *testing.T, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d findings, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range got {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("finding %d:\n got %s\nwant %s", i, got[i], want[i])
		}
	}
}
