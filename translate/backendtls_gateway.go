package translate

import (
	"fmt"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/profile"
	"github.com/gwsim/gwsim/translate/ir"
)

// gatewayBackendTLS is what gwsim decided about a Gateway's
// spec.tls.backend.
type gatewayBackendTLS struct {
	// clientCertificate is the Secret ("namespace/name") whose certificate
	// the Gateway presents to TLS backends; empty when none is set or the
	// reference is invalid.
	clientCertificate string
	// problem is the Gateway's ResolvedRefs=False condition when the
	// reference is invalid.
	problem *condition
}

// resolveBackendTLS checks spec.tls.backend.clientCertificateRef with the
// rules of a listener's certificateRef (a core Secret of type
// kubernetes.io/tls whose tls.crt and tls.key form a key pair, in the
// Gateway's namespace or allowed by a ReferenceGrant to Gateways), and
// turns a problem into the Gateway's ResolvedRefs=False condition:
// RefNotPermitted for a reference that no grant allows, else
// InvalidClientCertificateRef. The Gateway stays Accepted.
func (w *world) resolveBackendTLS(g *gwv1.Gateway) gatewayBackendTLS {
	if g.Spec.TLS == nil || g.Spec.TLS.Backend == nil || g.Spec.TLS.Backend.ClientCertificateRef == nil {
		return gatewayBackendTLS{}
	}
	owner := listenerOwner{kind: "Gateway", namespace: g.Namespace, name: g.Name}
	name, reason, msg := w.resolveCertificate(owner, *g.Spec.TLS.Backend.ClientCertificateRef, "spec.tls.backend.clientCertificateRef")
	if reason == "" {
		return gatewayBackendTLS{clientCertificate: name}
	}
	gwReason := gwv1.GatewayReasonInvalidClientCertificateRef
	if reason == string(gwv1.ListenerReasonRefNotPermitted) {
		gwReason = gwv1.GatewayReasonRefNotPermitted
	}
	c := falseCond(string(gwv1.GatewayConditionResolvedRefs), string(gwReason),
		"spec.tls.backend.clientCertificateRef: "+msg+"; the Gateway presents no client certificate to backends")
	return gatewayBackendTLS{problem: &c}
}

// resolvedRefsCondition is the Gateway's ResolvedRefs condition: False for
// an invalid backend client certificate, else False with
// ListenersNotResolved when a listener of the Gateway has unresolved
// references (the condition summarises theirs), else True. A profile that
// writes it only about spec.tls leaves out the listeners but for their
// frontend CA certificates, and the condition when spec.tls is unset (ok
// false).
func (gr *gatewayResult) resolvedRefsCondition(choices profile.StatusChoices) (condition, bool) {
	if choices.GatewayResolvedRefsForTLSOnly && gr.gateway.Spec.TLS == nil {
		return condition{}, false
	}
	if gr.backendTLS.problem != nil {
		return *gr.backendTLS.problem, true
	}
	if choices.GatewayResolvedRefsForTLSOnly && gr.choices.EnvoyListenerRules {
		if gr.frontendProblem != "" {
			return falseCond(string(gwv1.GatewayConditionResolvedRefs), string(gwv1.GatewayReasonInvalidParameters), gr.frontendProblem), true
		}
		return trueCond(string(gwv1.GatewayConditionResolvedRefs), string(gwv1.GatewayReasonResolvedRefs), "spec.tls references are resolved"), true
	}
	if choices.GatewayResolvedRefsForTLSOnly {
		for _, l := range gr.listeners {
			if frontendProblem(l.problems) {
				return falseCond(string(gwv1.GatewayConditionResolvedRefs), string(gwv1.GatewayReasonInvalidParameters),
					fmt.Sprintf("listener %s: %s", l.spec.Name, firstNonEmpty(l.problems.refsMsg, l.problems.acceptedMsg))), true
			}
		}
		return trueCond(string(gwv1.GatewayConditionResolvedRefs), string(gwv1.GatewayReasonResolvedRefs), "spec.tls references are resolved"), true
	}
	var unresolved []string
	for _, l := range gr.listeners {
		if l.problems.refsReason != "" {
			unresolved = append(unresolved, string(l.spec.Name))
		}
	}
	if len(unresolved) > 0 {
		return falseCond(string(gwv1.GatewayConditionResolvedRefs), string(gwv1.GatewayReasonListenersNotResolved),
			fmt.Sprintf("listener(s) %s have unresolved references; see their ResolvedRefs condition", strings.Join(unresolved, ", "))), true
	}
	return trueCond(string(gwv1.GatewayConditionResolvedRefs), string(gwv1.GatewayReasonResolvedRefs), "all references are resolved"), true
}

// presentClientCertificate sets the Gateway's client certificate on the
// TLS settings of every cluster that a BackendTLSPolicy makes TLS: the
// Gateway presents it in each handshake with a backend. Cluster TLS
// settings are shared between Gateways, so each is copied first.
func presentClientCertificate(g *ir.Gateway, gr *gatewayResult) {
	cert := gr.backendTLS.clientCertificate
	if cert == "" {
		return
	}
	for i := range g.Clusters {
		if tls := g.Clusters[i].TLS; tls != nil {
			cp := *tls
			cp.ClientCertificate = cert
			g.Clusters[i].TLS = &cp
		}
	}
}

// frontendProblem reports whether a listener's problems come from its
// frontend client certificate validation (spec.tls.frontend).
func frontendProblem(p listenerProblems) bool {
	switch p.refsReason {
	case string(gwv1.ListenerReasonInvalidCACertificateRef), string(gwv1.ListenerReasonInvalidCACertificateKind):
		return true
	}
	return p.acceptedReason == string(gwv1.ListenerReasonNoValidCACertificate) || p.frontendReason != ""
}
