package translate

import (
	"strings"
	"testing"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

func TestRegexProblem(t *testing.T) {
	pathRE := func(v string) gwv1.HTTPRouteMatch {
		typ := gwv1.PathMatchRegularExpression
		return gwv1.HTTPRouteMatch{Path: &gwv1.HTTPPathMatch{Type: &typ, Value: &v}}
	}
	headerRE := func(v string) gwv1.HTTPRouteMatch {
		typ := gwv1.HeaderMatchRegularExpression
		return gwv1.HTTPRouteMatch{Headers: []gwv1.HTTPHeaderMatch{{Type: &typ, Name: "x", Value: v}}}
	}
	queryRE := func(v string) gwv1.HTTPRouteMatch {
		typ := gwv1.QueryParamMatchRegularExpression
		return gwv1.HTTPRouteMatch{QueryParams: []gwv1.HTTPQueryParamMatch{{Type: &typ, Name: "q", Value: v}}}
	}
	prefix := func(v string) gwv1.HTTPRouteMatch {
		typ := gwv1.PathMatchPathPrefix
		return gwv1.HTTPRouteMatch{Path: &gwv1.HTTPPathMatch{Type: &typ, Value: &v}}
	}
	tests := []struct {
		name      string
		matches   []gwv1.HTTPRouteMatch
		wantField string // "" when valid
	}{
		{"valid path regex", []gwv1.HTTPRouteMatch{pathRE(`/v[0-9]+/.*`)}, ""},
		{"a prefix is not a regex", []gwv1.HTTPRouteMatch{prefix(`/(`)}, ""},
		{"PCRE lookahead is not RE2", []gwv1.HTTPRouteMatch{pathRE(`/(?!admin).*`)}, "spec.rules[0].matches[0].path.value"},
		{"bad header regex in the second match", []gwv1.HTTPRouteMatch{pathRE(`/a`), headerRE(`[a-`)}, "spec.rules[0].matches[1].headers[0].value"},
		{"bad query regex", []gwv1.HTTPRouteMatch{queryRE(`a{2,1}`)}, "spec.rules[0].matches[0].queryParams[0].value"},
		{"backreference", []gwv1.HTTPRouteMatch{headerRE(`(a)\1`)}, "spec.rules[0].matches[0].headers[0].value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := regexProblem(tt.matches, "spec.rules[0]")
			if tt.wantField == "" {
				if p.reason != "" {
					t.Errorf("regexProblem = %+v, want none", p)
				}
				return
			}
			if p.reason != string(gwv1.RouteReasonUnsupportedValue) || !strings.HasPrefix(p.message, tt.wantField+": ") {
				t.Errorf("regexProblem = %+v, want UnsupportedValue on %s", p, tt.wantField)
			}
		})
	}
}
