package translate

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/internal/defaulttest"
)

// defaultedAddrs is addrs with the CRD defaults (an entry without a type
// is an IPAddress), as a Gateway the loader reads has them.
func defaultedAddrs(t *testing.T, addrs []gwv1.GatewaySpecAddress) []gwv1.GatewaySpecAddress {
	t.Helper()
	gw := &gwv1.Gateway{Spec: gwv1.GatewaySpec{Addresses: slices.Clone(addrs)}}
	return defaulttest.Default(t, gw).Spec.Addresses
}

func specAddr(typ, value string) gwv1.GatewaySpecAddress {
	a := gwv1.GatewaySpecAddress{Value: value}
	if typ != "" {
		a.Type = ptr(gwv1.AddressType(typ))
	}
	return a
}

func statusAddr(typ, value string) gwv1.GatewayStatusAddress {
	return gwv1.GatewayStatusAddress{Type: ptr(gwv1.AddressType(typ)), Value: value}
}

// envOf is an environment that gives every Gateway the same addresses.
func envOf(addrs ...gwv1.GatewayStatusAddress) func(types.NamespacedName) []gwv1.GatewayStatusAddress {
	return func(types.NamespacedName) []gwv1.GatewayStatusAddress { return addrs }
}

func TestDecideAddresses(t *testing.T) {
	ip, host := string(gwv1.IPAddressType), string(gwv1.HostnameAddressType)
	env := envOf(statusAddr(ip, "10.0.0.1"), statusAddr(ip, "10.0.0.2"), statusAddr(host, "lb.example.net"))
	tests := []struct {
		name      string
		requested []gwv1.GatewaySpecAddress
		env       func(types.NamespacedName) []gwv1.GatewayStatusAddress
		bound     []gwv1.GatewayStatusAddress
		accepted  string // reason of the Accepted the addresses impose, "" for none
		program   string // same for Programmed
		findings  int    // Assumed findings
	}{
		{"none requested, no environment", nil, nil, nil, "", "", 0},
		{"none requested: the environment's addresses", nil, env,
			[]gwv1.GatewayStatusAddress{statusAddr(ip, "10.0.0.1"), statusAddr(ip, "10.0.0.2"), statusAddr(host, "lb.example.net")}, "", "", 0},
		{"static IPv4, IPv6 and hostname are kept, not the environment's",
			[]gwv1.GatewaySpecAddress{specAddr(ip, "192.0.2.1"), specAddr(ip, "2001:db8::1"), specAddr(host, "*.gw.example.com")}, env,
			[]gwv1.GatewayStatusAddress{statusAddr(ip, "192.0.2.1"), statusAddr(ip, "2001:db8::1"), statusAddr(host, "*.gw.example.com")}, "", "", 1},
		{"no type is IPAddress", []gwv1.GatewaySpecAddress{specAddr("", "192.0.2.1")}, nil,
			[]gwv1.GatewayStatusAddress{statusAddr(ip, "192.0.2.1")}, "", "", 1},
		{"a repeated address is reported once", []gwv1.GatewaySpecAddress{specAddr(ip, "192.0.2.1"), specAddr("", "192.0.2.1")}, nil,
			[]gwv1.GatewayStatusAddress{statusAddr(ip, "192.0.2.1")}, "", "", 1},
		{"unsupported type", []gwv1.GatewaySpecAddress{specAddr("test/fake-invalid-type", "x"), specAddr(ip, "192.0.2.1")}, nil,
			[]gwv1.GatewayStatusAddress{statusAddr(ip, "192.0.2.1")}, "UnsupportedAddress", "AddressNotUsable", 1},
		{"NamedAddress is unsupported", []gwv1.GatewaySpecAddress{specAddr(string(gwv1.NamedAddressType), "pool")}, nil,
			nil, "UnsupportedAddress", "AddressNotUsable", 0},
		{"IP that does not parse", []gwv1.GatewaySpecAddress{specAddr(ip, "192.0.2.300")}, nil, nil, "", "AddressNotUsable", 0},
		{"IP with a zone", []gwv1.GatewaySpecAddress{specAddr(ip, "fe80::1%eth0")}, nil, nil, "", "AddressNotUsable", 0},
		{"hostname that is not a DNS name", []gwv1.GatewaySpecAddress{specAddr(host, "Not_A.Host")}, nil, nil, "", "AddressNotUsable", 0},
		{"empty value, no environment: assumed", []gwv1.GatewaySpecAddress{specAddr(ip, "")}, nil, nil, "", "", 1},
		{"empty values take distinct environment addresses of their type",
			[]gwv1.GatewaySpecAddress{specAddr(host, ""), specAddr(ip, ""), specAddr("", "")}, env,
			[]gwv1.GatewayStatusAddress{statusAddr(host, "lb.example.net"), statusAddr(ip, "10.0.0.1"), statusAddr(ip, "10.0.0.2")}, "", "", 0},
		{"empty value, environment has none of that type left",
			[]gwv1.GatewaySpecAddress{specAddr(host, ""), specAddr(host, "")}, env,
			[]gwv1.GatewayStatusAddress{statusAddr(host, "lb.example.net")}, "", "AddressNotAssigned", 0},
		{"unsupported outranks unusable", []gwv1.GatewaySpecAddress{specAddr(ip, "nope"), specAddr("example.com/x", "y")}, nil,
			nil, "UnsupportedAddress", "AddressNotUsable", 0},
		{"unusable outranks unassigned", []gwv1.GatewaySpecAddress{specAddr(host, ""), specAddr(host, ""), specAddr(ip, "nope")}, env,
			[]gwv1.GatewayStatusAddress{statusAddr(host, "lb.example.net")}, "", "AddressNotUsable", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := decideAddresses(keyOf("infra", "gw"), defaultedAddrs(t, tt.requested), Options{Addresses: tt.env})
			if !reflect.DeepEqual(d.bound, tt.bound) {
				t.Errorf("bound = %s, want %s", fmtAddrs(d.bound), fmtAddrs(tt.bound))
			}
			a, p := d.conditions()
			if got := reasonOf(a); got != tt.accepted {
				t.Errorf("Accepted reason = %q, want %q", got, tt.accepted)
			}
			if got := reasonOf(p); got != tt.program {
				t.Errorf("Programmed reason = %q, want %q", got, tt.program)
			}
			fs := d.findings(func(sev diag.Severity, field, reason, msg string) diag.Finding {
				return diag.Finding{Severity: sev, Field: field, Reason: reason, Message: msg}
			})
			if len(fs) != tt.findings {
				t.Errorf("findings = %v, want %d", fs, tt.findings)
			}
			for _, f := range fs {
				if f.Reason != diag.ReasonAssumed || f.Severity != diag.Info {
					t.Errorf("finding %v is not an Assumed info", f)
				}
			}
		})
	}
}

// TestDecideAddressesUsable: with an environment that says which static
// addresses it can use, a refused one is left out of status.addresses and
// makes the Gateway AddressNotUsable, and nothing is assumed.
func TestDecideAddressesUsable(t *testing.T) {
	ip, host := string(gwv1.IPAddressType), string(gwv1.HostnameAddressType)
	refuse := func(values ...string) func(types.NamespacedName, gwv1.GatewaySpecAddress) bool {
		return func(gw types.NamespacedName, a gwv1.GatewaySpecAddress) bool {
			if gw != keyOf("infra", "gw") {
				t.Errorf("AddressUsable called for %s", gw)
			}
			return !slices.Contains(values, a.Value)
		}
	}
	tests := []struct {
		name      string
		requested []gwv1.GatewaySpecAddress
		usable    func(types.NamespacedName, gwv1.GatewaySpecAddress) bool
		bound     []gwv1.GatewaySpecAddress
		program   string // reason of the Programmed the addresses impose, "" for none
		findings  int    // Assumed findings
	}{
		{"nil: assumed usable", []gwv1.GatewaySpecAddress{specAddr(ip, "203.0.113.254")}, nil,
			[]gwv1.GatewaySpecAddress{specAddr(ip, "203.0.113.254")}, "", 1},
		{"usable: bound, nothing assumed", []gwv1.GatewaySpecAddress{specAddr("", "203.0.113.253"), specAddr(host, "gw.example.com")},
			refuse("203.0.113.254"), []gwv1.GatewaySpecAddress{specAddr(ip, "203.0.113.253"), specAddr(host, "gw.example.com")}, "", 0},
		{"unusable: left out, AddressNotUsable", []gwv1.GatewaySpecAddress{specAddr("", "203.0.113.254"), specAddr("", "203.0.113.253")},
			refuse("203.0.113.254"), []gwv1.GatewaySpecAddress{specAddr(ip, "203.0.113.253")}, "AddressNotUsable", 0},
		{"malformed values are not asked about", []gwv1.GatewaySpecAddress{specAddr(ip, "nope")},
			func(types.NamespacedName, gwv1.GatewaySpecAddress) bool {
				t.Error("asked about a malformed address")
				return true
			},
			nil, "AddressNotUsable", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := decideAddresses(keyOf("infra", "gw"), defaultedAddrs(t, tt.requested), Options{AddressUsable: tt.usable})
			var want []gwv1.GatewayStatusAddress
			for _, a := range tt.bound {
				want = append(want, statusAddr(string(addressType(a.Type)), a.Value))
			}
			if !reflect.DeepEqual(d.bound, want) {
				t.Errorf("bound = %s, want %s", fmtAddrs(d.bound), fmtAddrs(want))
			}
			if _, p := d.conditions(); reasonOf(p) != tt.program {
				t.Errorf("Programmed reason = %q, want %q", reasonOf(p), tt.program)
			}
			fs := d.findings(func(sev diag.Severity, field, reason, msg string) diag.Finding {
				return diag.Finding{Severity: sev, Field: field, Reason: reason, Message: msg}
			})
			if len(fs) != tt.findings {
				t.Errorf("findings = %v, want %d", fs, tt.findings)
			}
		})
	}
}

// TestDecideAddressesCallsEnvOnlyWhenAssigning: a Gateway whose requests
// all carry a value asks the environment for nothing.
func TestDecideAddressesCallsEnvOnlyWhenAssigning(t *testing.T) {
	calls := 0
	env := func(types.NamespacedName) []gwv1.GatewayStatusAddress { calls++; return nil }
	decideAddresses(keyOf("infra", "gw"), []gwv1.GatewaySpecAddress{specAddr("", "192.0.2.1")}, Options{Addresses: env})
	if calls != 0 {
		t.Errorf("environment called %d times for static addresses only, want 0", calls)
	}
	decideAddresses(keyOf("infra", "gw"), nil, Options{Addresses: env})
	if calls != 1 {
		t.Errorf("environment called %d times for a Gateway requesting none, want 1", calls)
	}
}

// TestGatewayAddressStatus runs the rules through Translate, with an
// environment that gives each Gateway its own IP as the conformance
// harness does.
func TestGatewayAddressStatus(t *testing.T) {
	unique := func(gw types.NamespacedName) []gwv1.GatewayStatusAddress {
		return []gwv1.GatewayStatusAddress{statusAddr(string(gwv1.IPAddressType), "10.9.0."+fmt.Sprint(len(gw.Name)))}
	}
	gw := func(name string, addrs ...gwv1.GatewaySpecAddress) *gwv1.Gateway {
		g := testGateway(httpListener("http", 80, ""))
		g.Name, g.Spec.Addresses = name, addrs
		return g
	}
	in := Input{
		GatewayClasses: []*gwv1.GatewayClass{testClass()},
		Gateways: []*gwv1.Gateway{
			gw("a"), gw("bb", specAddr(string(gwv1.IPAddressType), "")),
			gw("ccc", specAddr("test/fake-invalid-type", "x"), specAddr("", "192.0.2.1")),
		},
	}
	tests := []struct {
		opts                 Options
		gateway, addr        string
		accepted, programmed string
	}{
		{Options{Addresses: unique}, "a", "10.9.0.1", "Accepted", "Programmed"},
		{Options{Addresses: unique}, "bb", "10.9.0.2", "Accepted", "Programmed"},
		{Options{Addresses: unique}, "ccc", "192.0.2.1", "UnsupportedAddress", "AddressNotUsable"},
		{Options{}, "a", "", "Accepted", "Programmed"},
		{Options{}, "bb", "", "Accepted", "Programmed"},
	}
	for _, tt := range tests {
		st := translateT(t, in, tt.opts).Status.Gateways[keyOf("infra", tt.gateway)]
		var got string
		for _, a := range st.Addresses {
			got += a.Value
		}
		if got != tt.addr {
			t.Errorf("%s (env %t): status.addresses = %q, want %q", tt.gateway, tt.opts.Addresses != nil, got, tt.addr)
		}
		a := meta.FindStatusCondition(st.Conditions, string(gwv1.GatewayConditionAccepted))
		p := meta.FindStatusCondition(st.Conditions, string(gwv1.GatewayConditionProgrammed))
		if a.Reason != tt.accepted || p.Reason != tt.programmed {
			t.Errorf("%s (env %t): Accepted=%s Programmed=%s, want %s %s", tt.gateway, tt.opts.Addresses != nil,
				a.Reason, p.Reason, tt.accepted, tt.programmed)
		}
	}
}

func reasonOf(c *condition) string {
	if c == nil {
		return ""
	}
	return c.Reason
}

func fmtAddrs(as []gwv1.GatewayStatusAddress) string {
	s := "["
	for _, a := range as {
		s += fmt.Sprintf(" %s=%s", addressType(a.Type), a.Value)
	}
	return s + " ]"
}
