package explain

import (
	"strings"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate/evaluate"
)

// PolicyEffect is one thing an implementation's policy, or the listener's
// client settings, did to the request, in the order the data plane does
// it: on the listener before routing (path, headers), then on the
// matched rule ahead of its filters (fault, CORS, credentials,
// authorization), then on the answer (response override), and what
// governs the forwarded request (timeouts, retry).
type PolicyEffect struct {
	// Policy is the policy, with where it is defined; nil for what the
	// implementation does by default.
	Policy *Ref `json:"policy,omitempty"`
	// Effect names what acted: fault, cors, extAuth, APIKey, BasicAuth,
	// OIDC, JWT, authorization, responseOverride, timeouts, retry, path,
	// headers, notSimulated, refused (a policy refused for its spec).
	Effect  string `json:"effect"`
	Message string `json:"message"`
	// Decided marks the effect that gave the answer.
	Decided bool `json:"decided,omitempty"`
}

// policyEffects names, with its source, each policy step the evaluator
// took. Sources name a kind without its group.
func (w *world) policyEffects(res evaluate.Result) []PolicyEffect {
	if len(res.PolicySteps) == 0 {
		return nil
	}
	out := make([]PolicyEffect, 0, len(res.PolicySteps))
	for _, p := range res.PolicySteps {
		e := PolicyEffect{Effect: p.Effect, Message: p.Message, Decided: p.Decided}
		if p.Policy != nil {
			r := Ref{Kind: p.Policy.Kind, Namespace: p.Policy.Namespace, Name: p.Policy.Name}
			_, kind, _ := strings.Cut(p.Policy.Kind, "/")
			r.Source = w.in.Sources.Of(diag.ObjectRef{Kind: kind, Namespace: r.Namespace, Name: r.Name}).String()
			e.Policy = &r
		}
		out = append(out, e)
	}
	return out
}
