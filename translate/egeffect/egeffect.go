// Package egeffect turns Envoy Gateway's policies into the effects gwsim's
// evaluator applies to a request (ir.Policies on a route rule,
// ir.ClientSettings on a listener). It is pure: a policy's spec in, IR out;
// which policy applies where is translate/egpolicy's answer, not this
// package's. Every field gwsim reads but does not simulate is named in the
// effects' NotSimulated, never dropped. The facts (statuses, defaults,
// filter order) are Envoy Gateway v1.9.1's, from its translator
// (internal/gatewayapi, internal/xds/translator) and the Envoy filters it
// configures; docs/implementations.md lists them.
package egeffect

import (
	"time"

	"github.com/gwsim/gwsim/profile"
	"github.com/gwsim/gwsim/translate/ir"
)

// The kinds of Envoy Gateway's policies, as ir.PolicyRef names them.
const (
	SecurityPolicy       = profile.EnvoyGatewayGroup + "/SecurityPolicy"
	BackendTrafficPolicy = profile.EnvoyGatewayGroup + "/BackendTrafficPolicy"
	ClientTrafficPolicy  = profile.EnvoyGatewayGroup + "/ClientTrafficPolicy"
	EnvoyExtensionPolicy = profile.EnvoyGatewayGroup + "/EnvoyExtensionPolicy"
	EnvoyPatchPolicy     = profile.EnvoyGatewayGroup + "/EnvoyPatchPolicy"
)

// IsPolicyKind reports whether kind (group/Kind) is one of Envoy Gateway's
// policy kinds.
func IsPolicyKind(kind string) bool {
	switch kind {
	case SecurityPolicy, BackendTrafficPolicy, ClientTrafficPolicy, EnvoyExtensionPolicy, EnvoyPatchPolicy:
		return true
	}
	return false
}

// Ref names a policy of kind (one of the constants) in the IR.
func Ref(kind, namespace, name string) ir.PolicyRef {
	return ir.PolicyRef{Kind: kind, Namespace: namespace, Name: name}
}

// AddNotSimulated lists a whole policy whose effect gwsim does not
// simulate (an EnvoyExtensionPolicy's Wasm, Lua or external processing,
// an EnvoyPatchPolicy's patches to Envoy's configuration): it can change
// any answer, so the answer of a request it applies to is not known.
func AddNotSimulated(dst *ir.Policies, ref ir.PolicyRef, what string) {
	dst.NotSimulated = append(dst.NotSimulated, ir.PolicyField{Policy: ref, What: what, Decides: true})
}

// AddRefused records a policy Envoy Gateway refused for its spec where it
// would apply: none of its effects are added. EG fails closed there (its
// translator sets a 500 direct response on the routes the policy covers)
// unless failsClosed is false (a ClientTrafficPolicy on a listener that
// shares its port, which EG leaves untouched).
func AddRefused(dst *ir.Policies, ref ir.PolicyRef, msg string, failsClosed bool) {
	dst.Refused = append(dst.Refused, ir.RefusedPolicy{Policy: ref, Message: msg, FailsClosed: failsClosed})
}

// Empty reports whether p holds no effect, so that a rule without one
// keeps a nil Policies.
func Empty(p *ir.Policies) bool {
	return p == nil || p.FaultAbort == nil && p.FaultDelay == nil && p.CORS == nil && p.ExtAuth == nil &&
		len(p.Credentials) == 0 && p.Authorization == nil && len(p.ResponseOverrides) == 0 &&
		p.Timeouts == nil && p.Retry == nil && len(p.NotSimulated) == 0 && len(p.Refused) == 0
}

// durationSeconds is a Gateway API duration in whole seconds, -1 when it
// does not parse.
func durationSeconds(d string) int32 {
	v, err := time.ParseDuration(d)
	if err != nil {
		return -1
	}
	return int32(v / time.Second)
}

// unsimulated appends a field that cannot decide a request's answer.
func unsimulated(dst []ir.PolicyField, ref ir.PolicyRef, field, what string) []ir.PolicyField {
	return append(dst, ir.PolicyField{Policy: ref, Field: field, What: what})
}

// deciding appends a field that can decide a request's answer.
func deciding(dst []ir.PolicyField, ref ir.PolicyRef, field, what string) []ir.PolicyField {
	return append(dst, ir.PolicyField{Policy: ref, Field: field, What: what, Decides: true})
}
