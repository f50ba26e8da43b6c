package translate

import (
	"fmt"
	"net/netip"
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
)

// addressHostname is the pattern the Gateway API CRDs check Hostname
// address values against (GatewaySpecAddress, GatewayStatusAddress).
var addressHostnameRE = regexp.MustCompile(`^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)

// addressDecision is what gwsim decided about a Gateway's addresses.
//
// gwsim runs offline: it cannot ask a network whether a static address is
// free, routable or already in use. Unless the environment says
// (Options.AddressUsable), it assumes that every requested address of a
// supported type (IPAddress, Hostname) with a well-formed value is usable,
// reports it in status.addresses and says so in an Assumed finding. What it
// can decide from the manifests alone, it decides as the spec requires:
//
//   - a type other than IPAddress and Hostname (NamedAddress, a
//     domain-prefixed type) is not supported: Accepted=False with
//     UnsupportedAddress, and Programmed=False with AddressNotUsable;
//   - an IPAddress value that is not an IP, or a Hostname value that is not
//     a DNS name, cannot be used: Programmed=False with AddressNotUsable;
//   - a well-formed value the environment says it cannot use
//     (Options.AddressUsable returns false) is left out of status.addresses:
//     Programmed=False with AddressNotUsable;
//   - an empty value asks for an address of that type to be assigned. The
//     environment's addresses (Options.Addresses) fill it, each used once;
//     when the environment has none of that type left, Programmed=False
//     with AddressNotAssigned. With no environment (Options.Addresses nil,
//     the CLI) gwsim assumes one would be assigned, reports none, and says
//     so in an Assumed finding;
//   - no address requested: status.addresses is what the environment gives
//     the Gateway, nothing without one.
//
// The CRD defaults a spec.addresses entry's type to IPAddress; the loader
// applies it. An address the environment gives without a type is an
// IPAddress too (Options.Addresses).
type addressDecision struct {
	// bound is status.addresses, in spec order (then the environment's
	// order), each address once, always with its type set.
	bound []gwv1.GatewayStatusAddress
	// unsupported, unusable and unassigned describe the spec.addresses
	// entries behind UnsupportedAddress, AddressNotUsable and
	// AddressNotAssigned; refused are the well-formed ones the environment
	// cannot use (AddressNotUsable too).
	unsupported, unusable, unassigned, refused []string
	// static are the well-formed requested addresses gwsim assumed usable;
	// leftToEnv are the indexes of empty-value requests left to an
	// environment gwsim does not have.
	static    []string
	leftToEnv []int
	// envAssigns is true when an environment (Options.Addresses) assigns
	// addresses.
	envAssigns bool
}

// decideAddresses applies the rules of addressDecision to the addresses
// Gateway key requests. opts.Addresses is called at most once, and only
// when some address is to be assigned; opts.AddressUsable once per
// well-formed static address.
func decideAddresses(key types.NamespacedName, requested []gwv1.GatewaySpecAddress, opts Options) addressDecision {
	env := opts.Addresses
	d := addressDecision{envAssigns: env != nil}
	var pool []gwv1.GatewayStatusAddress
	if env != nil && needsAssignment(requested) {
		pool = env(key)
	}
	used := make([]bool, len(pool))
	seen := map[string]bool{}
	bind := func(typ gwv1.AddressType, value string) {
		if !seen[string(typ)+" "+value] {
			seen[string(typ)+" "+value] = true
			d.bound = append(d.bound, gwv1.GatewayStatusAddress{Type: &typ, Value: value})
		}
	}
	if len(requested) == 0 {
		for _, a := range pool {
			bind(addressType(a.Type), a.Value)
		}
		return d
	}
	for i, a := range requested {
		typ := deref(a.Type)
		desc := fmt.Sprintf("spec.addresses[%d] (%s %q)", i, typ, a.Value)
		switch {
		case typ != gwv1.IPAddressType && typ != gwv1.HostnameAddressType:
			d.unsupported = append(d.unsupported, desc)
		case a.Value == "" && env == nil:
			d.leftToEnv = append(d.leftToEnv, i)
		case a.Value == "":
			j := takeAddress(pool, used, typ)
			if j < 0 {
				d.unassigned = append(d.unassigned, fmt.Sprintf("spec.addresses[%d] (%s)", i, typ))
				continue
			}
			bind(typ, pool[j].Value)
		case !wellFormedAddress(typ, a.Value):
			d.unusable = append(d.unusable, desc)
		case opts.AddressUsable != nil && !opts.AddressUsable(key, a):
			d.refused = append(d.refused, desc)
		case opts.AddressUsable != nil:
			bind(typ, a.Value)
		default:
			d.static = append(d.static, fmt.Sprintf("%s (%s)", a.Value, typ))
			bind(typ, a.Value)
		}
	}
	return d
}

// needsAssignment reports whether a Gateway asks the environment for an
// address: it requests none, or one of its requests has no value.
func needsAssignment(requested []gwv1.GatewaySpecAddress) bool {
	if len(requested) == 0 {
		return true
	}
	for _, a := range requested {
		if a.Value == "" {
			return true
		}
	}
	return false
}

// takeAddress marks and returns the index of the first unused address of
// type typ in pool, or -1.
func takeAddress(pool []gwv1.GatewayStatusAddress, used []bool, typ gwv1.AddressType) int {
	for j, a := range pool {
		if !used[j] && addressType(a.Type) == typ {
			used[j] = true
			return j
		}
	}
	return -1
}

// addressType is the type of an address the environment gives: IPAddress
// when it names none (Options.Addresses).
func addressType(t *gwv1.AddressType) gwv1.AddressType {
	if t == nil {
		return gwv1.IPAddressType
	}
	return *t
}

// wellFormedAddress checks a value as the API would: an IPAddress must parse
// as an IPv4 or IPv6 address (no zone), a Hostname must be a DNS name, a
// leading "*." allowed, of at most 253 characters.
func wellFormedAddress(typ gwv1.AddressType, value string) bool {
	if typ == gwv1.IPAddressType {
		ip, err := netip.ParseAddr(value)
		return err == nil && ip.Zone() == ""
	}
	ok := addressHostnameRE.MatchString(value)
	return ok && len(value) <= 253
}

// conditions returns the Accepted and Programmed conditions the addresses
// impose on the Gateway, when they impose one.
func (d addressDecision) conditions() (accepted, programmed *condition) {
	switch {
	case len(d.unsupported) > 0:
		msg := "address type not supported (gwsim supports IPAddress and Hostname): " + strings.Join(d.unsupported, ", ")
		a := falseCond(string(gwv1.GatewayConditionAccepted), string(gwv1.GatewayReasonUnsupportedAddress), msg)
		p := falseCond(string(gwv1.GatewayConditionProgrammed), string(gwv1.GatewayReasonAddressNotUsable), msg)
		return &a, &p
	case len(d.unusable) > 0 || len(d.refused) > 0:
		var why []string
		if len(d.unusable) > 0 {
			why = append(why, "address value is not valid for its type (IPAddress: an IP; Hostname: a DNS name): "+strings.Join(d.unusable, ", "))
		}
		if len(d.refused) > 0 {
			why = append(why, "the environment cannot use these addresses (in use, or outside the addresses it can bind); remove them or request others: "+
				strings.Join(d.refused, ", "))
		}
		p := falseCond(string(gwv1.GatewayConditionProgrammed), string(gwv1.GatewayReasonAddressNotUsable), strings.Join(why, "; "))
		return nil, &p
	case len(d.unassigned) > 0:
		p := falseCond(string(gwv1.GatewayConditionProgrammed), string(gwv1.GatewayReasonAddressNotAssigned),
			"no address of the requested type is available to assign: "+strings.Join(d.unassigned, ", "))
		return nil, &p
	}
	return nil, nil
}

// programmedMessage says where a programmed Gateway can be reached.
func (d addressDecision) programmedMessage() string {
	switch {
	case len(d.bound) > 0:
		vals := make([]string, len(d.bound))
		for i, a := range d.bound {
			vals[i] = a.Value
		}
		return "Gateway is programmed at " + strings.Join(vals, ", ")
	case d.envAssigns:
		return "Gateway is programmed; the environment assigned it no address"
	}
	return "Gateway is programmed; it has no address (offline, gwsim assigns none)"
}

// findings say what gwsim assumed about the addresses: that the static ones
// are usable, and that the empty-value ones would be assigned.
func (d addressDecision) findings(finding func(diag.Severity, string, string, string) diag.Finding) []diag.Finding {
	var out []diag.Finding
	if len(d.static) > 0 {
		out = append(out, finding(diag.Info, "spec.addresses", diag.ReasonAssumed,
			"gwsim cannot check a network offline; it assumes these addresses are free and routable and reports them in status.addresses: "+
				strings.Join(d.static, ", ")))
	}
	for _, i := range d.leftToEnv {
		out = append(out, finding(diag.Info, fmt.Sprintf("spec.addresses[%d]", i), diag.ReasonAssumed,
			"the address has no value, which asks the environment to assign one; gwsim assumes one would be, but assigns none offline, so status.addresses leaves it out"))
	}
	return out
}
