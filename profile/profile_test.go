package profile

import "testing"

func TestFor(t *testing.T) {
	for _, tc := range []struct {
		chosen     Name
		controller string
		want       Name
	}{
		{Auto, EnvoyGatewayController, EnvoyGateway},
		{Auto, "gwsim.dev/controller", Generic},
		{"", EnvoyGatewayController, EnvoyGateway},
		{Generic, EnvoyGatewayController, Generic},
		{EnvoyGateway, "example.com/other", EnvoyGateway},
	} {
		if got := For(tc.chosen, tc.controller).Name; got != tc.want {
			t.Errorf("For(%q, %q) = %s, want %s", tc.chosen, tc.controller, got, tc.want)
		}
	}
}

func TestParse(t *testing.T) {
	for _, s := range []string{"", "auto", "generic", "envoy-gateway"} {
		if _, err := Parse(s); err != nil {
			t.Errorf("Parse(%q): %v", s, err)
		}
	}
	if _, err := Parse("istio"); err == nil {
		t.Error("Parse(istio) accepted")
	}
}

func TestSimulates(t *testing.T) {
	if Of(Generic).Simulates(BackendKind) {
		t.Error("generic simulates Backend")
	}
	if !Of(EnvoyGateway).Simulates(BackendKind) || !Of(EnvoyGateway).Simulates(HTTPRouteFilterKind) {
		t.Error("envoy-gateway does not simulate its Backend and HTTPRouteFilter")
	}
}
