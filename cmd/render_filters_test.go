package cmd

import (
	"testing"

	"github.com/gwsim/gwsim/translate/ir"
)

func TestFiltersCell(t *testing.T) {
	tests := []struct {
		name    string
		filters []ir.Filter
		action  ir.Action
		want    string
	}{
		{"none", nil, ir.Action{}, "-"},
		{"mirrors", []ir.Filter{
			{Type: "RequestMirror", RequestMirror: &ir.RequestMirror{Cluster: "app/shadow:80", Numerator: 25, Denominator: 50}},
			{Type: "RequestMirror", RequestMirror: &ir.RequestMirror{Invalid: "BackendNotFound", Numerator: 100, Denominator: 100}},
		}, ir.Action{}, "RequestMirror(app/shadow:80 50%), RequestMirror(invalid: BackendNotFound 100%)"},
		{"cors", []ir.Filter{{Type: "CORS", CORS: &ir.CORS{
			AllowOrigins: []string{"https://a.com", "https://*.b.com"}, AllowMethods: []string{"GET"}, AllowCredentials: true, MaxAge: 5,
		}}}, ir.Action{}, "CORS(origins=https://a.com,https://*.b.com methods=GET credentials)"},
		{"cors max age", []ir.Filter{{Type: "CORS", CORS: &ir.CORS{AllowOrigins: []string{"*"}, ExposeHeaders: []string{"x-a"}, MaxAge: 3600}}},
			ir.Action{}, "CORS(origins=* expose=x-a maxAge=3600)"},
		{"external auth and extension", []ir.Filter{
			{Type: "ExternalAuth", ExternalAuth: &ir.ExternalAuth{Protocol: "HTTP", Cluster: "sec/auth:80", Path: "/check"}},
			{Type: "ExtensionRef", ExtensionRef: &ir.ExtensionRef{Group: "example.net", Kind: "Custom", Name: "c", Resolution: "unresolved"}},
		}, ir.Action{}, "ExternalAuth(HTTP sec/auth:80 path=/check), ExtensionRef(example.net/Custom c unresolved: error response)"},
		{"extensions resolved and assumed", []ir.Filter{
			{Type: "ExtensionRef", ExtensionRef: &ir.ExtensionRef{Group: "example.net", Kind: "Custom", Name: "a", Resolution: "resolved"}},
			{Type: "ExtensionRef", ExtensionRef: &ir.ExtensionRef{Group: "example.net", Kind: "Custom", Name: "b", Resolution: "assumed"}},
		}, ir.Action{}, "ExtensionRef(example.net/Custom a resolved, not simulated), ExtensionRef(example.net/Custom b assumed, not simulated)"},
		{"policies", nil, ir.Action{
			Timeouts:           &ir.Timeouts{Request: "10s", BackendRequest: "2s"},
			Retry:              &ir.Retry{Codes: []int{500, 503}, Attempts: 2, Backoff: "100ms"},
			SessionPersistence: &ir.SessionPersistence{Type: "Cookie", SessionName: "sid", CookieLifetime: "Session"},
		}, "timeouts(request=10s backendRequest=2s), retry(codes=500,503 attempts=2 backoff=100ms), session(Cookie name=sid lifetime=Session)"},
		{"filters then policies", []ir.Filter{{Type: "ResponseHeaderModifier", ResponseHeaderModifier: &ir.HeaderModifier{Remove: []string{"server"}}}},
			ir.Action{Retry: &ir.Retry{}}, "ResponseHeaderModifier(remove server), retry()"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := filtersCell(tt.filters, tt.action); got != tt.want {
				t.Errorf("filtersCell() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFormatBackendFilters(t *testing.T) {
	b := ir.WeightedBackend{Cluster: "app/b:80", Weight: 1, Filters: []ir.Filter{
		{Type: "RequestHeaderModifier", RequestHeaderModifier: &ir.HeaderModifier{Set: []ir.Header{{Name: "x-b", Value: "1"}}}},
	}}
	if got, want := formatBackend(b), "app/b:80(w=1)[RequestHeaderModifier(set x-b=1)]"; got != want {
		t.Errorf("formatBackend() = %q, want %q", got, want)
	}
}
