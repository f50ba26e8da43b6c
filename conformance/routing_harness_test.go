package conformance

import (
	"net/http"
	"testing"

	"github.com/gwsim/gwsim/translate/evaluate"
	"github.com/gwsim/gwsim/translate/ir"
)

// TestExpectProblems checks the comparison itself, so that a passing
// upstream table means agreement and not a check that looks at nothing:
// each expectation is met by one result and missed by a result that differs
// in one field.
func TestExpectProblems(t *testing.T) {
	ut := upstreamTest{gateway: sameNSGW}
	routed := func(cluster string, mutate func(*evaluate.Result)) evaluate.Result {
		r := evaluate.Result{
			Outcome: evaluate.Routed, Status: 200,
			Backend:   &ir.WeightedBackend{Cluster: cluster, Weight: 1},
			Forwarded: evaluate.ForwardedRequest{Host: "a.example", Path: "/p", Headers: http.Header{"X-A": {"1"}}},
		}
		if mutate != nil {
			mutate(&r)
		}
		return r
	}
	redirected := func(location string) evaluate.Result {
		return evaluate.Result{Outcome: evaluate.Redirected, Status: 302, Location: location}
	}
	plain := expect{req: request{host: "a.example", path: "/p", headers: hs{"X-A": "1"}}, backend: v1}
	respond := expect{req: request{host: "a.example", path: "/p", headers: hs{"X-A": "1"}}, backend: v1,
		backendSets: hs{"X-B": "b"}, response: &headers{set: hs{"X-B": "b,c"}, absent: []string{"X-Gone"}}}
	withResp := func(m *ir.HeaderModifier) evaluate.Result {
		return routed(infraNS+"/"+v1+":8080", func(r *evaluate.Result) { r.ResponseHeaders = m })
	}
	tests := []struct {
		name string
		e    expect
		got  evaluate.Result
		ok   bool
	}{
		{"same backend", plain, routed(infraNS+"/"+v1+":8080", nil), true},
		{"other service", plain, routed(infraNS+"/"+v2+":8080", nil), false},
		{"other namespace", plain, routed(webNS+"/"+v1+":8080", nil), false},
		{"404 for a 200", plain, evaluate.Result{Outcome: evaluate.RouteNotFound, Status: 404}, false},
		{"404 expected", expect{req: request{path: "/"}, status: 404}, evaluate.Result{Outcome: evaluate.NoListener, Status: 404}, true},
		{"path rewritten unexpectedly", plain, routed(infraNS+"/"+v1+":8080", func(r *evaluate.Result) { r.Forwarded.Path = "/q" }), false},
		{"host rewritten unexpectedly", plain, routed(infraNS+"/"+v1+":8080", func(r *evaluate.Result) { r.Forwarded.Host = "b.example" }), false},
		{"request header lost", plain, routed(infraNS+"/"+v1+":8080", func(r *evaluate.Result) { r.Forwarded.Headers = http.Header{} }), false},
		{"header that must be absent", expect{req: request{path: "/p"}, backend: v1, forwarded: &forwarded{path: "/p", headers: headers{absent: []string{"x-a"}}}},
			routed(infraNS+"/"+v1+":8080", nil), false},
		{"response modifier applied", respond, withResp(&ir.HeaderModifier{Add: []ir.Header{{Name: "x-b", Value: "c"}}, Remove: []string{"X-Gone"}}), true},
		{"response modifier missing", respond, withResp(nil), false},
		{"redirect as expected", expect{req: request{path: "/p"}, status: 302, redirect: &redirect{host: "example.org", port: "8083"}}, redirected("http://example.org:8083/p"), true},
		{"redirect to another host", expect{req: request{path: "/p"}, status: 302, redirect: &redirect{host: "example.org"}}, redirected("http://example.com/p"), false},
		{"redirect to another port", expect{req: request{path: "/p"}, status: 302, redirect: &redirect{port: "8083"}}, redirected("http://x/p"), false},
		{"redirect keeps the well-known port", expect{req: request{path: "/p"}, status: 302}, redirected("http://x:80/p"), true},
		{"redirect adds a port", expect{req: request{path: "/p"}, status: 302}, redirected("http://x:8080/p"), false},
		{"redirect changes the scheme", expect{req: request{path: "/p"}, status: 302}, redirected("https://x/p"), false},
		{"redirect changes the path", expect{req: request{path: "/p?q=1"}, status: 302}, redirected("http://x/other"), false},
		{"redirect keeps the path, query aside", expect{req: request{path: "/p?q=1"}, status: 302}, redirected("http://x/p?q=1"), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			problems := tt.e.problems(tt.got, tt.e.request(ut))
			if ok := len(problems) == 0; ok != tt.ok {
				t.Errorf("ok = %v, want %v (problems: %q)", ok, tt.ok, problems)
			}
		})
	}
}

func TestExpectRequest(t *testing.T) {
	ut := upstreamTest{gateway: sameNSGW, port: 8080}
	tests := []struct {
		name       string
		req        request
		host       string
		port       int32
		withHeader bool
	}{
		{"no host: the Gateway's address", request{path: "/"}, gatewayAddress, 8080, false},
		{"port in the Host header is not the port sent to", request{host: "a.example:1234", path: "/"}, "a.example", 8080, false},
		{"explicit port", request{host: "a.example:8090", path: "/", port: 8090}, "a.example", 8090, false},
		{"headers", request{host: "a.example", path: "/", headers: hs{"version": "one"}}, "a.example", 8080, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := expect{req: tt.req}.request(ut)
			if got.Host != tt.host || got.Port != tt.port || got.Gateway != sameNSGW || got.Scheme != "http" {
				t.Errorf("got %+v, want host %s port %d", got, tt.host, tt.port)
			}
			if has := got.Headers.Get("Version") == "one"; has != tt.withHeader {
				t.Errorf("Version header present = %v, want %v", has, tt.withHeader)
			}
		})
	}
}
