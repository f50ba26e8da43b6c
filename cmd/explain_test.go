package cmd

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// explainFiles is the clean input of cli_test.go: example.com/api goes to
// Service api.
func explainFiles() map[string]string {
	return map[string]string{"all.yaml": classYAML + "---\n" + gatewayYAML + "---\n" + routeYAML + "---\n" + serviceYAML}
}

func TestExplainExitCodes(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"routed", []string{"http://example.com/api/x"}, exitOK},
		{"routed, json", []string{"http://example.com/api", "-o", "json"}, exitOK},
		{"host without a scheme", []string{"example.com/api"}, exitOK},
		{"Host header", []string{"-H", "Host: example.com:80", "http://10.0.0.1/api"}, exitOK},
		{"route not found", []string{"http://example.com/other"}, exitFindings},
		{"no Gateway on the port", []string{"http://example.com:8080/api"}, exitFindings},
		{"another Gateway", []string{"--gateway", "other", "http://example.com/api"}, exitFindings},
		{"no URL", nil, exitUsage},
		{"two URLs", []string{"http://a/", "http://b/"}, exitUsage},
		{"bad scheme", []string{"ftp://example.com/"}, exitUsage},
		{"bad header", []string{"-H", "no-colon", "http://example.com/"}, exitUsage},
		{"bad port", []string{"--port", "70000", "http://example.com/"}, exitUsage},
		{"yaml is not an explain format", []string{"-o", "yaml", "http://example.com/"}, exitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"explain", "-f", "@all.yaml"}, tt.args...)
			got := runCLI(t, Env{}, explainFiles(), "", args...)
			if got.code != tt.want {
				t.Errorf("exit code = %d, want %d\nstdout:\n%s\nstderr:\n%s", got.code, tt.want, got.stdout, got.stderr)
			}
		})
	}
}

func TestExplainText(t *testing.T) {
	got := runCLI(t, Env{}, explainFiles(), "", "explain", "-f", "@all.yaml", "http://example.com/apis")
	want := `Request: GET http://example.com/apis

1. Gateway default/gw (all.yaml:8) takes port 80
2. Listener http (80/HTTP, any hostname) takes host example.com
3. Virtual host example.com

Answer: route_not_found (404): no route of virtual host example.com matches

Near misses, nearest first:
1. HTTPRoute default/web (all.yaml:19), parentRef 0, rule 0 match 0 (PathPrefix /api): 1 condition failed
   - path: PathPrefix /api does not match /apis: a prefix matches whole path segments (/api or /api/...)
`
	if diff := cmp.Diff(want, got.stdout); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
	if got.stderr != "" || got.code != exitFindings {
		t.Errorf("exit %d, stderr %q; want 1 and nothing", got.code, got.stderr)
	}
}

func TestExplainJSON(t *testing.T) {
	got := runCLI(t, Env{}, explainFiles(), "", "explain", "-f", "@all.yaml", "-o", "json", "-X", "post", "-H", "X-A: 1", "-H", "x-a: 2", "http://example.com/api?q=1")
	var trace struct {
		Request struct {
			Method  string
			Path    string
			Headers map[string][]string
		}
		Outcome string
		Status  int
		Route   struct{ Object struct{ Name, Source string } }
	}
	if err := json.Unmarshal([]byte(got.stdout), &trace); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, got.stdout)
	}
	if trace.Request.Method != "POST" || trace.Request.Path != "/api?q=1" || strings.Join(trace.Request.Headers["X-A"], ",") != "1,2" {
		t.Errorf("request = %+v", trace.Request)
	}
	if trace.Outcome != "Routed" || trace.Status != 200 || trace.Route.Object.Name != "web" || trace.Route.Object.Source != "all.yaml:19" {
		t.Errorf("trace = %+v", trace)
	}
}

// TestExplainNotFoundByDataPlane: a request no route takes is
// route_not_found (404) on every Gateway, and only the Gateway whose
// controller runs Envoy names Envoy's response flag NR. --controller-name
// is given twice, so that both classes are gwsim's.
func TestExplainNotFoundByDataPlane(t *testing.T) {
	classes := `apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: eg}
spec: {controllerName: gateway.envoyproxy.io/gatewayclass-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: nginx}
spec: {controllerName: gateway.nginx.org/nginx-gateway-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: envoy, namespace: default}
spec:
  gatewayClassName: eg
  listeners: [{name: http, protocol: HTTP, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: nginx, namespace: default}
spec:
  gatewayClassName: nginx
  listeners: [{name: http, protocol: HTTP, port: 8080}]
`
	files := map[string]string{"all.yaml": classes}
	for _, tt := range []struct{ url, want string }{
		{"http://example.com/", "Answer: route_not_found (404, Envoy response flag NR): no virtual host of listener http covers example.com"},
		{"http://example.com:8080/", "Answer: route_not_found (404): no virtual host of listener http covers example.com"},
	} {
		got := runCLI(t, Env{}, files, "", "explain", "-f", "@all.yaml",
			"--controller-name", "gateway.envoyproxy.io/gatewayclass-controller",
			"--controller-name", "gateway.nginx.org/nginx-gateway-controller", tt.url)
		if !strings.Contains(got.stdout, tt.want+"\n") {
			t.Errorf("%s: stdout lacks %q:\n%s\nstderr:\n%s", tt.url, tt.want, got.stdout, got.stderr)
		}
		if got.code != exitFindings {
			t.Errorf("%s: exit %d, want %d", tt.url, got.code, exitFindings)
		}
	}
}
