package conformance

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/gwsim/gwsim/translate/evaluate"
	"github.com/gwsim/gwsim/translate/ir"
)

// The upstream names the tables below use (conformance/utils/suite).
const (
	infraNS  = "gateway-conformance-infra"
	webNS    = "gateway-conformance-web-backend"
	appNS    = "gateway-conformance-app-backend"
	v1       = "infra-backend-v1"
	v2       = "infra-backend-v2"
	v3       = "infra-backend-v3"
	sameNSGW = infraNS + "/same-namespace"
	// gatewayAddress is the Host a request carries when the upstream test
	// leaves Request.Host empty: the suite then sends the Gateway's address.
	// An address from TEST-NET-1 (RFC 5737); nothing is sent anywhere.
	gatewayAddress = "192.0.2.1"
)

// upstreamTest is one upstream ConformanceTest, or one of its t.Run groups
// when the group sends requests to another Gateway, port or scheme.
type upstreamTest struct {
	// name is the ShortName, then the t.Run group ("Test/group").
	name string
	// manifests is the ConformanceTest's Manifests.
	manifests []string
	// without lists objects the test deleted before these expectations.
	without []string
	// gateway is the Gateway the test resolves its address from (gwAddr).
	gateway string
	// port is the port of gwAddr; 0 means 80.
	port int32
	// scheme is "http" (the default) or "https".
	scheme string
	cases  []expect
}

// expect is one upstream http.ExpectedResponse, field for field.
type expect struct {
	// sub is its index in the upstream testCases slice, as in the subtest
	// name the suite prints ("3 request to ...").
	sub int
	req request
	// backend and namespace are ExpectedResponse.Backend and Namespace; an
	// empty namespace means gateway-conformance-infra.
	backend, namespace string
	// status is Response.StatusCode; 0 means 200.
	status int
	// redirect is RedirectRequest.
	redirect *redirect
	// forwarded is ExpectedRequest; nil means the request as sent.
	forwarded *forwarded
	// backendSets is BackendSetResponseHeaders; response is what
	// Response.Headers and Response.AbsentHeaders expect after the
	// route's response filters.
	backendSets map[string]string
	response    *headers
	// knownGap, when set, skips the case: the spec rule gwsim lacks.
	knownGap string
}

// request is http.Request. host is the Host header (it may carry a port,
// which is not the port the request is sent to); port overrides the
// upstreamTest's port for requests the test sends to another gwAddr.
type request struct {
	host, path, method string
	headers            map[string]string
	port               int32
}

type redirect struct{ scheme, host, port, path string }

type forwarded struct {
	host, path string
	headers
}

type headers struct {
	set    map[string]string
	absent []string
}

func TestUpstreamRouting(t *testing.T) {
	worlds := map[string]ir.IR{}
	for _, ut := range upstreamTests() {
		t.Run(ut.name, func(t *testing.T) {
			key := fmt.Sprint(ut.manifests, ut.without)
			model, ok := worlds[key]
			if !ok {
				res, err := Run(context.Background(), Setup{Manifests: ut.manifests, Without: ut.without})
				if err != nil {
					t.Fatal(err)
				}
				model = res.Offline.Output.IR
				worlds[key] = model
			}
			for _, e := range ut.cases {
				t.Run(e.name(), func(t *testing.T) {
					if e.knownGap != "" {
						t.Skip("known gap: " + e.knownGap)
					}
					req := e.request(ut)
					got := evaluate.Evaluate(model, req)
					for _, p := range e.problems(got, req) {
						t.Error(p)
					}
				})
			}
		})
	}
}

// TestUpstreamRoutingCount keeps the tables from shrinking unnoticed; the
// number is the one docs/conformance.md states.
func TestUpstreamRoutingCount(t *testing.T) {
	total, gaps := 0, 0
	for _, ut := range upstreamTests() {
		for _, e := range ut.cases {
			total++
			if e.knownGap != "" {
				gaps++
			}
		}
	}
	if total < 60 {
		t.Errorf("%d upstream expectations, want at least 60", total)
	}
	t.Logf("%d upstream expectations, %d known gaps", total, gaps)
}

// name follows the suite's ExpectedResponse.GetTestCaseName, except that
// an expected status other than 200 is named even when a backend is too.
func (e expect) name() string {
	with := ""
	if e.req.headers != nil {
		with = " with headers"
	}
	s := fmt.Sprintf("%d request to '%s%s'%s", e.sub, e.req.host, e.req.path, with)
	if e.backend != "" && e.wantStatus() == http.StatusOK {
		return s + " should go to " + e.backend
	}
	return fmt.Sprintf("%s should receive %d", s, e.wantStatus())
}

func (e expect) wantStatus() int {
	if e.status == 0 {
		return http.StatusOK
	}
	return e.status
}

// request builds what the suite sends: the Host header's port, if any, is
// not part of the host name routing matches on.
func (e expect) request(ut upstreamTest) evaluate.Request {
	host := e.req.host
	if host == "" {
		host = gatewayAddress
	}
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	port := ut.port
	if e.req.port != 0 {
		port = e.req.port
	}
	if port == 0 {
		port = 80
	}
	scheme := ut.scheme
	if scheme == "" {
		scheme = "http"
	}
	hdr := http.Header{}
	for k, v := range e.req.headers {
		hdr.Set(k, v)
	}
	return evaluate.Request{
		Scheme: scheme, Host: host, Port: port, Method: e.req.method,
		Path: e.req.path, Headers: hdr, Gateway: ut.gateway,
	}
}

// problems compares got with e the way the suite's CompareRoundTrip does.
func (e expect) problems(got evaluate.Result, req evaluate.Request) []string {
	if got.Status != e.wantStatus() {
		return []string{fmt.Sprintf("status %d (%s), want %d", got.Status, got.Outcome, e.wantStatus())}
	}
	if got.Outcome == evaluate.Redirected {
		return e.redirectProblems(got.Location, req)
	}
	if got.Status != http.StatusOK {
		return nil
	}
	var out []string
	ns, svc := backendOf(got.Backend)
	wantNS := e.namespace
	if wantNS == "" {
		wantNS = infraNS
	}
	if svc != e.backend || ns != wantNS {
		out = append(out, fmt.Sprintf("backend %s/%s, want %s/%s", ns, svc, wantNS, e.backend))
	}
	out = append(out, e.forwardedProblems(got.Forwarded, req)...)
	if e.response != nil {
		resp := http.Header{}
		for k, v := range e.backendSets {
			resp.Set(k, v)
		}
		evaluate.ModifyHeaders(resp, got.ResponseHeaders)
		out = append(out, headerProblems("response", resp, *e.response)...)
	}
	return out
}

// backendOf splits an IR cluster name "ns/service:port".
func backendOf(b *ir.WeightedBackend) (ns, svc string) {
	if b == nil {
		return "", ""
	}
	ns, rest, _ := strings.Cut(b.Cluster, "/")
	svc, _, _ = strings.Cut(rest, ":")
	return ns, svc
}

func (e expect) forwardedProblems(got evaluate.ForwardedRequest, req evaluate.Request) []string {
	want := forwarded{path: e.req.path, host: e.req.host, headers: headers{set: e.req.headers}}
	if e.forwarded != nil {
		want = *e.forwarded
	}
	var out []string
	if want.path != got.Path {
		out = append(out, fmt.Sprintf("backend got path %q, want %q", got.Path, want.path))
	}
	if h := hostOnly(want.host); h != "" && !strings.EqualFold(h, got.Host) {
		out = append(out, fmt.Sprintf("backend got host %q, want %q", got.Host, h))
	}
	return append(out, headerProblems("backend request", got.Headers, want.headers)...)
}

func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return hostport
}

// headerProblems checks names case-insensitively and joins repeated values
// with ",", as the suite does with what the echo backend reports.
func headerProblems(what string, got http.Header, want headers) []string {
	var out []string
	for name, v := range want.set {
		if g := strings.Join(got.Values(name), ","); g != v {
			out = append(out, fmt.Sprintf("%s header %s = %q, want %q", what, name, g, v))
		}
	}
	for _, name := range want.absent {
		if vs := got.Values(name); len(vs) > 0 {
			out = append(out, fmt.Sprintf("%s header %s = %q, want it absent", what, name, vs))
		}
	}
	return out
}

// redirectProblems follows the suite: an expected field left empty means
// the request's scheme and path and any host; an expected port left empty
// means none or the scheme's well-known port.
func (e expect) redirectProblems(location string, req evaluate.Request) []string {
	want := redirect{}
	if e.redirect != nil {
		want = *e.redirect
	}
	u, err := url.Parse(location)
	if err != nil {
		return []string{fmt.Sprintf("Location %q: %v", location, err)}
	}
	path, _, _ := strings.Cut(req.Path, "?")
	if want.scheme == "" {
		want.scheme = req.Scheme
	}
	if want.path == "" {
		want.path = path
	}
	var out []string
	if want.host != "" && want.host != u.Hostname() {
		out = append(out, fmt.Sprintf("redirect host %q, want %q (Location %s)", u.Hostname(), want.host, location))
	}
	gotPort := u.Port()
	switch {
	case want.port != "" && want.port != gotPort:
		out = append(out, fmt.Sprintf("redirect port %q, want %q (Location %s)", gotPort, want.port, location))
	case want.port == "" && gotPort != "" && gotPort != strconv.Itoa(wellKnown(u.Scheme)):
		out = append(out, fmt.Sprintf("redirect port %q, want none or %d (Location %s)", gotPort, wellKnown(u.Scheme), location))
	}
	if want.scheme != u.Scheme {
		out = append(out, fmt.Sprintf("redirect scheme %q, want %q (Location %s)", u.Scheme, want.scheme, location))
	}
	if want.path != u.Path {
		out = append(out, fmt.Sprintf("redirect path %q, want %q (Location %s)", u.Path, want.path, location))
	}
	return out
}

func wellKnown(scheme string) int {
	if strings.EqualFold(scheme, "https") {
		return 443
	}
	return 80
}
